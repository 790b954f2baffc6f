#!/usr/bin/env bash
# Builds TAU (the real one, from the source archive in the shared clients
# directory, never from the network) once per MPI family into the cache, and
# prints its bin directory.
#   scripts/client-tau.sh FLAVOR        (openmpi-spc, mpich-events, or a family)
#
# TAU compiles Fortran MPI wrappers against mpif.h, so it is built against
# Debian's MPI of the family (which has Fortran) and run on the cached MPI
# build of the same ABI (ctests/t_tau.sh).  It links PAPI through the symlink
# $CACHE/clients/papi, pointed at $PAPI_PREFIX on every call, so one TAU build
# serves every project build.  Exit 77 if the archive is absent.
#
# Environment: PAPI_PREFIX (default: _build/install of this checkout),
# PAPI_MPIT_CACHE, PAPI_MPIT_CLIENTS (the archives; default ../shared/clients
# next to the checkout).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$(sh "$top/scripts/cache-dir.sh")
CLIENTS=${PAPI_MPIT_CLIENTS:-$(dirname "$top")/shared/clients}
PAPI_PREFIX=${PAPI_PREFIX:-$top/_build/install}
ARCHIVE=$CLIENTS/tau-2.35.2-git-c6fbe8e06.tar.gz
JOBS=${JOBS:-$(nproc)}

case ${1:-} in
  openmpi*) family=openmpi ;;
  mpich*)   family=mpich ;;
  *) echo "usage: $0 openmpi-spc|mpich-events" >&2; exit 2 ;;
esac
[ -f "$ARCHIVE" ] || { echo "SKIP TAU source archive $ARCHIVE is absent"; exit 77; }
. "$top/scripts/client-lib.sh"
client_begin client-tau "tau-$family" || exit 1
prefix=$CACHE/clients/tau-$family
bindir=$prefix/x86_64/bin
log=$CACHE/logs/client-tau-$family.log

fail() { echo "client-tau: $* (log: $log)" >&2; [ -f "$log" ] && tail -30 "$log" >&2; exit 1; }

case $family in
  openmpi) packages="g++ gfortran make libopenmpi-dev openmpi-bin" ;;
  mpich)   packages="g++ gfortran make libmpich-dev mpich" ;;
esac
install_missing client-tau "$log" $packages || exit 1

# Debian's MPI of the family: it has the Fortran mpif.h TAU compiles against
case $family in
  openmpi)
    mpiopts="-mpiinc=$(mpicc.openmpi --showme:incdirs | awk '{print $1}') -mpilib=$(mpicc.openmpi --showme:libdirs | awk '{print $1}')" ;;
  mpich)
    mpiopts="-mpiinc=/usr/include/x86_64-linux-gnu/mpich -mpilib=/usr/lib/x86_64-linux-gnu -mpilibrary=-lmpich" ;;
esac
configure_line="./configure -prefix=$prefix -mpi $mpiopts -papi=$CACHE/clients/papi -pthread"
# the stamp names what was built: a new archive or configure line rebuilds
stamp="$(basename "$ARCHIVE") $(papi_identity "$PAPI_PREFIX") $configure_line"
if client_built "$prefix" "$stamp" x86_64/bin/tau_exec; then
  echo "$bindir"
  exit 0
fi

echo "[client-tau] building TAU for $family in $prefix (about a minute; log: $log)" >&2
build=$CACHE/clients/build-tau-$family
rm -rf "$build" "$prefix" && mkdir -p "$build"
(
  set -e
  tar -xzf "$ARCHIVE" -C "$build"
  cd "$build/tau-2.35.2"
  if [ $family = mpich ]; then
    # TAU's MPI-4 wrappers do not compile against MPICH 4.0.2's mpi.h
    # (MPI_Pready_list without const): skip the MPI-4 check
    sed -i 's|if $mpicompiler tools/src/tests/mpiversion.c $mpiwarnings $orig_useropt $mpi_include -DMPI_4 -o test_mpi_version 1> /dev/null 2>&1 ; then|if false; then|' configure
    grep -q 'DMPI_4 -o test_mpi_version' configure && { echo "the MPI-4 check is still in configure"; exit 1; }
  fi
  echo "+ $configure_line"
  $configure_line
  make -j"$JOBS" install
) >"$log" 2>&1 || fail "TAU build failed"
[ -x "$bindir/tau_exec" ] || fail "no $bindir/tau_exec after the build"
rm -rf "$build"
echo "$stamp" > "$prefix/.built"
echo "$bindir"
