#!/usr/bin/env bash
# What papi-mpit-report's communication matrix (--matrix: Open MPI's
# monitoring on) costs a latency-bound program, against the tool's default
# (monitoring left off) and no tool: bench/monitoring_cost.c (an 8-byte
# ping-pong, us per round trip, best of 5 trials in each run, which keeps
# the least disturbed one on a busy machine; and a 1 MiB one, MB/s) on the
# distribution's Open MPI 4.1.4 (flavor openmpi), 2 ranks, vader.  Modes,
# alternating within each round:
#   none        no tool
#   tool        papi-mpit-report -e default (the default: monitoring off)
#   tool_matrix papi-mpit-report --matrix -e default (monitoring on)
#   tool_cpu    papi-mpit-report -e perf::TASK-CLOCK (the tool alone)
#   monitoring  no tool, pml_monitoring_enable=2 and the monitoring PML
#               admitted (monitoring alone)
# Medians over rounds, the spread, and the median of per-round ratios to
# "none".
#   bench/report_matrix_cost.sh [rounds] [iterations]    (default 9, 20000)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-9} iters=${2:-20000}
flavor_vars openmpi || { echo "the openmpi flavor (Debian's Open MPI) is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
[ -x "$tool" ] || { echo "$tool is not installed (scripts/build.sh)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_pml_monitoring_enable PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG \
  PAPI_MPIT_REPORT_MATRIX
work=$BUILD/bench/report_matrix_cost
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/monitoring_cost.c" -o monitoring_cost || exit 1

# one_run MODE: prints "latency_us bandwidth_MBs" of one run
one_run() {
  local opts=$MPIRUN_OPTS wrap=()
  case $1 in
    none) ;;
    tool) wrap=("$tool" -q -o out -e default) ;;
    tool_matrix) wrap=("$tool" -q -o out --matrix -e default) ;;
    tool_cpu) wrap=("$tool" -q -o out -e perf::TASK-CLOCK) ;;
    monitoring) opts="${MPIRUN_OPTS/--mca pml ob1/--mca pml ob1,monitoring} --mca pml_monitoring_enable 2" ;;
  esac
  $MPIRUN $opts -np 2 "${wrap[@]}" ./monitoring_cost "$iters" 2>run.err \
    | sed -n 's/.*latency_us=\([0-9.]*\).*bandwidth_MBs=\([0-9.]*\).*/\1 \2/p' | grep . \
    || { echo "monitoring_cost failed ($1):" >&2; cat run.err >&2; return 1; }
}

modes="none tool tool_matrix tool_cpu monitoring"
for m in $modes; do : >"res.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do one_run "$m" >>"res.$m" || exit 1; done
  printf '.' >&2
done
echo >&2

echo "8-byte round trip (best of 5 trials a run), $($MPIRUN --version 2>/dev/null | head -1), vader, 2 ranks, $rounds alternating rounds of $iters iterations; load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-12s %9s %9s %9s %12s %14s %10s\n' mode 'median us' min max 'ratio(med)' 'ratio(rounds)' 'MB/s 1MiB'
for m in $modes; do
  paste "res.$m" res.none | awk -v m="$m" '
    function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                                   return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
    { x[NR] = $1; w[NR] = $2; b[NR] = $3; q[NR] = $1 / $3; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { mx = med(x, NR); mb = med(b, NR); printf "%-12s %9.4f %9.4f %9.4f %12.3f %14.3f %10.0f\n", m, mx, lo, hi, mx / mb, med(q, NR), med(w, NR) }'
done
echo "ratio(med): median / median of none; ratio(rounds): median of each round's ratio to none."
