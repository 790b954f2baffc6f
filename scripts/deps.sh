#!/usr/bin/env bash
# Installs everything papi-mpit needs on Debian 12 and builds the MPI flavors
# that the distribution does not ship (Open MPI with SPC, MPICH with MPI_T
# events) into a cache outside the checkout (scripts/cache-dir.sh), so later
# runs reuse them.  Every mode but papi-source installs packages (sudo when
# not root); papi-source only runs apt-get source into the cache, which needs
# no root, and is what make uses when configure chose it.
# Everything comes from Debian's packages: bookworm's binaries and source
# packages, and trixie's and sid's through a private apt (scripts/suite-apt.sh).
# The distributions' own MPIs run in debootstrap chroots of trixie and sid
# (scripts/chroot.sh), made by the modes debian13 and debian-sid; Debian 11's
# (bullseye), where the project is built from source (scripts/debian11.sh),
# by the mode debian11.
#   scripts/deps.sh [packages|sources|papi-source|papi72-source|abi-header|
#                    ompi-spc|mpich-events|ompi5-spc|debian13|debian-sid|debian11|debian11-build|arm64|all]   (default: all)
set -euo pipefail

CACHE=$(sh "$(dirname "$0")/cache-dir.sh")
JOBS=${JOBS:-$(nproc)}
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
# The MPI source builds bypass ccache (scripts/test.sh puts it first on
# PATH): they stay installed in the cache, so their objects would never be
# looked up again, and each miss costs a compile a preprocessor run more.
export CCACHE_DISABLE=1
mkdir -p "$CACHE/src" "$CACHE/logs"

log() { printf '[deps %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

PACKAGES=(
  build-essential autoconf automake libtool pkg-config dpkg-dev gfortran python3 libpfm4-dev
  libopenmpi-dev openmpi-bin libmpich-dev mpich
  libhwloc-dev libevent-dev libpmix-dev
  libfabric-dev libpsm-infinipath1-dev libpsm2-dev librdmacm-dev libibverbs-dev
  netpipe-openmpi librsvg2-bin iproute2 groff-base clang-format python3-mpi4py
  libdw-dev libjansson-dev hpcc cp2k quantum-espresso quantum-espresso-data
  libotf2-trace-dev otf2-tools
  flex bison perl debootstrap
  chromium
  munge slurmctld slurmd slurm-client
  qemu-user-static gcc-aarch64-linux-gnu
  ccache
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

# The Open MPI 4.1.4 and MPICH builds run beside the tests on 2 cores from
# an empty cache, so they are made to cost little CPU: -O1 (these MPIs
# serve tests, not speed), no dependency tracking (a build is never
# remade), and none of what no test reaches.  The Open MPI build leaves out MPI-IO (--disable-io-romio
# and OMPIO's frameworks: no test does MPI-IO; the MPI_File_ entry points
# stay in libmpi), message logging (vprotocol), treematch's topology
# reordering, the AVX reductions (the base ones give the same results), and
# the collectives han and adapt (priority 0: never chosen unless asked for).
CHEAP_FLAGS=(CFLAGS=-O1 CXXFLAGS=-O1 --disable-dependency-tracking)
OMPI_NO_BUILD=io-ompio,common-ompio,fs,fbtl,fcoll,sharedfp,vprotocol,topo-treematch,op-avx,coll-han,coll-adapt
build_ompi_spc() {
  local prefix=$CACHE/openmpi-spc
  [ -f "$prefix/.built" ] && { log "Open MPI + SPC: cached in $prefix"; return; }
  local src; src=$(fetch_source openmpi)
  local pmix; pmix=$(dirname "$(find /usr/lib -path '*pmix2/lib/libpmix.so' | head -1)")
  pmix=${pmix%/lib}
  log "Open MPI + SPC: building from $src (about 6 minutes on 2 cores)"
  rm -rf "$CACHE/build-ompi" && mkdir -p "$CACHE/build-ompi"
  (cd "$CACHE/build-ompi" && "$src/configure" --prefix="$prefix" --enable-spc "${CHEAP_FLAGS[@]}" \
      --enable-mca-no-build="$OMPI_NO_BUILD" --disable-mpi-fortran --disable-oshmem --disable-mpi-java --disable-io-romio --without-ucx --without-verbs \
      --without-ofi --without-psm --without-psm2 --without-cuda --with-hwloc=external \
      --with-libevent=external --with-pmix="$pmix" && make -j"$JOBS" && make install) \
      >"$CACHE/logs/ompi-spc.log" 2>&1 || { tail -40 "$CACHE/logs/ompi-spc.log"; exit 1; }
  rm -rf "$CACHE/build-ompi"
  touch "$prefix/.built"
  log "Open MPI + SPC: installed in $prefix"
}

# MPICH: -O1 through its own --enable-fast (its default appends -O2 after
# CFLAGS); --no-recursion leaves out the configure of MPICH's own test
# suite (test/mpi, its only AC_CONFIG_SUBDIRS: never built here), not those
# of MPL, json-c and Hydra.
build_mpich_events() {
  local prefix=$CACHE/mpich-events
  [ -f "$prefix/.built" ] && { log "MPICH + events: cached in $prefix"; return; }
  local src; src=$(fetch_source mpich)
  log "MPICH + events: building from $src (about 8 minutes on 2 cores)"
  rm -rf "$CACHE/build-mpich" && mkdir -p "$CACHE/build-mpich"
  (cd "$CACHE/build-mpich" && "$src/configure" --prefix="$prefix" --with-device=ch4:ofi \
      --enable-fast=O1 --disable-dependency-tracking --no-recursion \
      --with-libfabric=/usr --enable-mpit-pvars=recvq --enable-mpit-events=yes \
      --disable-fortran --disable-romio --disable-static --with-datatype-engine=dataloop --with-hwloc=/usr \
      && make -j"$JOBS" && make install) \
      >"$CACHE/logs/mpich-events.log" 2>&1 || { tail -40 "$CACHE/logs/mpich-events.log"; exit 1; }
  rm -rf "$CACHE/build-mpich"
  touch "$prefix/.built"
  log "MPICH + events: installed in $prefix"
}

# Upstream tarballs of other suites, fetched with a private apt
# (scripts/suite-apt.sh) into $CACHE/src/NAME once and unpacked there.
# Prints the unpacked tree.
suite_source() { # suite_source SUITE PACKAGE NAME
  local suite=$1 pkg=$2 name=$3 dir=$CACHE/src/$3
  local tree=$dir/upstream/$name
  if [ ! -d "$tree" ] || [ ! -f "$dir/.unpacked" ]; then
    bash "$(dirname "$0")/suite-apt.sh" source "$suite" "$pkg" "$dir" >"$CACHE/logs/source-$name.log" 2>&1 \
      || { tail -5 "$CACHE/logs/source-$name.log" >&2; exit 1; }
    rm -rf "$dir/upstream" "$dir/unpack" && mkdir -p "$dir/upstream" "$dir/unpack"
    tar -xf "$(ls "$dir"/*.orig.tar.* | head -1)" -C "$dir/unpack"
    # one known name for the tree, whatever the tarball's top directory
    mv "$(find "$dir/unpack" -mindepth 1 -maxdepth 1 -type d | head -1)" "$dir/upstream/$name"
    rm -rf "$dir/unpack"
    touch "$dir/.unpacked"
  fi
  echo "$tree"
}

# PAPI 7.2.0: sid's upstream tarball (its debian.tar.xz is not served; the
# tarball is all a build needs), checked against the sum it was first seen with
PAPI72_SHA256=f806e77e8cd08a0d3e4c002d8a8d3fefc64840ff663c2ac46bd66398c779c6db
papi72_source() {
  local tree; tree=$(suite_source sid papi papi-7.2.0)
  echo "$PAPI72_SHA256  $(ls "$CACHE"/src/papi-7.2.0/papi_7.2.0.orig.tar.gz)" | sha256sum -c --quiet >/dev/null 2>&1 \
    || { echo "papi_7.2.0.orig.tar.gz: not the tarball first seen (sha256)" >&2; exit 1; }
  echo "$tree"
}

# Open MPI 5.0.7 with SPCs, from trixie's source package (the upstream
# release tarball: configure generated, PMIx and PRRTE bundled; Debian 12's
# PMIx 4.2.2 is older than its PRRTE needs, so both internal).  Built at
# its default optimisation with every component but ROMIO: from an empty
# cache scripts/test.sh leaves this build to the next run, so it does not
# run beside a whole run's tests and the other two builds.
build_ompi5_spc() {
  local prefix=$CACHE/openmpi-5.0.7-spc
  [ -f "$prefix/.built" ] && { log "Open MPI 5.0.7 + SPC: cached in $prefix"; return; }
  local src; src=$(suite_source trixie openmpi openmpi-5.0.7)
  log "Open MPI 5.0.7 + SPC: building from $src (about 15 minutes on 2 cores)"
  rm -rf "$CACHE/build-ompi5" && mkdir -p "$CACHE/build-ompi5"
  (cd "$CACHE/build-ompi5" && "$src/configure" --prefix="$prefix" --enable-spc \
      --disable-mpi-fortran --disable-oshmem --disable-sphinx --disable-io-romio --without-ucx --without-ofi \
      --without-cuda --with-hwloc=external --with-libevent=external \
      --with-pmix=internal --with-prrte=internal \
      && make -j"$JOBS" && make install) \
      >"$CACHE/logs/ompi5-spc.log" 2>&1 || { tail -40 "$CACHE/logs/ompi5-spc.log"; exit 1; }
  rm -rf "$CACHE/build-ompi5"
  touch "$prefix/.built"
  log "Open MPI 5.0.7 + SPC: installed in $prefix"
}

# The MPI 5.0 standard ABI's mpi.h, as Debian ships it (sid's libmpich-dev:
# mpi_abi_mpich/include/mpi.h), extracted into the cache where configure
# finds it for the standard-ABI backend.  Without it that backend is not
# built (configure says so).
abi_header() {
  local dir=$CACHE/src/mpi-abi-header
  [ -f "$dir/include/mpi.h" ] && return 0
  rm -rf "$dir" && mkdir -p "$dir/deb"
  bash "$(dirname "$0")/suite-apt.sh" download sid libmpich-dev "$dir/deb" >"$CACHE/logs/abi-header.log" 2>&1 \
    || { log "sid's libmpich-dev could not be fetched: no standard-ABI backend ($CACHE/logs/abi-header.log)"; return 0; }
  dpkg-deb -x "$dir"/deb/libmpich-dev_*.deb "$dir/root"
  local h; h=$(find "$dir/root" -path '*mpi_abi_mpich/include/mpi.h' | head -1)
  [ -n "$h" ] || { log "sid's libmpich-dev has no mpi_abi_mpich/include/mpi.h: no standard-ABI backend"; return 0; }
  mkdir -p "$dir/include" && cp "$h" "$dir/include/mpi.h"
  rm -rf "$dir/root" "$dir/deb"
}

what=${1:-all}
case $what in
  packages) install_packages ;;
  papi-source) fetch_source papi ;;
  papi72-source) papi72_source ;;
  abi-header) abi_header ;;
  sources) install_packages; fetch_source papi >/dev/null; fetch_source openmpi >/dev/null; fetch_source mpich >/dev/null ;;
  ompi-spc) install_packages; build_ompi_spc ;;
  mpich-events) install_packages; build_mpich_events ;;
  ompi5-spc) install_packages; build_ompi5_spc ;;
  # Debian 13's Open MPI 5.0.7 and MPICH 4.2.1; sid's Open MPI 6.0.0~rc2 and
  # MPICH 5.0.2 with both standard-ABI libraries
  debian13) install_packages; bash "$(dirname "$0")/chroot.sh" make trixie ;;
  debian-sid) install_packages; bash "$(dirname "$0")/chroot.sh" make sid ;;
  debian11-build) bash "$(dirname "$0")/debian11.sh" build ;;
  # Debian 11's Open MPI 4.1.0 and MPICH 3.4.1, with the tools to build the
  # project there; PAPI 7.2.0's source is read from this cache, bound inside
  debian11) install_packages; papi72_source >/dev/null; bash "$(dirname "$0")/chroot.sh" make bullseye ;;
  # Debian 12 for arm64, run under qemu-user (scripts/arm64.sh): qemu-aarch64
  # registered with binfmt_misc, then the chroot
  # (status 77 where binfmt_misc cannot be used: arm64 binaries cannot run here)
  arm64) install_packages; papi72_source >/dev/null
    bash "$(dirname "$0")/arm64.sh" binfmt || exit 77
    bash "$(dirname "$0")/arm64.sh" chroot ;;
  all) install_packages; papi72_source >/dev/null; abi_header; build_ompi_spc; build_mpich_events ;;
  *) echo "usage: $0 [packages|sources|papi-source|papi72-source|abi-header|ompi-spc|mpich-events|ompi5-spc|debian13|debian-sid|debian11|debian11-build|arm64|all]" >&2; exit 2 ;;
esac
