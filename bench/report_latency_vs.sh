#!/usr/bin/env bash
# The report tool's per-call cost against another build of it (an older
# commit's install), both alternating in every round on one machine:
# NetPIPE's 8-byte one-way latency (NPmpi of netpipe-openmpi, the
# distribution's Open MPI, 2 ranks, shared memory), from its throughput
# column (t = 64 bits / (Mbps * 2^20) s), and the ns of three wrapped calls
# to self (bench/sites_call_cost.c, best of 100 trials).  Five modes:
#   none          the program alone
#   other-nosites OTHER_PREFIX's tool, --no-sites
#   other         OTHER_PREFIX's tool, its defaults
#   nosites       this build's tool, --no-sites
#   sites         this build's tool, its defaults
#   bench/report_latency_vs.sh OTHER_PREFIX [rounds]     (default 15)
# e.g. an older commit built apart:
#   git worktree add /var/tmp/base 2d3fdfc && (cd /var/tmp/base && scripts/build.sh)
#   bench/report_latency_vs.sh /var/tmp/base/_build/install
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
other=${1:?usage: bench/report_latency_vs.sh OTHER_PREFIX [rounds]}
rounds=${2:-15}
[ -x "$other/bin/papi-mpit-report" ] || { echo "no tool in $other/bin"; exit 1; }
flavor_vars openmpi || { echo "the distribution's Open MPI is not installed"; exit 1; }
np=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
[ -x "$np" ] || { echo "netpipe-openmpi is not installed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES PAPI_MPIT_REPORT_LIBDIR
work=$BUILD/bench/report_latency_vs
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 "$top/bench/sites_call_cost.c" -o sites_call_cost || exit 1
modes="none other-nosites other nosites sites"

wrap_of() {
  case $1 in
    none) ;;
    other-nosites) echo "$other/bin/papi-mpit-report -q -o out --no-sites" ;;
    other) echo "$other/bin/papi-mpit-report -q -o out" ;;
    nosites) echo "$PREFIX/bin/papi-mpit-report -q -o out --no-sites" ;;
    sites) echo "$PREFIX/bin/papi-mpit-report -q -o out" ;;
  esac
}
latency() { # MODE: one NetPIPE run's 8-byte latency in us
  rm -f np.out
  # shellcheck disable=SC2046
  $MPIRUN $MPIRUN_OPTS -np 2 $(wrap_of "$1") "$np" -l 8 -u 8 -p 0 -o np.out >np.log 2>&1 \
    || { echo "NPmpi failed ($1):" >&2; cat np.log >&2; return 1; }
  awk '$1 == 8 { printf "%.5f\n", 64 / ($2 * 1.048576) }' np.out
}
calls() { # MODE: ns of three wrapped calls to self, best of 100 trials
  # shellcheck disable=SC2046
  $MPIRUN $MPIRUN_OPTS -np 1 $(wrap_of "$1") ./sites_call_cost 20000 100 2>/dev/null \
    | sed -n 's/^ns_per_iteration=\([0-9.]*\).*/\1/p'
}

echo "this build: $PREFIX; other: $other; Open MPI $(ompi_info --version 2>/dev/null | head -1 | grep -o '[0-9.]*$'), $(nproc) cores, $rounds rounds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $modes; do : >"lat.$m"; : >"ns.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do
    latency "$m" >>"lat.$m" || exit 1
    calls "$m" >>"ns.$m" || exit 1
  done
  printf '.' >&2
done
echo >&2
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
MODES=$modes python3 - <<'PY'
import os, statistics
modes = os.environ["MODES"].split()
def col(f):
    return [float(x) for x in open(f) if x.strip()]
for what, pre in (("NetPIPE 8-byte latency, shared memory, us", "lat"),
                  ("three wrapped calls to self, ns (best of 100 trials each round)", "ns")):
    v = {m: col(f"{pre}.{m}") for m in modes}
    med = {m: statistics.median(x) for m, x in v.items()}
    print(f"{what}: median [min, max] over rounds; median of the per-round ratios to 'none'")
    for m in modes:
        ratio = statistics.median(a / b for a, b in zip(v[m], v["none"]))
        print(f"  {m:14} {med[m]:10.4f} [{min(v[m]):.4f}, {max(v[m]):.4f}]  x{ratio:.3f}")
    for new, old in (("sites", "other"), ("nosites", "other-nosites")):
        ratio = statistics.median(a / b for a, b in zip(v[new], v[old]))
        print(f"  {new} against {old}: median per-round ratio {ratio:.3f}")
PY
