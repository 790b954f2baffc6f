#!/usr/bin/env bash
# What papi-mpit-report's communication matrix (--matrix: Open MPI's
# monitoring on) costs a latency-bound program, against the tool's default
# (monitoring left off) and no tool: NetPIPE's 8-byte one-way latency (NPmpi
# of the distribution's netpipe-openmpi) on the distribution's Open MPI
# 4.1.4 (flavor openmpi), 2 ranks.  Modes, alternating within each round:
#   none        no tool
#   tool        papi-mpit-report -e default (the default: monitoring off)
#   tool_matrix papi-mpit-report --matrix -e default (monitoring on)
#   tool_cpu    papi-mpit-report -e perf::TASK-CLOCK (the tool alone)
#   monitoring  no tool, --mca pml_monitoring_enable 2 (monitoring alone)
# Medians over rounds, the spread, and the median of per-round ratios.
#   bench/report_matrix_cost.sh [rounds]       (default 9)
# Latency comes from NetPIPE's throughput column (its time column is rounded
# to 0.01 us): t = 64 bits / (Mbps * 2^20) seconds.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-9}
flavor_vars openmpi || { echo "the openmpi flavor (Debian's Open MPI) is not installed"; exit 1; }
np=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
[ -x "$np" ] || { echo "netpipe-openmpi is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
[ -x "$tool" ] || { echo "$tool is not installed (scripts/build.sh)"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_pml_monitoring_enable PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG \
  PAPI_MPIT_REPORT_MATRIX
work=$BUILD/bench/report_matrix_cost
mkdir -p "$work" && cd "$work" || exit 1

# one_run MODE: prints the latency in us of one NetPIPE run
one_run() {
  local mca=() wrap=()
  case $1 in
    none) ;;
    tool) wrap=("$tool" -q -o out -e default) ;;
    tool_matrix) wrap=("$tool" -q -o out --matrix -e default) ;;
    tool_cpu) wrap=("$tool" -q -o out -e perf::TASK-CLOCK) ;;
    monitoring) mca=(--mca pml_monitoring_enable 2) ;;
  esac
  rm -f np.out
  $MPIRUN $MPIRUN_OPTS "${mca[@]}" -np 2 "${wrap[@]}" "$np" -l 8 -u 8 -p 0 -o np.out \
    >np.log 2>&1 || { echo "NPmpi failed ($1):" >&2; cat np.log >&2; return 1; }
  awk '$1 == 8 { printf "%.5f\n", 64 / ($2 * 1.048576) }' np.out
}

modes="none tool tool_matrix tool_cpu monitoring"
for m in $modes; do : >"lat.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do one_run "$m" >>"lat.$m" || exit 1; done
  printf '.' >&2
done
echo >&2

echo "NetPIPE 8-byte latency, $($MPIRUN --version 2>/dev/null | head -1), vader, $rounds alternating rounds (us)"
printf '%-12s %9s %9s %9s %12s %14s\n' mode median min max 'ratio(med)' 'ratio(rounds)'
for m in $modes; do
  paste "lat.$m" lat.none | awk -v m="$m" '
    function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                                   return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
    { x[NR] = $1; b[NR] = $2; q[NR] = $1 / $2; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { mx = med(x, NR); mb = med(b, NR); printf "%-12s %9.4f %9.4f %9.4f %12.3f %14.3f\n", m, mx, lo, hi, mx / mb, med(q, NR) }'
done
cat <<'DOC'
ratio(med): median / median of none; ratio(rounds): median of each round's ratio.
DOC
