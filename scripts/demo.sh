#!/usr/bin/env bash
# The main job: sets everything up, then runs a real MPI program (demo/traffic.c,
# 4 ranks) under papi-mpit-report and shows the job-wide report of MPI
# counters next to perf_event counters.
#   scripts/demo.sh             the distribution's Open MPI: minutes from a
#                               fresh machine (packages and PAPI only); its
#                               monitoring gives collective traffic by peer
#                               and the queue lengths, sampled for maxima
#   scripts/demo.sh --special   first builds Open MPI with SPC and MPICH with
#                               MPI_T events into the cache (about 25 minutes
#                               on 2 cores), then runs on Open MPI with SPC:
#                               unexpected messages, match time, bytes
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
flavor=openmpi
if [ $special = 1 ]; then flavor_vars openmpi-spc && flavor=openmpi-spc; fi
flavor_vars $flavor
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$BUILD/demo"
$MPICC -O2 "$top/demo/traffic.c" -o "$BUILD/demo/traffic"
echo
echo "== papi-mpit-report on demo/traffic.c, 4 ranks, $flavor"
cd "$BUILD/demo"
$MPIRUN $MPIRUN_OPTS -np 4 "$PREFIX/bin/papi-mpit-report" -o "$BUILD/demo/report" ./traffic 2>&1
echo
echo "(report.html, CSV, JSON and SVG files are in $BUILD/demo/report)"
if [ $special = 0 ]; then
  echo "Unexpected messages, match time and queue events need an MPI built for them:"
  echo "scripts/demo.sh --special builds Open MPI with SPC and MPICH with MPI_T events (about 25 minutes)."
fi
