#!/usr/bin/env bash
# Sets everything up and runs every test (make check): unit tests, then the
# MPI tests under mpirun on each MPI flavor.  The last line is the summary.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
bash "$top/scripts/build.sh" "$@" || { echo "0 passed, 1 failed"; exit 1; }
# the real tools the tests run (TAU, Caliper, hpcrun), built once into the
# cache against the installed libpapi; a client that fails to build fails
# its tests, which say so
PREFIX=${PREFIX:-$BUILD/install}
bash "$top/scripts/clients.sh" "$PREFIX" || echo "[test] a client did not build: its tests will fail"
cd "$BUILD"
make check 2>&1 | tee check.log
rc=${PIPESTATUS[0]}
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' check.log | tail -1)
[ -n "$summary" ] || summary="0 passed, 1 failed"
[ $rc -eq 0 ] || case $summary in *" 0 failed"*) summary="${summary/ 0 failed/ 1 failed}" ;; esac
echo "$summary"
exit $rc
