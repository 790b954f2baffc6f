#!/usr/bin/env bash
# What a call costs through papi-mpit-report's Fortran entry points
# (utils/report/sites/site_fortran.c), measured by bench/sites_fortran_cost.f90:
# MPI_SEND to MPI_PROC_NULL, one rank, from `use mpi` and `use mpi_f08`,
# beside the same call from C (bench/sites_depth_cost.c, k=0).  Modes
# alternate within each round, the best of each over rounds:
#   none     the program alone
#   tool     papi-mpit-report with its defaults
#   bench/report_sites_fortran.sh [rounds] [flavor]   (default 5, openmpi)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-5}
flavor=${2:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
case $MPICC in
  mpicc.*) fc=mpifort.${MPICC#mpicc.} ;;
  */mpicc) fc=${MPICC%/mpicc}/mpifort ;;
  *) fc=mpifort ;;
esac
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES PAPI_MPIT_REPORT_SITE_DEPTH
work=$BUILD/bench/report_sites_fortran
mkdir -p "$work" && cd "$work" || exit 1
"$fc" -O2 "$top/bench/sites_fortran_cost.f90" -o sites_fortran_cost || exit 1
$MPICC -O2 -fPIC -shared "$top/bench/sites_depth_lib.c" -o libdepthbench.so || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/sites_depth_cost.c" -L. -ldepthbench -Wl,-rpath,"$PWD" -o sites_c_cost || exit 1
run() { # MODE PROGRAM
  local t=()
  [ "$1" = tool ] && t=("$tool" -q -o out)
  $MPIRUN $MPIRUN_OPTS -np 1 "${t[@]}" "$2" 20000 50 2>/dev/null
}
echo "$flavor, $(nproc) cores, $rounds rounds; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >res.none; : >res.tool
for r in $(seq "$rounds"); do
  for m in none tool; do
    { run $m ./sites_fortran_cost && run $m ./sites_c_cost | sed -n 's/^k=0 /iface=C /p'; } >>res.$m \
      || { echo "the $m run failed"; exit 1; }
  done
done
python3 - <<'PY'
import re
best = {}
for m in ("none", "tool"):
    for line in open(f"res.{m}"):
        g = re.match(r"iface=(\S+) ns_per_call=([\d.]+)", line)
        if g:
            best[(m, g[1])] = min(best.get((m, g[1]), 1e18), float(g[2]))
print("ns per MPI_Send(MPI_PROC_NULL), best of the rounds")
print("| binding | no tool | papi-mpit-report | the tool's cost |")
print("|---|---|---|---|")
for i in ("C", "use_mpi", "use_mpi_f08"):
    a, b = best.get(("none", i)), best.get(("tool", i))
    if a is not None and b is not None:
        print(f"| {i} | {a:.0f} | {b:.0f} | {b - a:+.0f} |")
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
