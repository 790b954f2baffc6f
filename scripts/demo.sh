#!/usr/bin/env bash
# The main job: sets everything up, then runs a real MPI program (demo/traffic.c,
# 4 ranks, Open MPI built with SPC) under papi-mpit-report and shows the
# job-wide report of MPI counters next to perf_event counters.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
bash "$top/scripts/build.sh"
. "$top/ctests/flavors.sh"
flavor=openmpi-spc
flavor_vars $flavor || { flavor=openmpi; flavor_vars $flavor; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$BUILD/demo"
$MPICC -O2 "$top/demo/traffic.c" -o "$BUILD/demo/traffic"
echo
echo "== papi-mpit-report on demo/traffic.c, 4 ranks, $flavor"
cd "$BUILD/demo"
$MPIRUN $MPIRUN_OPTS -np 4 "$PREFIX/bin/papi-mpit-report" -o "$BUILD/demo/report" ./traffic 2>&1
echo
echo "(CSV, JSON and SVG files are in $BUILD/demo/report)"
