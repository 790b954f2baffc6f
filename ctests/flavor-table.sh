#!/usr/bin/env bash
# The table of test x flavor that doc/testing.md holds, made from the tests'
# own "flavors:" and "scope:" lines and flavors.sh's FLAVOR_SKIPS, so that
# it says what ctests/run.sh does:
#   ctests/flavor-table.sh print         the table, in Markdown
#   ctests/flavor-table.sh check FILE    1 unless FILE holds it between its
#                                        flavor-table markers
#   ctests/flavor-table.sh update FILE   writes it there
# A cell: "x" the test runs there, "skip" it is skipped with its reason
# (flavors.sh), empty it does not run there (its kinds or its scope).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/flavors.sh"
begin='<!-- flavor-table begin -->' end='<!-- flavor-table end -->'

table() {
  local f t name kinds scope why row
  printf '| test | scope | why there |'
  for f in $ALL_FLAVORS; do printf ' %s |' "$f"; done
  printf '\n|---|---|---|'
  for f in $ALL_FLAVORS; do printf -- '---|'; done
  printf '\n'
  for t in "$here"/t_*.c "$here"/t_*.sh; do
    name=${t##*/}; name=${name%.*}
    test_meta "$t"
    kinds=$KINDS scope=${SCOPE:-every} why=$SCOPE_WHY
    [ -n "$kinds" ] && why="${why:+$why; }kinds: $kinds"
    row="| $name | $scope | ${why:-} |"
    for f in $ALL_FLAVORS; do
      flavor_kind_r "$f"
      if [ -n "$kinds" ] && ! case " $kinds " in *" $REPLY "*) true ;; *) false ;; esac; then
        row="$row |"
      elif ! in_scope "$name" "$scope" "$kinds" "$f"; then
        row="$row |"
      elif flavor_skip "$f" "$name" >/dev/null; then
        row="$row skip |"
      else
        row="$row x |"
      fi
    done
    echo "$row"
  done
}

case ${1:-print} in
  print) table ;;
  check | update)
    [ -f "${2:-}" ] || { echo "usage: $0 check|update FILE" >&2; exit 2; }
    grep -qxF "$begin" "$2" && grep -qxF "$end" "$2" || { echo "$2: no flavor-table markers" >&2; exit 1; }
    new=$(mktemp); trap 'rm -f "$new"' EXIT
    { sed "/^$begin\$/q" "$2"; table; sed -n "/^$end\$/,\$p" "$2"; } >"$new"
    if [ "$1" = update ]; then cat "$new" >"$2"
    elif ! diff -u "$2" "$new"; then
      echo "FAIL: $2's table of tests by flavor is not what the tests say: ctests/flavor-table.sh update $2"; exit 1
    fi ;;
  *) echo "usage: $0 print|check FILE|update FILE" >&2; exit 2 ;;
esac
