#!/usr/bin/env bash
# Overhead of papi-mpit against the same program without the tool, on every
# MPI flavor present.  Run after scripts/build.sh:   bench/run.sh [iterations]
# Results go to stdout; doc/performance.md holds a recorded run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
iters=${1:-20000}
. "$top/ctests/flavors.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_spc_attach=all
mkdir -p "$BUILD/bench"
for flavor in $ALL_FLAVORS; do
  flavor_vars "$flavor" || continue
  exe=$BUILD/bench/pingpong-$flavor
  $MPICC -O2 -I"$PREFIX/include" "$top/bench/pingpong.c" -L"$PREFIX/lib" -lpapi -Wl,-rpath,"$PREFIX/lib" -o "$exe"
  echo "== $flavor ($iters round trips, best of 5)"
  for mode in none perf pvar events; do
    $MPIRUN $MPIRUN_OPTS -np 2 "$exe" $mode "$iters" 2>/dev/null | grep -v '^papi-mpit'
  done
  echo "-- burst: every message unexpected (MPI raises queue events)"
  for mode in none events; do
    $MPIRUN $MPIRUN_OPTS -np 2 "$exe" $mode "$((iters * 10))" burst 2>/dev/null | grep -v '^papi-mpit'
  done
  # the multithreaded out-of-sequence measurement of the SPC paper's Table 3
  if [ "$flavor" = openmpi-spc ] && [ -x "$BUILD/ctests-build/$flavor/t_oos_threads" ]; then
    for btl in vader tcp; do
      echo "-- out-of-sequence messages, btl $btl, 2 ranks, 200 windows of 64"
      OOS_ITERS=200 $MPIRUN --allow-run-as-root --oversubscribe --mca pml ob1 --mca btl self,$btl -np 2 \
        -x LD_LIBRARY_PATH="$BUILD/papi-build/src" -x PAPI_MPIT_BACKEND_DIR="$BUILD/.libs" \
        "$BUILD/ctests-build/$flavor/t_oos_threads" 2>/dev/null | grep '^threads'
    done
  fi
done
