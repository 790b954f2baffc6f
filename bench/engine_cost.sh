#!/usr/bin/env bash
# Instructions of the rule engine per event (bench/engine_cost.c), for every
# rule kind, counted by callgrind: mpit_engine_dispatch inclusive per event.
# No MPI: the kinds MPICH's events cannot drive (Open MPI ob1's PAIR,
# SEQUENCE, SUM, MAX, keyed LEVEL) are measured here.
#   bench/engine_cost.sh [events [modes...]]
# ENGINE_SRC=dir measures another copy of the engine's mpit_engine*.c and
# mpit_rules.c (a previous revision: git show REV:components/mpit/FILE >
# dir/FILE for each; before the engine was split, mpit_engine.c alone).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
n=${1:-20000}
shift || true
modes=${*:-count sum max pair level-keyed level-count sequence}
src=${ENGINE_SRC:-$top/components/mpit}
mkdir -p "$BUILD/bench"
exe=$BUILD/bench/engine_cost
# the flags libpapi is built with (-O2), the engine's own headers first
cc -O2 -Wall -Wextra -I"$src" -I"$top/components/mpit" "$top/bench/engine_cost.c" "$src"/mpit_engine*.c \
  "$src/mpit_rules.c" -o "$exe"
for mode in $modes; do
  out=$BUILD/bench/engine_cost-$mode.cg
  valgrind --tool=callgrind --callgrind-out-file="$out" "$exe" "$mode" "$n" 2>/dev/null
  ir=$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk '/:mpit_engine_dispatch / && !done { gsub(",", "", $1); print $1; done = 1 }')
  case $mode in pair|level-keyed|level-count) ev=$((n * 2)) ;; *) ev=$n ;; esac
  echo "$mode: mpit_engine_dispatch ${ir:-?} instructions over $ev events: $(( ${ir:-0} / ev )) per event"
done
