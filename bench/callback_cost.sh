#!/usr/bin/env bash
# Instructions the component adds to each MPI_T event MPICH delivers
# (bench/callback_cost.c), counted by callgrind on the receiving rank:
# MPIR_T_event_instance inclusive per event with the component's callbacks,
# against an empty callback registered on the same events.  One line per
# mode (an event set: one rule kind each, and the portable metrics together).
#   bench/callback_cost.sh [bursts [modes...]]      (MPICH events build)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
bursts=${1:-20}
shift || true
modes=${*:-count level-max level-time portable group sum-max mpit mpit-queue}
flavor_vars mpich-events || { echo "the MPICH events build is not installed"; exit 1; }
mkdir -p "$BUILD/bench"
exe=$BUILD/bench/callback_cost
$MPICC -O2 -Wall -Wextra -I"$PREFIX/include" "$top/bench/callback_cost.c" -L"$PREFIX/lib" -lpapi \
  -Wl,-rpath,"$PREFIX/lib" -o "$exe"
events=$((bursts * 100 * 2)) # enqueued + dequeued per message
declare -A per
for mode in empty $modes; do
  out=$BUILD/bench/callback_cost-$mode.cg
  $MPIRUN -np 1 "$exe" "$mode" "$bursts" : -np 1 valgrind --tool=callgrind --callgrind-out-file="$out" \
    "$exe" "$mode" "$bursts" 2>/dev/null | grep -v '^papi-mpit' || true
  ir=$(callgrind_annotate --inclusive=yes --threshold=100 "$out" 2>/dev/null | awk '/:MPIR_T_event_instance / && !done { gsub(",", "", $1); print $1; done = 1 }')
  per[$mode]=$(( ${ir:-0} / events ))
  echo "$mode: MPIR_T_event_instance ${ir:-?} instructions over $events events: ${per[$mode]} per event"
done
for mode in $modes; do
  awk -v m="$mode" -v a="${per[$mode]}" -v e="${per[empty]}" \
    'BEGIN { printf "%-10s adds %3d instructions per event to MPICH'"'"'s own %d: %.2fx\n", m, a - e, e, (a - e) / e }'
done
