#!/usr/bin/env bash
# What the site capture costs per call (utils/report/sites/site_frames.c: the
# program's line behind a library), measured by bench/sites_depth_cost.c:
# MPI_Send to MPI_PROC_NULL, one rank, from the program's own code (k=0)
# and from inside a library k = 1, 2, 4, 8 frames deep
# (bench/sites_depth_lib.c, -O2 without frame pointers), named a library
# with --site-libs.  Modes, alternating within each round, the best of each
# over rounds:
#   none     the program alone
#   depth1   papi-mpit-report --site-depth 1 (the caller only: no walk)
#   default  papi-mpit-report (--site-depth 8), with the chains it learns
#   walk     the same, every call walking the stack (no chains:
#            PAPI_MPIT_REPORT_SITE_CHAINS=0): the unwinder's cost alone
# and, for each, the calls of malloc/calloc/realloc made during the timed
# loops (bench/malloc_count.c preloaded): 0 means the capture allocates
# nothing.
#   bench/report_sites_depth.sh [rounds] [flavor]   (default 5, openmpi)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-5}
flavor=${2:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES PAPI_MPIT_REPORT_SITE_DEPTH \
  PAPI_MPIT_REPORT_SITE_LIBS PAPI_MPIT_REPORT_SITE_CHAINS
work=$BUILD/bench/report_sites_depth
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -fPIC -shared -fomit-frame-pointer -fno-optimize-sibling-calls "$top/bench/sites_depth_lib.c" \
  -o libdepthbench.so || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/sites_depth_cost.c" -L. -ldepthbench -Wl,-rpath,"$PWD" -o sites_depth_cost || exit 1
cc -O2 -fPIC -shared "$top/bench/malloc_count.c" -o malloc_count.so || exit 1

modes="none depth1 default walk"
run() { # MODE
  local t=()
  case $1 in
    none) ;;
    depth1) t=("$tool" -q -o out --site-libs 'libdepthbench*' --site-depth 1) ;;
    default) t=("$tool" -q -o out --site-libs 'libdepthbench*') ;;
    walk) t=(env PAPI_MPIT_REPORT_SITE_CHAINS=0 "$tool" -q -o out --site-libs 'libdepthbench*') ;;
  esac
  $MPIRUN $MPIRUN_OPTS -np 1 env LD_PRELOAD="$PWD/malloc_count.so" "${t[@]}" ./sites_depth_cost 20000 50 2>/dev/null
}
echo "$flavor, $(nproc) cores, $rounds rounds; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for m in $modes; do : >"res.$m"; done
for r in $(seq "$rounds"); do
  for m in $modes; do run "$m" >>"res.$m" || { echo "the $m run failed"; exit 1; }; done
done
python3 - $modes <<'PY'
import re, sys
modes = sys.argv[1:]
best, mallocs = {}, {}
for m in modes:
    for line in open(f"res.{m}"):
        k, ns, med, ma = re.match(r"k=(\d+) ns_per_call=([\d.]+) median=([\d.]+) mallocs=(-?\d+)", line).groups()
        key = (m, int(k))
        best[key] = min(best.get(key, 1e18), float(ns))
        mallocs[m] = max(mallocs.get(m, 0), int(ma))
ks = sorted({k for _, k in best})
print("ns per MPI_Send(MPI_PROC_NULL), best of the rounds; k: library frames between the program and the call")
print("| mode | " + " | ".join(f"k={k}" for k in ks) + " | mallocs in the loops |")
print("|---|" + "---|" * (len(ks) + 1))
for m in modes:
    print(f"| {m} | " + " | ".join(f"{best[(m, k)]:.0f}" for k in ks) + f" | {mallocs[m]} |")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
