#!/usr/bin/env bash
# The main job: sets everything up, then runs a real MPI program (demo/traffic.c,
# 4 ranks) under papi-mpit-report, on the distribution's Open MPI and on its
# MPICH, and shows the findings (the call sites of traffic.c by file:line),
# the job-wide MPI counters next to perf_event counters, the site table and
# the program's point-to-point matrix.
#   scripts/demo.sh             the distribution's Open MPI and MPICH: minutes
#                               from a fresh machine (packages and PAPI only)
#   scripts/demo.sh --special   first builds Open MPI with SPC and MPICH with
#                               MPI_T events into the cache (about 25 minutes
#                               on 2 cores), then runs on those: unexpected
#                               messages, match time, bytes
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
special=0
[ "${1:-}" = --special ] && special=1
if [ $special = 1 ]; then
  bash "$top/scripts/build.sh"
else
  PAPI_MPIT_MPI_BUILDS=no bash "$top/scripts/build.sh"
fi
. "$top/ctests/flavors.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$BUILD/demo"
cd "$BUILD/demo"
# demo FLAVOR: traffic.c built with -g (the sites are named file:line) and
# run on 4 ranks under the report tool
demo() {
  flavor_vars "$1"
  $MPICC -g -O2 "$top/demo/traffic.c" -o "traffic-$1"
  echo
  echo "== papi-mpit-report on demo/traffic.c, 4 ranks, $1"
  $MPIRUN $MPIRUN_OPTS -np 4 "$PREFIX/bin/papi-mpit-report" -o "$BUILD/demo/report-$1" "./traffic-$1" 2>&1
  echo "(report.html, CSV, JSON and SVG files are in $BUILD/demo/report-$1)"
}
if [ $special = 1 ]; then
  flavor_vars openmpi-spc && demo openmpi-spc
  flavor_vars mpich-events && demo mpich-events
else
  demo openmpi
  demo mpich
  echo
  echo "Unexpected messages, match time and queue events need an MPI built for them:"
  echo "scripts/demo.sh --special builds Open MPI with SPC and MPICH with MPI_T events (about 25 minutes)."
fi
