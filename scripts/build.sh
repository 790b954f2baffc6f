#!/usr/bin/env bash
# Installs the dependencies (scripts/deps.sh), then configures, builds and
# installs papi-mpit into $PREFIX (default: _build/install in the checkout).
#   scripts/build.sh [configure options...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
JOBS=${JOBS:-$(nproc)}

# PAPI_MPIT_MPI_BUILDS=no: packages and PAPI's source only (scripts/test.sh
# builds the MPI flavors itself, in the background)
if [ "${PAPI_MPIT_MPI_BUILDS:-yes}" = no ]; then
  bash "$top/scripts/deps.sh" packages && bash "$top/scripts/deps.sh" papi72-source >/dev/null
else
  bash "$top/scripts/deps.sh" all
fi
bash "$top/scripts/deps.sh" abi-header
mkdir -p "$BUILD"
[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)
cd "$BUILD"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
  "$top/configure" --prefix="$PREFIX" "$@" > configure.log 2>&1 || { tail -30 configure.log; exit 1; }
fi
echo "[build] compiling (log: $BUILD/make.log)"
make -j"$JOBS" > make.log 2>&1 || { tail -40 make.log; exit 1; }
make install > install.log 2>&1 || { tail -40 install.log; exit 1; }
echo "[build] installed in $PREFIX"
