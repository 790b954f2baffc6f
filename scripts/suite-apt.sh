#!/usr/bin/env bash
# Fetches packages of another Debian suite (trixie, sid) without touching the
# machine's own apt: a private apt configuration in the cache, whose mirror
# is the machine's own (the URIs line of its debian.sources, or its
# sources.list).  Needs no root.
#   scripts/suite-apt.sh source SUITE PACKAGE DIR      apt-get source --download-only into DIR
#   scripts/suite-apt.sh download SUITE PACKAGE... DIR apt-get download (binary .debs) into DIR
#   scripts/suite-apt.sh mirror                        prints the machine's mirror
set -euo pipefail
CACHE=$(sh "$(dirname "$0")/cache-dir.sh")

mirror() {
  local m=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    m=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
    m=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
  fi
  [ -n "$m" ] || { echo "suite-apt: no Debian mirror in the machine's apt sources" >&2; exit 1; }
  echo "$m"
}

# apt_for SUITE: prints the options of a private apt for SUITE, updated once
# a day (apt-get update on its own lists only)
apt_for() {
  local suite=$1 dir=$CACHE/apt/$1
  mkdir -p "$dir/lists/partial" "$dir/archives/partial" "$dir/etc"
  local m; m=$(mirror)
  printf 'Types: deb deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$m" "$suite" > "$dir/etc/debian.sources"
  local opts=(-o "Dir::Etc::sourcelist=/dev/null" -o "Dir::Etc::sourceparts=$dir/etc"
              -o "Dir::State::lists=$dir/lists" -o "Dir::Cache=$dir" -o "Dir::Cache::archives=$dir/archives"
              -o "Dir::State::status=$dir/status" -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
  touch "$dir/status"
  if [ -z "$(find "$dir/lists" -maxdepth 1 -name '*Sources*' -mmin -1440 2>/dev/null)" ]; then
    apt-get "${opts[@]}" update -qq >"$dir/update.log" 2>&1 \
      || { tail -5 "$dir/update.log" >&2; echo "suite-apt: apt-get update for $suite failed" >&2; exit 1; }
  fi
  printf '%s\n' "${opts[@]}"
}

case ${1:-} in
  mirror) mirror ;;
  source)
    [ $# = 4 ] || { echo "usage: $0 source SUITE PACKAGE DIR" >&2; exit 2; }
    mapfile -t opts < <(apt_for "$2")
    mkdir -p "$4"
    # the source package's pieces that are served; a missing debian.tar.xz
    # (PAPI 7.2.0 in sid) leaves the upstream tarball, all a build needs
    (cd "$4" && apt-get "${opts[@]}" source --download-only -qq "$3") || true
    ls "$4"/*.orig.tar.* >/dev/null 2>&1 || { echo "suite-apt: no upstream tarball of $3 in $2" >&2; exit 1; }
    ;;
  download)
    [ $# -ge 4 ] || { echo "usage: $0 download SUITE PACKAGE... DIR" >&2; exit 2; }
    suite=$2; shift 2
    dest=${*: -1}; pkgs=("${@:1:$#-1}")
    mapfile -t opts < <(apt_for "$suite")
    mkdir -p "$dest"
    (cd "$dest" && apt-get "${opts[@]}" download -qq "${pkgs[@]}")
    ;;
  *) echo "usage: $0 source|download|mirror ..." >&2; exit 2 ;;
esac
