#!/usr/bin/env bash
# What the call sites (utils/report/sites/: every communication call wrapped,
# timed and charged to its site, the program's matrix) cost a program.
# Three modes, alternating within each round, medians over rounds:
#   none      the program alone
#   nosites   papi-mpit-report --no-sites (the tool as it was before the
#             sites: the baseline the issue sets)
#   sites     papi-mpit-report (sites on, its default)
# on two programs:
#   latency   NetPIPE's 8-byte one-way latency (NPmpi of netpipe-openmpi,
#             the distribution's Open MPI, 2 ranks), from its throughput
#             column: t = 64 bits / (Mbps * 2^20) s; over shared memory
#             (vader, about 0.13 us here) and over TCP on loopback (a
#             network's order of latency)
#   compute   bench/overhead.c: rounds of about 10 ms of arithmetic, each
#             followed by an MPI_Allreduce of one double (2 ranks); the
#             median round in ms, the slowest rank's
# and prints the memory the tables take per rank (allocated once at
# MPI_Init; pages are touched only as sites, requests and peers appear).
#   bench/report_sites_cost.sh [rounds]     (default 9; compute: 200 rounds of 10 ms)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-9}
flavor_vars openmpi || { echo "the distribution's Open MPI is not installed"; exit 1; }
np=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
[ -x "$np" ] || { echo "netpipe-openmpi is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES
work=$BUILD/bench/report_sites_cost
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/overhead.c" -o overhead || exit 1
units=$(./overhead calibrate 10) || exit 1

wrap_of() {
  case $1 in
    none) ;;
    nosites) echo "$tool -q -o out --no-sites" ;;
    sites) echo "$tool -q -o out" ;;
  esac
}
latency() { # MODE [BTLS]
  rm -f np.out
  local opts=$MPIRUN_OPTS
  [ -n "${2:-}" ] && opts=${opts/self,vader/$2}
  # shellcheck disable=SC2046
  $MPIRUN $opts -np 2 $(wrap_of "$1") "$np" -l 8 -u 8 -p 0 -o np.out >np.log 2>&1 \
    || { echo "NPmpi failed ($1):" >&2; cat np.log >&2; return 1; }
  awk '$1 == 8 { printf "%.5f\n", 64 / ($2 * 1.048576) }' np.out
}
compute() {
  # shellcheck disable=SC2046
  $MPIRUN $MPIRUN_OPTS -np 2 $(wrap_of "$1") ./overhead 200 "$units" >run.log 2>&1 \
    || { echo "overhead failed ($1):" >&2; tail run.log >&2; return 1; }
  sed -n 's/^loop_s=[0-9.]* cpu_s=[0-9.]* round_ms=\([0-9.]*\) .*/\1/p' run.log
}

echo "Open MPI $(ompi_info --version 2>/dev/null | head -1 | grep -o '[0-9.]*$'), $(nproc) cores, $rounds rounds; mpirun $MPIRUN_OPTS"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in none nosites sites; do : >"lat.$m"; : >"tcp.$m"; : >"cmp.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in none nosites sites; do
    latency $m >>"lat.$m" || exit 1
    latency $m self,tcp >>"tcp.$m" || exit 1
    compute $m >>"cmp.$m" || exit 1
  done
  printf '.' >&2
done
echo >&2
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - <<'PY'
import statistics
def col(f):
    return [float(x) for x in open(f) if x.strip()]
for what, unit, pre in (("NetPIPE 8-byte latency, shared memory", "us", "lat"),
                        ("NetPIPE 8-byte latency, TCP on loopback", "us", "tcp"),
                        ("compute + MPI_Allreduce round", "ms", "cmp")):
    v = {m: col(f"{pre}.{m}") for m in ("none", "nosites", "sites")}
    med = {m: statistics.median(x) for m, x in v.items()}
    print(f"{what} ({unit}): median [min, max] over rounds; the best is the steady figure on a loaded machine")
    for m in ("none", "nosites", "sites"):
        print(f"  {m:8} {med[m]:10.4f} [{min(v[m]):.4f}, {max(v[m]):.4f}]")
    best = {m: min(x) for m, x in v.items()}
    print(f"  sites against --no-sites: median {100 * (med['sites'] / med['nosites'] - 1):+.2f} %,"
          f" best {100 * (best['sites'] / best['nosites'] - 1):+.2f} %;"
          f" against no tool: median {100 * (med['sites'] / med['none'] - 1):+.2f} %,"
          f" best {100 * (best['sites'] / best['none'] - 1):+.2f} %")
PY
# a wrapped call's cost alone: one rank to itself, best of 100 trials
$MPICC -O2 "$top/bench/sites_call_cost.c" -o sites_call_cost || exit 1
echo "3 wrapped calls to self (MPI_Isend, MPI_Recv, MPI_Wait), ns per iteration, best of 100 trials of 20000:"
for m in none nosites sites; do
  # shellcheck disable=SC2046
  echo "  $m $($MPIRUN $MPIRUN_OPTS -np 1 $(wrap_of "$m") ./sites_call_cost 20000 100 2>/dev/null)"
done
# the tables' sizes, from the interposer's own header
printf '%s\n' '#include "site_table.h"' '#include <stdio.h>' \
  'int main(void) { printf("%zu %zu\n", sizeof(sites_site_t), sizeof(sites_coll_cell_t)); return 0; }' >sizes.c
read -r site coll < <($MPICC -I"$top/utils/report/sites" -I"$top/utils/report/render" -I"$top/utils/report/common" sizes.c -o sizes && ./sizes)
max=$(sed -n 's/^#define SITES_MAX *\([0-9]*\).*/\1/p' "$top/utils/report/sites/site_table.h")
tracks=$(sed -n 's/^#define TRACK_MAX *\([0-9]*\).*/\1/p' "$top/utils/report/sites/site_track.c")
colls=$(sed -n 's/^#define COLL_MAX *\([0-9]*\).*/\1/p' "$top/utils/report/sites/site_private.h")
echo "tables per rank: $max sites x $site B + $tracks tracked requests x 56 B + $colls collective cells x $coll B + 16 B per rank of the job"
echo "  = $(( (max * site + tracks * 56 + colls * coll) / 1024 )) KiB + 16 B x ranks (allocated once; touched as used)"
