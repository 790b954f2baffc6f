#!/usr/bin/env bash
# The distributions' own MPIs, as they ship: a debootstrap chroot per Debian
# suite in the cache ($CACHE/chroots/SUITE), with that suite's Open MPI and
# MPICH packages, and a way to run a command in it.  The libpapi, backends
# and report tool built on this machine run there at the same paths: each
# command runs in a private mount namespace (unshare -m) where /proc, /sys,
# /dev, /dev/shm, /tmp, the checkout, the build tree and the cache are bound
# at their own paths, so nothing stays mounted afterwards.  Needs root.
#   scripts/chroot.sh make SUITE          debootstrap + packages, once (trixie, sid,
#                                         bullseye: scripts/debian11.sh; bookworm-arm64:
#                                         Debian 12 for arm64 under qemu-user, scripts/arm64.sh)
#   scripts/chroot.sh run SUITE CMD...    CMD in the chroot, in the current directory
#                                         (SUITE may be a chroot's directory)
#   scripts/chroot.sh root SUITE          prints the chroot's directory
# The mirror is the machine's own (scripts/suite-apt.sh mirror).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
CACHE=$(sh "$here/cache-dir.sh")

# what each suite's chroot holds besides minbase: the MPIs as the suite
# ships them, a compiler for the tests' programs, python3 for the report's
# checks, and the libraries the host-built libpapi loads (libpfm4)
packages() {
  case $1 in
    trixie | sid)
      # libdw, jansson: the report tool's interposer links them (call sites);
      # gfortran: the Fortran call sites on each suite's MPIs
      # python3-mpi4py: the Python call sites on each suite's CPython (t_report_mpi4py)
      # ccache: the tests' programs compiled again only when they changed
      # (scripts/test.sh puts /usr/lib/ccache first on PATH; its store is
      # CCACHE_DIR inside the chroot, which stays in the cache with it)
      echo openmpi-bin libopenmpi-dev mpich libmpich-dev gcc libc6-dev python3 libpfm4 procps libdw-dev libjansson-dev gfortran python3-mpi4py ccache ;;
    # arm64 under qemu-user (scripts/arm64.sh): Debian 12's Open MPI that
    # the call-site run uses, and the libraries and headers the report
    # tool is cross-compiled against (the chroot is its sysroot)
    bookworm-arm64)
      echo openmpi-bin libopenmpi-dev gcc libc6-dev make python3 procps libdw-dev libjansson-dev ;;
    bullseye)
      # Debian 11 is older than this machine: nothing built here runs there,
      # so the project is built inside it from source (scripts/debian11.sh),
      # with what the README's commands need: autotools (./autogen.sh), a C
      # and C++ compiler and patch (PAPI's build), libpfm4's headers (which
      # configure finds too old for PAPI 7.2), libdw and jansson (the report
      # tool), and for the tests gfortran and mpi4py (the call sites)
      echo openmpi-bin libopenmpi-dev mpich libmpich-dev gcc g++ make libc6-dev autoconf automake libtool \
        pkg-config patch gfortran python3 python3-mpi4py libpfm4-dev libdw-dev libjansson-dev procps ;;
    *) echo "chroot: no package list for suite '$1'" >&2; return 1 ;;
  esac
}

log() { printf '[chroot %s] %s\n' "$(date +%H:%M:%S)" "$*"; }

# binds SUITE: the directories bound at their own paths (deduplicated: one
# under another already bound is left out)
binds() {
  local d list=() out=()
  for d in "$top" "$CACHE" "${MPIT_BUILDDIR:-}" "${PAPI_BUILD:-}" "${PREFIX:-}" \
           "${PAPI_MPIT_BACKEND_DIR:-}" "${BIN:-}" "$PWD"; do
    [ -n "$d" ] && [ -d "$d" ] && list+=("$(cd "$d" && pwd -P)")
  done
  while read -r d; do
    local inside=no o
    for o in "${out[@]}"; do case $d/ in "$o"/*) inside=yes ;; esac; done
    [ $inside = yes ] || [ "$d" = / ] || out+=("$d")
  done < <(printf '%s\n' "${list[@]}" | sort -u)
  printf '%s\n' "${out[@]}"
}

# in_ns ROOT CMD...: CMD in ROOT, in a new mount namespace with the binds
in_ns() {
  local root=$1; shift
  mapfile -t dirs < <(binds)
  # the namespace's mounts are private (unshare's default propagation):
  # they end with the command
  ${IN_NS_EXEC:-} unshare -m --propagation private -- bash -c '
    set -e
    root=$1; shift; n=$1; shift
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --bind /tmp "$root/tmp"
    [ -d /dev/shm ] && mkdir -p "$root/dev/shm" && mount --bind /dev/shm "$root/dev/shm"
    for ((i = 0; i < n; i++)); do
      mkdir -p "$root$1" && mount --bind "$1" "$root$1"; shift
    done
    cwd=$PWD
    exec chroot "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$cwd" "$@"
  ' in_ns "$root" "${#dirs[@]}" "${dirs[@]}" "$@"
}

# abi_dirs ROOT: a directory per implementation of the MPI 5.0 standard ABI
# (/usr/local/lib/mpi-abi/openmpi, .../mpich) whose libmpi_abi.so and
# libmpi_abi.so.1 name that implementation's library: both libraries have
# the soname libmpi_abi.so.1, which Debian points at one of them, so a
# program linked to it runs on the one whose directory comes first in
# LD_LIBRARY_PATH (ctests/distro/wrap.sh)
abi_dirs() {
  local root=$1 lib impl
  for lib in "$root"/usr/lib/x86_64-linux-gnu/libmpi_abi_*.so.1.*; do
    [ -e "$lib" ] || continue
    impl=${lib##*/libmpi_abi_}; impl=${impl%%.so*}
    mkdir -p "$root/usr/local/lib/mpi-abi/$impl"
    ln -sfn "/usr/lib/x86_64-linux-gnu/${lib##*/}" "$root/usr/local/lib/mpi-abi/$impl/libmpi_abi.so.1"
    ln -sfn libmpi_abi.so.1 "$root/usr/local/lib/mpi-abi/$impl/libmpi_abi.so"
  done
}

# a chroot's name is SUITE or SUITE-arm64 (bookworm-arm64): arm64's runs
# under qemu-user, through binfmt_misc (scripts/arm64.sh binfmt registers it)
make_chroot() {
  local suite=$1 root=$CACHE/chroots/$1 arch_opt=()
  case $suite in
    *-arm64)
      arch_opt=(--arch=arm64)
      [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] \
        || { echo "chroot: arm64 binaries do not run here: no qemu-aarch64 in binfmt_misc (scripts/arm64.sh binfmt)" >&2; return 1; } ;;
  esac
  if [ -f "$root/.built" ]; then
    # a cached chroot made with fewer packages gets the new ones
    if [ "$(cat "$root/.packages" 2>/dev/null)" != "$(packages "$suite")" ]; then
      log "$suite: cached in $root; installing the packages added since: $(packages "$suite")"
      in_ns "$root" env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $(packages "$suite") && apt-get clean" \
        >>"$CACHE/logs/chroot-$suite.log" 2>&1 || { tail -20 "$CACHE/logs/chroot-$suite.log"; return 1; }
      packages "$suite" > "$root/.packages"
    fi
    log "$suite: cached in $root ($(cat "$root/.built"))"
    return 0
  fi
  [ "$(id -u)" = 0 ] || { echo "chroot: making a chroot needs root" >&2; return 1; }
  command -v debootstrap >/dev/null || { echo "chroot: debootstrap is not installed (scripts/deps.sh packages)" >&2; return 1; }
  local pk mirror t0 t1 t2
  pk=$(packages "$suite")
  mirror=$(bash "$here/suite-apt.sh" mirror)
  mkdir -p "$CACHE/logs" && rm -rf "$root" && mkdir -p "$root"
  log "$suite: debootstrap --variant=minbase into $root"
  t0=$(date +%s)
  ${NICE:-} debootstrap --variant=minbase "${arch_opt[@]}" "${suite%-arm64}" "$root" "$mirror" >"$CACHE/logs/chroot-$suite.log" 2>&1 \
    || { tail -20 "$CACHE/logs/chroot-$suite.log"; return 1; }
  t1=$(date +%s)
  log "$suite: apt-get install $pk"
  # no daemons start in the chroot; no documentation
  printf '#!/bin/sh\nexit 101\n' > "$root/usr/sbin/policy-rc.d" && chmod +x "$root/usr/sbin/policy-rc.d"
  # the machine's own apt settings on the mirror's release files (a mirror
  # kept at one date serves a sid Release past its Valid-Until)
  grep -hs '^Acquire::Check-' /etc/apt/apt.conf /etc/apt/apt.conf.d/* > "$root/etc/apt/apt.conf.d/90machine" || true
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' \
    > "$root/etc/dpkg/dpkg.cfg.d/01-nodoc"
  # shellcheck disable=SC2086
  in_ns "$root" env DEBIAN_FRONTEND=noninteractive PATH=/usr/sbin:/usr/bin:/sbin:/bin \
    ${NICE:-} sh -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends $pk" \
    >>"$CACHE/logs/chroot-$suite.log" 2>&1 || { tail -20 "$CACHE/logs/chroot-$suite.log"; return 1; }
  in_ns "$root" apt-get clean >/dev/null 2>&1 || true
  abi_dirs "$root"
  t2=$(date +%s)
  packages "$suite" > "$root/.packages"
  echo "debootstrap $((t1 - t0)) s, packages $((t2 - t1)) s, $(du -sm "$root" | cut -f1) MB" > "$root/.built"
  log "$suite: ready ($(cat "$root/.built"))"
}

case ${1:-} in
  make) [ $# = 2 ] || { echo "usage: $0 make SUITE" >&2; exit 2; }; make_chroot "$2" ;;
  root) [ $# = 2 ] || { echo "usage: $0 root SUITE" >&2; exit 2; }; echo "$CACHE/chroots/$2" ;;
  run)
    [ $# -ge 3 ] || { echo "usage: $0 run SUITE CMD..." >&2; exit 2; }
    case $2 in
      # a directory instead of a suite: a chroot made otherwise (by hand)
      */*) root=$2; [ -d "$root/usr" ] || { echo "chroot: $root holds no chroot" >&2; exit 1; } ;;
      *) root=$CACHE/chroots/$2
         [ -f "$root/.built" ] || { echo "chroot: $root is not made (scripts/chroot.sh make)" >&2; exit 1; } ;;
    esac
    shift 2
    IN_NS_EXEC=exec in_ns "$root" "$@"
    ;;
  *) echo "usage: $0 make|run|root SUITE ..." >&2; exit 2 ;;
esac
