#!/usr/bin/env bash
# Builds HPCToolkit's hpcrun (the real one, measurement part only, from the
# source archives in the shared clients directory with their build-hpcrun.sh,
# never from the network) once into the cache, with hpcrun-metric-sum (reads
# the samples back), and prints the bin directory holding both.
#   scripts/client-hpcrun.sh
#
# One build serves every MPI flavor: hpcrun links no MPI library; libmonitor
# wraps MPI_Init/MPI_Finalize by symbol in whatever libmpi the program loads.
# PAPI is reached through the symlink $CACHE/clients/papi, pointed at
# $PAPI_PREFIX on every call; the hpcrun launcher puts PAPI's lib directory
# first on LD_LIBRARY_PATH, and its papi_libdir line is set to the symlink's
# lib on every call, so it always runs the libpapi under test.
# Exit 77 if an archive is absent, 1 (with the log's tail) if the build fails.
#
# Environment: PAPI_PREFIX (default: _build/install of this checkout),
# PAPI_MPIT_CACHE, PAPI_MPIT_CLIENTS (the archives; default ../shared/clients
# next to the checkout).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$(sh "$top/scripts/cache-dir.sh")
CLIENTS=${PAPI_MPIT_CLIENTS:-$(dirname "$top")/shared/clients}
PAPI_PREFIX=${PAPI_PREFIX:-$top/_build/install}
JOBS=${JOBS:-$(nproc)}

# everything build-hpcrun.sh unpacks, plus the two files written for us
archives="hpctoolkit-2023.08.1.tar.gz libmonitor-*.tar.gz libunwind-*.tar.gz xed-*.tar.gz mbuild-*.tar.gz"
key=""
for a in $archives build-hpcrun.sh hpcrun-metric-sum.c; do
  f=$(ls -1 "$CLIENTS"/$a 2>/dev/null | sort | tail -1)
  [ -n "$f" ] && [ -f "$f" ] || { echo "SKIP hpcrun: $a is absent from $CLIENTS"; exit 77; }
  key="$key $(basename "$f"):$(stat -c %s "$f")"
done

. "$top/scripts/client-lib.sh"
client_begin client-hpcrun hpcrun || exit 1
prefix=$CACHE/clients/hpcrun
papi_link=$CACHE/clients/papi
log=$CACHE/logs/client-hpcrun.log

# build-hpcrun.sh resolves symlinks when it records papi_libdir: point the
# launcher at the symlink instead, so it follows the prefix under test
relink_launcher() {
  sed -i "s|^papi_libdir=.*|papi_libdir='$papi_link/lib'|" "$prefix/bin/hpcrun" \
    && grep -qx "papi_libdir='$papi_link/lib'" "$prefix/bin/hpcrun"
}

stamp="hpctoolkit 2023.08.1 measurement-only:$key $(papi_identity "$PAPI_PREFIX")"
if client_built "$prefix" "$stamp" bin/hpcrun bin/hpcrun-metric-sum; then
  relink_launcher || { echo "client-hpcrun: no papi_libdir line in $prefix/bin/hpcrun" >&2; exit 1; }
  echo "$prefix/bin"
  exit 0
fi

fail() { echo "client-hpcrun: $* (log: $log)" >&2; tail -40 "$log" >&2; exit 1; }
: >"$log"

# the Debian packages build-hpcrun.sh lists at its top
packages="build-essential autoconf automake libtool python3 libiberty-dev libelf-dev libdw-dev liblzma-dev zlib1g-dev"
. "$top/scripts/client-lib.sh"
install_missing client-hpcrun "$log" $packages || exit 1

echo "[client-hpcrun] building hpcrun in $prefix (about 3 minutes; log: $log)" >&2
build=$CACHE/clients/build-hpcrun
rm -rf "$build" "$prefix"
# build against the symlink (the script resolves it; the launcher is fixed below)
JOBS=$JOBS BUILD_DIR=$build KEEP_BUILD=1 bash "$CLIENTS/build-hpcrun.sh" "$prefix" "$papi_link" "$CLIENTS" >>"$log" 2>&1 \
  || fail "build-hpcrun.sh failed"
[ -x "$prefix/bin/hpcrun" ] || fail "no $prefix/bin/hpcrun after the build"
relink_launcher || fail "no papi_libdir line in $prefix/bin/hpcrun"

# hpcrun-metric-sum links HPCToolkit's own reader from the build tree
B=$build/hpctoolkit-2023.08.1
gcc -O2 -o "$prefix/bin/hpcrun-metric-sum" "$CLIENTS/hpcrun-metric-sum.c" \
  -I"$B/src/lib/prof-lean" -I"$B/src" -I"$B/_b/src" -I"$B/_b" "$B/_b/src/lib/prof-lean/.libs/libHPCprof-lean.a" \
  >>"$log" 2>&1 || fail "hpcrun-metric-sum does not compile"
rm -rf "$build"
echo "$stamp" >"$prefix/.built"
echo "$prefix/bin"
