#!/usr/bin/env bash
# Builds Score-P 8.4 (the real one, from the release archive in the shared
# sources directory, never from the network) once per MPI family into the
# cache, and prints its bin directory.
#   scripts/client-scorep.sh FLAVOR        (openmpi-spc, mpich-events, or a family)
#
# Two steps, each cached with a stamp:
#   1. the tools Score-P bundles (OTF2, CubeW, CubeLib, OPARI2), which need
#      neither MPI nor PAPI: built once into $CACHE/clients/scorep-tools;
#   2. Score-P itself, against Debian's MPI of the family (its MPI adapter is
#      compiled against mpi.h: one install per ABI family, run on the cached
#      MPI build of the same ABI, as TAU is) and the PAPI under test, through
#      the symlink $CACHE/clients/papi; rebuilt when libpapi changes (the
#      PAPI version and soname are in the stamp).
# Exit 77 if the archive is absent.
#
# Environment: PAPI_PREFIX (default: _build/install of this checkout),
# PAPI_MPIT_CACHE, PAPI_MPIT_SOURCES (default ../shared/sources).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=$(sh "$top/scripts/cache-dir.sh")
SOURCES=$(sh "$top/scripts/sources-dir.sh")
PAPI_PREFIX=${PAPI_PREFIX:-$top/_build/install}
ARCHIVE=$SOURCES/scorep-8.4.tar.gz
JOBS=${JOBS:-$(nproc)}

case ${1:-} in
  openmpi*) family=openmpi scorep_mpi=openmpi sfx=openmpi ;;
  mpich*)   family=mpich scorep_mpi=mpich4 sfx=mpich ;;
  *) echo "usage: $0 openmpi-spc|mpich-events" >&2; exit 2 ;;
esac
[ -f "$ARCHIVE" ] || { echo "SKIP Score-P source archive $ARCHIVE is absent"; exit 77; }

. "$top/scripts/client-lib.sh"
client_begin client-scorep "scorep-$family" || exit 1
case $family in
  openmpi) mpi_packages="libopenmpi-dev openmpi-bin" ;;
  mpich)   mpi_packages="libmpich-dev mpich" ;;
esac
install_missing client-scorep "$CACHE/logs/client-scorep-$family.log" \
  g++ gfortran make binutils-dev zlib1g-dev $mpi_packages || exit 1

# unpack ARCHIVE into DIR (fresh)
unpack() { rm -rf "$1" && mkdir -p "$1" && tar -xzf "$ARCHIVE" -C "$1"; }

# ---- 1. the bundled tools, shared by both families
tools=$CACHE/clients/scorep-tools
tools_log=$CACHE/logs/client-scorep-tools.log
tools_stamp="$(basename "$ARCHIVE") otf2 cubew cubelib(--without-cube-dump-r) opari2"
(
  exec 9>"$CACHE/clients/.scorep-tools.lock"
  flock 9
  client_built "$tools" "$tools_stamp" bin/cube_dump && exit 0
  echo "[client-scorep] building OTF2, CubeW, CubeLib, OPARI2 in $tools (about 5 minutes; log: $tools_log)" >&2
  build=$CACHE/clients/build-scorep-tools
  rm -rf "$tools"
  (
    set -e
    unpack "$build"
    for t in otf2 cubew cubelib opari2; do
      mkdir -p "$build/$t" && cd "$build/$t"
      opts=""
      [ $t = cubelib ] && opts=--without-cube-dump-r  # no R
      echo "+ $t: configure --prefix=$tools $opts"
      "$build/scorep-8.4/vendor/$t/configure" --prefix="$tools" $opts
      make -j"$JOBS"
      make install
    done
  ) >"$tools_log" 2>&1 || { echo "client-scorep: the bundled tools did not build (log: $tools_log)" >&2; tail -30 "$tools_log" >&2; exit 1; }
  rm -rf "$build"
  echo "$tools_stamp" > "$tools/.built"
) || exit 1

# ---- 2. Score-P for the family
prefix=$CACHE/clients/scorep-$family
log=$CACHE/logs/client-scorep-$family.log

# Score-P's configure finds the MPI compilers by their plain names: Debian's
# of the family, under those names, first on PATH
wrappers=$CACHE/clients/scorep-mpi-$family
mkdir -p "$wrappers"
for w in mpicc mpicxx mpif77 mpif90 mpifort mpirun mpiexec; do
  case $w in mpif77|mpif90) real=mpifort.$sfx ;; *) real=$w.$sfx ;; esac
  command -v "$real" >/dev/null && ln -sfn "$(command -v "$real")" "$wrappers/$w"
done

configure_line="../scorep-8.4/configure --prefix=$prefix --with-mpi=$scorep_mpi --without-shmem \
--with-otf2=$tools/bin --with-cubew=$tools/bin --with-cubelib=$tools/bin --with-opari2=$tools/bin \
--with-papi-header=$CACHE/clients/papi/include --with-papi-lib=$CACHE/clients/papi/lib \
--with-libbfd --without-libunwind --without-pdt --without-sionlib --without-llvm \
--disable-gcc-plugin --disable-cuda --disable-openacc"
stamp="$(basename "$ARCHIVE") $(papi_identity "$PAPI_PREFIX") $configure_line"
if client_built "$prefix" "$stamp" bin/scorep; then
  echo "$prefix/bin"
  exit 0
fi

echo "[client-scorep] building Score-P for $family in $prefix (log: $log)" >&2
build=$CACHE/clients/build-scorep-$family
rm -rf "$prefix"
(
  set -e
  unpack "$build"
  mkdir -p "$build/_build" && cd "$build/_build"
  export PATH=$wrappers:$PATH
  echo "+ $configure_line"
  $configure_line
  make -j"$JOBS"
  make install
) >"$log" 2>&1 || { echo "client-scorep: Score-P did not build for $family (log: $log)" >&2; tail -40 "$log" >&2; exit 1; }
[ -x "$prefix/bin/scorep" ] || { echo "client-scorep: no $prefix/bin/scorep after the build (log: $log)" >&2; exit 1; }
rm -rf "$build"
echo "$stamp" > "$prefix/.built"
echo "$prefix/bin"
