#!/usr/bin/env bash
# Overhead of papi-mpit against the same program without the tool, on every
# MPI flavor present.  Run after scripts/build.sh:   bench/run.sh [iterations]
#   bench/run.sh init [runs]     start-up cost (bench/init_cost.c), 4 ranks
#   bench/run.sh report [rounds] the report tool on NetPIPE (report_latency.sh)
#   bench/run.sh matrix [rounds] its --matrix (Open MPI's monitoring) on NetPIPE
#                                (report_matrix_cost.sh)
#   bench/run.sh startup [runs]  what the report tool adds to MPI_Init (report_startup.sh)
#   bench/run.sh overhead [runs] the report tool on compute rounds with an
#                                allreduce every ~10 ms (report_overhead.sh)
# Results go to stdout; doc/performance.md holds a recorded run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$BUILD/bench"

[ "${1:-}" = report ] && exec "$top/bench/report_latency.sh" "${@:2}"
[ "${1:-}" = matrix ] && exec "$top/bench/report_matrix_cost.sh" "${@:2}"
[ "${1:-}" = startup ] && exec "$top/bench/report_startup.sh" "${@:2}"
[ "${1:-}" = overhead ] && exec "$top/bench/report_overhead.sh" "${@:2}"

# init: what the component adds to MPI_Init and to the first PAPI_read after
# it.  One MPI_Init per process, so the three modes alternate, runs times;
# medians of the per-run largest over the 4 ranks (us).  The events are the
# report tool's defaults each MPI provides; no SPC attached but by them.
if [ "${1:-}" = init ]; then
  runs=${2:-15}
  unset OMPI_MCA_mpi_spc_attach
  for flavor in openmpi-spc mpich-events; do
    flavor_vars "$flavor" || { echo "($flavor not installed)"; continue; }
    case $flavor in
      openmpi-spc) ev=UNEXPECTED_MSGS,BYTES_SENT,BYTES_RECEIVED,UNEXPECTED_QUEUE_MAX,OOS_MSGS,UNEXPECTED_QUEUE_LENGTH ;;
      *) ev=UNEXPECTED_MSGS,UNEXPECTED_QUEUE_MAX,UNEXPECTED_QUEUE_TIME,UNEXPECTED_QUEUE_LENGTH ;;
    esac
    ev=mpit:::${ev//,/,mpit:::}
    exe=$BUILD/bench/init_cost-$flavor
    $MPICC -O2 -Wall -Wextra -I"$PREFIX/include" "$top/bench/init_cost.c" -L"$PREFIX/lib" -lpapi \
      -Wl,-rpath,"$PREFIX/lib" -o "$exe"
    echo "== $flavor: start-up, 4 ranks, $runs alternating runs, medians (us; per run the largest over ranks)"
    for ((i = 0; i < runs; i++)); do
      for mode in mpi nompit mpit; do $MPIRUN $MPIRUN_OPTS -np 4 "$exe" $mode "$ev"; done
    done | awk '
      function med(k, m,   n, i, j, t, a) { n = split(v[k, m], a, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                                            return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
      function spread(k, m,   n, i, a, lo, hi) { n = split(v[k, m], a, " "); lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] + 0 < lo + 0) lo = a[i]; if (a[i] + 0 > hi + 0) hi = a[i] }
                                                 return sprintf("%.0f..%.0f", lo, hi) }
      { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1], $1] = v[kv[1], $1] " " kv[2] } }
      END {
        printf "  MPI_Init alone %.0f (%s); after PAPI_library_init without mpit %.0f (%s); with the mpit set started %.0f (%s)\n",
          med("mpi_init", "mpi"), spread("mpi_init", "mpi"), med("mpi_init", "nompit"), spread("mpi_init", "nompit"),
          med("mpi_init", "mpit"), spread("mpi_init", "mpit")
        printf "  PAPI_library_init without mpit %.0f (%s), with mpit %.0f (%s); create+add+start of the mpit set %.0f (%s)\n",
          med("papi_init", "nompit"), spread("papi_init", "nompit"), med("papi_init", "mpit"), spread("papi_init", "mpit"),
          med("add_start", "mpit"), spread("add_start", "mpit")
        printf "  first PAPI_read after MPI_Init %.0f (%s); a later PAPI_read %.1f (%s)\n",
          med("first_read", "mpit"), spread("first_read", "mpit"), med("later_read", "mpit"), spread("later_read", "mpit")
        a = med("papi_init", "mpit") - med("papi_init", "nompit") + med("add_start", "mpit")
        b = med("mpi_init", "mpit") - med("mpi_init", "nompit"); c = med("first_read", "mpit") - med("later_read", "mpit")
        printf "  component: before MPI_Init %.0f + in MPI_Init %.0f + first read %.0f = %.2f ms (target 5 ms)\n", a, b, c, (a + b + c) / 1000
      }'
  done
  exit 0
fi

iters=${1:-20000}
export OMPI_MCA_mpi_spc_attach=all
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
