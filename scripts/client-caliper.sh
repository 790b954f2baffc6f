#!/usr/bin/env bash
# Builds Caliper (the real one, from the source archive in the shared clients
# directory, never from the network) with its papi and mpi services, once per
# MPI flavor, into the cache, and prints its install prefix.
#   scripts/client-caliper.sh FLAVOR        (openmpi-spc or mpich-events)
#
# Caliper's MPI wrappers are generated from the flavor's own mpi.h and linked
# against its libmpi, so it is built with that flavor's mpicc/mpicxx.  It
# links PAPI through the symlink $CACHE/clients/papi, pointed at $PAPI_PREFIX
# on every call, so one Caliper build serves every project build.  Exit 77 if
# the archive is absent.
#
# Environment: PAPI_PREFIX (default: _build/install of this checkout),
# PAPI_MPIT_CACHE, PAPI_MPIT_CLIENTS (the archives; default ../shared/clients
# next to the checkout).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$(sh "$top/scripts/cache-dir.sh")
CLIENTS=${PAPI_MPIT_CLIENTS:-$(dirname "$top")/shared/clients}
PAPI_PREFIX=${PAPI_PREFIX:-$top/_build/install}
ARCHIVE=$CLIENTS/caliper-74e48659.tar.gz
JOBS=${JOBS:-$(nproc)}

flavor=${1:-}
case $flavor in
  openmpi*-spc|mpich*-events) mpi=$CACHE/$flavor ;;
  *) echo "usage: $0 openmpi-spc|mpich-events" >&2; exit 2 ;;
esac
[ -f "$ARCHIVE" ] || { echo "SKIP Caliper source archive $ARCHIVE is absent"; exit 77; }
[ -x "$mpi/bin/mpicc" ] || { echo "client-caliper: no MPI build in $mpi (scripts/deps.sh makes it)" >&2; exit 1; }

. "$top/scripts/client-lib.sh"
client_begin client-caliper "caliper-$flavor" || exit 1
prefix=$CACHE/clients/caliper-$flavor
log=$CACHE/logs/client-caliper-$flavor.log
build=$CACHE/clients/build-caliper-$flavor

# Caliper is C++: without the flavor's mpicxx, g++ with the flavor's
# include and lib directories stands in for it (made during the build)
mpicxx=$mpi/bin/mpicxx
[ -x "$mpicxx" ] || mpicxx=$build/mpicxx
cmake_line="cmake -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=$prefix \
-DWITH_PAPI=On -DPAPI_PREFIX=$CACHE/clients/papi -DWITH_MPI=On -DWITH_GOTCHA=On \
-DMPI_C_COMPILER=$mpi/bin/mpicc -DMPI_CXX_COMPILER=$mpicxx -DWITH_TOOLS=On -DBUILD_TESTING=Off"
[ -x /usr/bin/python3 ] && cmake_line="$cmake_line -DPython_EXECUTABLE=/usr/bin/python3"  # not a pyenv shim
# the stamp names what was built: a new archive or cmake line rebuilds
stamp="$(basename "$ARCHIVE") $(papi_identity "$PAPI_PREFIX") $cmake_line"
if client_built "$prefix" "$stamp" bin/cali-query lib/libcaliper.so; then
  echo "$prefix"
  exit 0
fi

fail() { echo "client-caliper: $* (log: $log)" >&2; tail -30 "$log" >&2; exit 1; }

. "$top/scripts/client-lib.sh"
install_missing client-caliper "$log" g++ make cmake python3 || exit 1

echo "[client-caliper] building Caliper for $flavor in $prefix (1-2 minutes; log: $log)" >&2
rm -rf "$build" "$prefix" && mkdir -p "$build"
(
  set -e
  if [ "$mpicxx" = "$build/mpicxx" ]; then
    printf '#!/bin/sh\nexec g++ -I%s/include "$@" -L%s/lib -Wl,-rpath,%s/lib -lmpi\n' "$mpi" "$mpi" "$mpi" > "$mpicxx"
    chmod +x "$mpicxx"
  fi
  tar -xzf "$ARCHIVE" -C "$build"
  mkdir "$build/b" && cd "$build/b"
  echo "+ $cmake_line ../caliper-74e48659"
  $cmake_line ../caliper-74e48659
  make -j"$JOBS" install
) >"$log" 2>&1 || fail "Caliper build failed"
[ -x "$prefix/bin/cali-query" ] || fail "no $prefix/bin/cali-query after the build"
# both services must be compiled in: the build skips them silently when
# cmake does not find PAPI or MPI
grep -qx '#define CALIPER_HAVE_PAPI' "$prefix/include/caliper/caliper-config.h" \
  || fail "Caliper was built without PAPI"
grep -qx '#define CALIPER_HAVE_MPI' "$prefix/include/caliper/caliper-config.h" \
  || fail "Caliper was built without MPI"
rm -rf "$build"
echo "$stamp" > "$prefix/.built"
echo "$prefix"
