#!/usr/bin/env bash
# Builds the real performance tools the tests run (TAU, Caliper, hpcrun, and
# Score-P from ../shared/sources) from the source archives in ../shared/clients into the cache, against the
# installed libpapi; each is built once and reused.  Run by scripts/test.sh
# before the tests, so that build time stays outside the per-test limits.
# Fails when a client whose archive is present does not build.
#   scripts/clients.sh [PAPI_PREFIX]
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export PAPI_PREFIX=${1:-${PAPI_PREFIX:-$top/_build/install}}
failed=0
build() { # build SCRIPT ARGS...
  local out rc
  out=$(bash "$top/scripts/$1" "${@:2}" 2>&1); rc=$?
  case $rc in
    0)  echo "[clients] $1 ${*:2}: ready" ;;
    77) echo "[clients] $1 ${*:2}: skipped: $(tail -1 <<<"$out")" ;;
    *)  echo "[clients] $1 ${*:2}: FAILED"; tail -20 <<<"$out"; failed=1 ;;
  esac
}
build client-tau.sh openmpi-spc
build client-tau.sh mpich-events
build client-caliper.sh openmpi-spc
build client-caliper.sh mpich-events
build client-hpcrun.sh
build client-scorep.sh openmpi-spc
build client-scorep.sh mpich-events
exit $failed
