#!/usr/bin/env bash
# What turning papi-mpit-report on costs a latency-bound program: NetPIPE's
# 8-byte one-way latency (NPmpi of the distribution's netpipe-openmpi, run on
# the SPC build of Open MPI, same ABI) with the tool and its default events,
# against the same build with neither the tool nor any SPC attached.  To tell
# where the time goes it also runs: the tool counting only perf::TASK-CLOCK
# (the tool itself, no SPC), the SPCs the tool attaches with no tool, and
# MATCH_TIME added by name, with and without the tool.  The modes alternate
# within each round; medians over rounds, with the spread.
#   bench/report_latency.sh [rounds]       (default 9)
# Latency comes from NetPIPE's throughput column (its time column is rounded
# to 0.01 us): t = 64 bits / (Mbps * 2^20) seconds.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-9}
flavor_vars openmpi-spc || { echo "openmpi-spc is not installed ($CACHE/openmpi-spc)"; exit 1; }
np=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
[ -x "$np" ] || { echo "netpipe-openmpi is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG
spc_lib=$(cd "$(dirname "$MPICC")/../lib" && pwd)
pass=(-x LD_LIBRARY_PATH="$spc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
[ -n "${PAPI_MPIT_REPORT_LIBDIR:-}" ] && pass+=(-x PAPI_MPIT_REPORT_LIBDIR)
work=$BUILD/bench/report_latency
mkdir -p "$work" && cd "$work" || exit 1

# The SPCs the tool attaches with its default events: a program run under
# the tool prints the attach list the component set before MPI_Init.
printf '%s\n' '#include <mpi.h>' '#include <stdio.h>' '#include <stdlib.h>' \
  'int main(int c, char **v) { int r; MPI_Init(&c, &v); MPI_Comm_rank(MPI_COMM_WORLD, &r);' \
  '  const char *a = getenv("OMPI_MCA_mpi_spc_attach"); if (!r) printf("%s\n", a ? a : "");' \
  '  MPI_Finalize(); return 0; }' >attach_list.c
$MPICC attach_list.c -o attach_list || exit 1
attached=$($MPIRUN $MPIRUN_OPTS "${pass[@]}" -np 2 "$tool" -q -e default ./attach_list 2>/dev/null)
[ -n "$attached" ] || { echo "the tool attached no SPC: is $tool built with the mpit component?"; exit 1; }
echo "SPCs the tool attaches for its default events: $attached"

# one_run MODE: prints the latency in us of one NetPIPE run
one_run() {
  local env=() wrap=()
  case $1 in
    none) ;;
    tool) wrap=("$tool" -q -o out -e default) ;;
    tool_cpu) wrap=("$tool" -q -o out -e perf::TASK-CLOCK) ;;
    attach) env=(OMPI_MCA_mpi_spc_attach="$attached") ;;
    tool_mt) wrap=("$tool" -q -o out -e default,MATCH_TIME) ;;
    attach_mt) env=(OMPI_MCA_mpi_spc_attach="$attached,OMPI_SPC_MATCH_TIME") ;;
  esac
  rm -f np.out
  env "${env[@]}" $MPIRUN $MPIRUN_OPTS "${pass[@]}" -np 2 "${wrap[@]}" "$np" -l 8 -u 8 -p 0 -o np.out \
    >np.log 2>&1 || { echo "NPmpi failed ($1):" >&2; cat np.log >&2; return 1; }
  awk '$1 == 8 { printf "%.5f\n", 64 / ($2 * 1.048576) }' np.out
}

modes="none tool tool_cpu attach tool_mt attach_mt"
for m in $modes; do : >"lat.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do one_run "$m" >>"lat.$m" || exit 1; done
  printf '.' >&2
done
echo >&2

# median, spread, and the median of the per-round ratios to "none"
echo "NetPIPE 8-byte latency, Open MPI 4.1.4 + SPC, vader, $rounds alternating rounds (us)"
printf '%-10s %9s %9s %9s %12s %14s\n' mode median min max 'ratio(med)' 'ratio(rounds)'
for m in $modes; do
  paste "lat.$m" lat.none | awk -v m="$m" '
    function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                                   return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
    { x[NR] = $1; b[NR] = $2; q[NR] = $1 / $2; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1 }
    END { mx = med(x, NR); mb = med(b, NR); printf "%-10s %9.4f %9.4f %9.4f %12.3f %14.3f\n", m, mx, lo, hi, mx / mb, med(q, NR) }'
done
cat <<'EOF'
none: no tool, no SPC attached; tool: papi-mpit-report -e default;
tool_cpu: the tool with perf::TASK-CLOCK only; attach: no tool, the tool's SPCs
attached (OMPI_MCA_mpi_spc_attach); _mt: with MATCH_TIME added by name.
ratio(med): median / median of none; ratio(rounds): median of each round's ratio.
EOF
