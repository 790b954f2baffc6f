#!/usr/bin/env bash
# Sets everything up and runs every test: make check (unit tests, then the
# MPI tests under mpirun on each MPI flavor, the real TAU, Caliper and hpcrun
# among them), then scripts/sanitize.sh (ASan+UBSan build and MPI tests,
# TSan stress, fuzzers).  The last line is the summary of both.
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
bash "$top/scripts/sanitize.sh" 2>&1 | tee sanitize.log
src=${PIPESTATUS[0]}

# one closing line: the sums of both summaries; a step that failed without
# counting a failure still counts one
count() { # count FILE WORD: the number before WORD on the last summary line
  grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1 | grep -oE "[0-9]+ $2" | grep -oE '^[0-9]+' || echo 0
}
passed=$(( $(count check.log passed) + $(count sanitize.log passed) ))
failed=$(( $(count check.log failed) + $(count sanitize.log failed) ))
skipped=$(count check.log skipped)
[ $rc -eq 0 ] || [ "$(count check.log failed)" -gt 0 ] || failed=$((failed + 1))
[ $src -eq 0 ] || [ "$(count sanitize.log failed)" -gt 0 ] || failed=$((failed + 1))
echo "$passed passed, $failed failed, $skipped skipped"
[ $rc -eq 0 ] && [ $src -eq 0 ]
