#!/usr/bin/env bash
# Installs the dependencies (scripts/deps.sh), then configures, builds and
# installs papi-mpit into $PREFIX (default: _build/install in the checkout).
#   scripts/build.sh [configure options...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
PREFIX=${PREFIX:-$BUILD/install}
JOBS=${JOBS:-$(nproc)}

bash "$top/scripts/deps.sh" all
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
