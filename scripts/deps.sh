#!/usr/bin/env bash
# Installs everything papi-mpit needs on Debian 12 and builds the MPI flavors
# that the distribution does not ship (Open MPI with SPC, MPICH with MPI_T
# events) into a cache outside the checkout (scripts/cache-dir.sh), so later
# runs reuse them.  Every mode but papi-source installs packages (sudo when
# not root); papi-source only runs apt-get source into the cache, which needs
# no root, and is what make uses when configure chose it.
#   scripts/deps.sh [packages|sources|papi-source|ompi-spc|mpich-events|ompi5-spc|
#                    mpich43-events|mpich50-events|ompi6-spc|abi-stubs|all]   (default: all)
set -euo pipefail

CACHE=$(sh "$(dirname "$0")/cache-dir.sh")
JOBS=${JOBS:-$(nproc)}
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
mkdir -p "$CACHE/src" "$CACHE/logs"

log() { printf '[deps %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

PACKAGES=(
  build-essential autoconf automake libtool pkg-config dpkg-dev gfortran python3 libpfm4-dev
  libopenmpi-dev openmpi-bin libmpich-dev mpich
  libhwloc-dev libevent-dev libpmix-dev
  libfabric-dev libpsm-infinipath1-dev libpsm2-dev librdmacm-dev libibverbs-dev
  netpipe-openmpi librsvg2-bin iproute2 groff-base clang-format
  flex bison perl
  chromium
)

install_packages() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
  done
  # a deb-src entry derived from the machine's own sources, for apt-get source
  local src=/etc/apt/sources.list.d/papi-mpit-src.sources
  if [ ! -f "$src" ] && [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $SUDO tee "$src" >/dev/null
    missing+=(__update__)
  elif [ ! -f "$src" ] && [ -f /etc/apt/sources.list ]; then
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $SUDO tee /etc/apt/sources.list.d/papi-mpit-src.list >/dev/null
    missing+=(__update__)
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get update and install: ${missing[*]}"
    $SUDO apt-get update -qq
    local pk=(); for p in "${missing[@]}"; do [ "$p" = __update__ ] || pk+=("$p"); done
    [ ${#pk[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${pk[@]}" >"$CACHE/logs/apt.log" 2>&1 \
      || { tail -30 "$CACHE/logs/apt.log"; exit 1; }
  fi
}

# apt-get source NAME into $CACHE/src once, then unpack the pristine upstream
# tarball it contains (the Debian patches make automake regenerate files with
# versions this machine lacks).  Prints the upstream source directory.
fetch_source() {
  local name=$1 dir
  dir=$(find "$CACHE/src/$name/upstream" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | head -1 || true)
  if [ -z "$dir" ]; then
    mkdir -p "$CACHE/src/$name"
    if ! ls "$CACHE/src/$name"/*.orig.tar.* >/dev/null 2>&1; then
      (cd "$CACHE/src/$name" && apt-get source -qq --download-only "$name" >"$CACHE/logs/source-$name.log" 2>&1) \
        || { tail -20 "$CACHE/logs/source-$name.log" >&2; exit 1; }
    fi
    rm -rf "$CACHE/src/$name/upstream" && mkdir -p "$CACHE/src/$name/upstream"
    tar -xf "$(ls "$CACHE/src/$name"/*.orig.tar.* | head -1)" -C "$CACHE/src/$name/upstream"
    dir=$(find "$CACHE/src/$name/upstream" -mindepth 1 -maxdepth 1 -type d | head -1)
  fi
  echo "$dir"
}

build_ompi_spc() {
  local prefix=$CACHE/openmpi-spc
  [ -f "$prefix/.built" ] && { log "Open MPI + SPC: cached in $prefix"; return; }
  local src; src=$(fetch_source openmpi)
  local pmix; pmix=$(dirname "$(find /usr/lib -path '*pmix2/lib/libpmix.so' | head -1)")
  pmix=${pmix%/lib}
  log "Open MPI + SPC: building from $src (about 6 minutes on 2 cores)"
  rm -rf "$CACHE/build-ompi" && mkdir -p "$CACHE/build-ompi"
  (cd "$CACHE/build-ompi" && "$src/configure" --prefix="$prefix" --enable-spc \
      --disable-mpi-fortran --disable-oshmem --disable-mpi-java --without-ucx --without-verbs \
      --without-ofi --without-psm --without-psm2 --without-cuda --with-hwloc=external \
      --with-libevent=external --with-pmix="$pmix" && make -j"$JOBS" && make install) \
      >"$CACHE/logs/ompi-spc.log" 2>&1 || { tail -40 "$CACHE/logs/ompi-spc.log"; exit 1; }
  rm -rf "$CACHE/build-ompi"
  touch "$prefix/.built"
  log "Open MPI + SPC: installed in $prefix"
}

build_mpich_events() {
  local prefix=$CACHE/mpich-events
  [ -f "$prefix/.built" ] && { log "MPICH + events: cached in $prefix"; return; }
  local src; src=$(fetch_source mpich)
  log "MPICH + events: building from $src (about 8 minutes on 2 cores)"
  rm -rf "$CACHE/build-mpich" && mkdir -p "$CACHE/build-mpich"
  (cd "$CACHE/build-mpich" && "$src/configure" --prefix="$prefix" --with-device=ch4:ofi \
      --with-libfabric=/usr --enable-mpit-pvars=recvq --enable-mpit-events=yes \
      --disable-fortran --disable-romio --disable-static --with-datatype-engine=dataloop --with-hwloc=/usr \
      && make -j"$JOBS" && make install) \
      >"$CACHE/logs/mpich-events.log" 2>&1 || { tail -40 "$CACHE/logs/mpich-events.log"; exit 1; }
  rm -rf "$CACHE/build-mpich"
  touch "$prefix/.built"
  log "MPICH + events: installed in $prefix"
}

# The current releases, built from ../shared/sources (upstream tags exported
# with their submodules; scripts/sources-dir.sh finds them).  Each goes to its
# own prefix under the cache, stamped when complete.
SOURCES=$(sh "$(dirname "$0")/sources-dir.sh")

unpack_shared() { # unpack_shared ARCHIVE: unpacks into $CACHE/src once, prints the tree
  local tree=$CACHE/src/$(basename "$1" .tar.gz)
  if [ ! -f "$tree/.unpacked" ]; then
    rm -rf "$tree" && mkdir -p "$CACHE/src"
    tar -xzf "$SOURCES/$1" -C "$CACHE/src" || { echo "cannot unpack $SOURCES/$1" >&2; exit 1; }
    touch "$tree/.unpacked"
  fi
  echo "$tree"
}

# Open MPI 5.0.9 with SPCs: a git tree, so autogen.pl first.  Internal PMIx
# and PRRTE (Debian's PMIx 4.2.2 is older than PRRTE 3.0.12 needs), Debian's
# hwloc and libevent (the bundled hwloc tarball is absent).
build_ompi5_spc() {
  local prefix=$CACHE/openmpi-5.0.9-spc
  [ -f "$prefix/.built" ] && { log "Open MPI 5.0.9 + SPC: cached in $prefix"; return; }
  local src; src=$(unpack_shared openmpi-5.0.9.tar.gz)
  log "Open MPI 5.0.9 + SPC: building from $src (about 15 minutes on 2 cores)"
  rm -rf "$CACHE/build-ompi5" && mkdir -p "$CACHE/build-ompi5"
  ( { [ -x "$src/configure" ] || (cd "$src" && ./autogen.pl --no-3rdparty hwloc,libevent); } \
    && cd "$CACHE/build-ompi5" && "$src/configure" --prefix="$prefix" --enable-spc \
      --disable-mpi-fortran --disable-oshmem --disable-sphinx --without-ucx --without-ofi \
      --without-cuda --with-hwloc=external --with-libevent=external \
      --with-pmix=internal --with-prrte=internal \
      && make -j"$JOBS" && make install) \
      >"$CACHE/logs/ompi5-spc.log" 2>&1 || { tail -40 "$CACHE/logs/ompi5-spc.log"; exit 1; }
  rm -rf "$CACHE/build-ompi5"
  touch "$prefix/.built"
  log "Open MPI 5.0.9 + SPC: installed in $prefix"
}

# Open MPI 6.0 (the v6.0.x snapshot, no tag yet) with SPCs: the first Open
# MPI with MPI_T events.  Built like 5.0.9; the bindings are generated with
# python3.  Its standard-ABI library is left out (--disable-standard-abi):
# the snapshot's pympistandard is its develop branch (the pinned commit was
# not available), and the header it generates does not match the ABI
# sources (abi.h declares MPI_Buffer_detach_c with MPI_Count, the source
# defines it with MPI_Count *), so libmpi_abi does not compile.
build_ompi6_spc() {
  local prefix=$CACHE/openmpi-6.0-spc
  [ -f "$prefix/.built" ] && { log "Open MPI 6.0 + SPC: cached in $prefix"; return; }
  local src; src=$(unpack_shared openmpi-6.0.x-bb1c85d2.tar.gz)
  # The snapshot's pympistandard is its develop branch (the pinned commit
  # was not available), which drops an apis.json path given as a string
  # (_resolve_path; the header generator gives one: use it as the file) and
  # lacks the kind of MPI_Abi_{get,set}_fortran_booleans' void * parameters.
  local pms=$src/3rd-party/pympistandard/src/pympistandard
  sed -i 's/^        given_path = Path(given_path)$/        path = Path(given_path)/' "$pms/__init__.py"
  grep -q '^LOGICAL_VOID = ' "$pms/_kinds.py" || printf '%s\n' '' 'LOGICAL_VOID = Kind(' \
    '    name="LOGICAL_VOID",' '    _lis="logical",' '    _iso_c_small="void",' \
    '    _f90_small="LOGICAL",' '    _f08_small="LOGICAL",' ')' >> "$pms/_kinds.py"
  log "Open MPI 6.0 + SPC: building from $src (about 20 minutes on 2 cores)"
  rm -rf "$CACHE/build-ompi6" && mkdir -p "$CACHE/build-ompi6"
  ( { [ -x "$src/configure" ] || (cd "$src" && ./autogen.pl --no-3rdparty hwloc,libevent); } \
    && cd "$CACHE/build-ompi6" && "$src/configure" --prefix="$prefix" --enable-spc \
      --disable-mpi-fortran --disable-oshmem --disable-sphinx --without-ucx --without-ofi \
      --without-cuda --with-hwloc=external --with-libevent=external \
      --with-pmix=internal --with-prrte=internal --disable-standard-abi \
      && make -j"$JOBS" && make install) \
      >"$CACHE/logs/ompi6-spc.log" 2>&1 || { tail -40 "$CACHE/logs/ompi6-spc.log"; exit 1; }
  rm -rf "$CACHE/build-ompi6"
  touch "$prefix/.built"
  log "Open MPI 6.0 + SPC: installed in $prefix"
}

# MPICH 4.3.2 or 5.0.1 with MPI_T events and recvq pvars, like 4.0.2.  The
# git tags leave libmpi's version at 0:0:0; the release's numbers give
# libmpi.so.12, the soname of 4.0.2, so one backend serves them all.
# 5.0.1 also builds its standard-ABI library (--enable-mpi-abi): libmpi_abi
# beside libmpi, and mpicc_abi.
build_mpich_release() { # build_mpich_release VERSION LIBTOOL_VERSION [CONFIGURE_OPTION...]
  local version=$1 sover=$2 prefix=$CACHE/mpich-$1-events; shift 2
  local stamp=$prefix/.built${1:+-abi}
  [ -f "$stamp" ] && { log "MPICH $version + events: cached in $prefix"; return; }
  local src; src=$(unpack_shared "mpich-$version.tar.gz")
  log "MPICH $version + events: building from $src (about 15 minutes on 2 cores)"
  rm -rf "$CACHE/build-mpich-$version" && mkdir -p "$CACHE/build-mpich-$version"
  ( { [ -x "$src/configure" ] || { sed -i "s/^m4_define(\[libmpi_so_version_m4\],\[[0-9:]*\])/m4_define([libmpi_so_version_m4],[$sover])/" "$src/maint/version.m4" \
        && grep -q "libmpi_so_version_m4\],\[$sover\]" "$src/maint/version.m4" \
        && (cd "$src" && ./autogen.sh -without-ucx -without-ofi -without-hwloc); }; } \
    && cd "$CACHE/build-mpich-$version" && "$src/configure" --prefix="$prefix" --with-device=ch4:ofi \
      --with-libfabric=/usr --enable-mpit-pvars=recvq --enable-mpit-events=yes \
      --disable-fortran --disable-romio --disable-doc --disable-static --with-datatype-engine=dataloop --with-hwloc=/usr \
      "$@" && make -j"$JOBS" && make install) \
      >"$CACHE/logs/mpich-$version-events.log" 2>&1 || { tail -40 "$CACHE/logs/mpich-$version-events.log"; exit 1; }
  [ -e "$prefix/lib/libmpi.so.12" ] || { echo "MPICH $version: no libmpi.so.12 in $prefix/lib"; exit 1; }
  [ $# = 0 ] || ls "$prefix"/lib/libmpi_abi.so* >/dev/null 2>&1 || { echo "MPICH $version: no libmpi_abi in $prefix/lib"; exit 1; }
  rm -rf "$CACHE/build-mpich-$version"
  touch "$prefix/.built" "$stamp"
  log "MPICH $version + events: installed in $prefix"
}

# The MPI Forum's standard-ABI header (mpi-abi-stubs), unpacked into the
# cache where configure finds it for the standard-ABI backend.  Without the
# sources that backend is not built (configure says so).
abi_stubs() {
  local archive; archive=$(cd "$SOURCES" 2>/dev/null && ls mpi-abi-stubs-*.tar.gz 2>/dev/null | head -1 || true)
  [ -n "$archive" ] || { log "no mpi-abi-stubs in $SOURCES: no standard-ABI backend"; return 0; }
  unpack_shared "$archive" >/dev/null
}

what=${1:-all}
case $what in
  packages) install_packages ;;
  papi-source) fetch_source papi ;;
  abi-stubs) abi_stubs ;;
  sources) install_packages; fetch_source papi >/dev/null; fetch_source openmpi >/dev/null; fetch_source mpich >/dev/null ;;
  ompi-spc) install_packages; build_ompi_spc ;;
  mpich-events) install_packages; build_mpich_events ;;
  ompi5-spc) install_packages; build_ompi5_spc ;;
  mpich43-events) install_packages; build_mpich_release 4.3.2 17:2:5 ;;
  mpich50-events) install_packages; build_mpich_release 5.0.1 18:1:6 --enable-mpi-abi ;;
  ompi6-spc) install_packages; build_ompi6_spc ;;
  all) install_packages; fetch_source papi >/dev/null; build_ompi_spc; build_mpich_events ;;
  *) echo "usage: $0 [packages|sources|papi-source|ompi-spc|mpich-events|all]" >&2; exit 2 ;;
esac
