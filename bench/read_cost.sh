#!/usr/bin/env bash
# PAPI_read on mpit events against raw MPI_T reads of the same variables
# (bench/read_cost.c): wall clock, then instructions counted by callgrind
# (repeatable on a busy machine), per operation, with the ratios.
#   bench/read_cost.sh [flavor...]     (default: openmpi-spc mpich-events)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_spc_attach=all
mkdir -p "$BUILD/bench"
iters=4000 # under callgrind
for flavor in ${@:-openmpi-spc mpich-events}; do
  flavor_vars "$flavor" || { echo "($flavor not installed)"; continue; }
  exe=$BUILD/bench/read_cost-$flavor
  $MPICC -O2 -Wall -Wextra -I"$PREFIX/include" "$top/bench/read_cost.c" -L"$PREFIX/lib" -lpapi \
    -Wl,-rpath,"$PREFIX/lib" -o "$exe"
  echo "== $flavor: wall clock"
  "$exe" 200000
  echo "== $flavor: instructions per operation (callgrind, $iters iterations)"
  out=$BUILD/bench/read_cost-$flavor.cg
  valgrind --tool=callgrind --callgrind-out-file="$out" "$exe" "$iters" >/dev/null 2>&1
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | awk -v it="$iters" '
    /:loop_/ { gsub(",", "", $1); for (i = 2; i <= NF; i++) if ($i ~ /:loop_/) { split($i, f, ":"); ir[f[2]] = $1 } }
    END {
      all = it / 8 * 7; two = it * 7
      printf "  per PAPI_read of the whole set: %.0f; per round of raw reads of the same variables: %.0f (%.3fx)\n",
        ir["loop_papi_read_all"] / all, ir["loop_raw_all"] / all, ir["loop_papi_read_all"] / ir["loop_raw_all"]
      r = ir["loop_raw_two"] / two
      printf "  2 variables: raw %.0f; PAPI_read %.0f (%.2fx); PAPI_read+PAPI_reset %.0f (%.2fx); PAPI_accum %.0f (%.2fx)\n",
        r, ir["loop_papi_read"] / two, ir["loop_papi_read"] / two / r,
        ir["loop_papi_read_reset"] / two, ir["loop_papi_read_reset"] / two / r,
        ir["loop_papi_accum"] / two, ir["loop_papi_accum"] / two / r
    }'
done
