#!/usr/bin/env bash
# The compiler and launcher of a distribution flavor (ctests/flavors.sh):
# this script, called through a link named FLAVOR-mpicc or FLAVOR-mpirun,
# runs that flavor's command inside its suite's chroot (scripts/chroot.sh),
# in the current directory, with the caller's environment.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
name=$(basename "$0")
flavor=${name%-*} tool=${name##*-}

# The standard ABI: one program compiled against the standard mpi.h (sid's
# libmpich-dev) and linked to libmpi_abi.so.1, run on the implementation
# whose library that soname names in the directory put first on the path
# (scripts/chroot.sh makes /usr/local/lib/mpi-abi/<impl>/libmpi_abi.so.1)
ABI_INC=/usr/lib/x86_64-linux-gnu/mpi_abi_mpich/include
ABI_CC="gcc -I$ABI_INC"
ABI_LINK="-L/usr/local/lib/mpi-abi/openmpi -lmpi_abi"

# flavor: suite, compiler, launcher, library directory of the standard ABI
case $flavor in
  debian13-openmpi) suite=trixie cc=mpicc.openmpi run=mpirun.openmpi abi="" ;;
  debian13-mpich)   suite=trixie cc=mpicc.mpich   run=mpirun.mpich   abi="" ;;
  sid-openmpi)      suite=sid    cc=mpicc.openmpi run=mpirun.openmpi abi="" ;;
  sid-mpich)        suite=sid    cc=mpicc.mpich   run=mpirun.mpich   abi="" ;;
  sid-abi-openmpi)  suite=sid    cc=abi          run=mpirun.openmpi abi=/usr/local/lib/mpi-abi/openmpi ;;
  sid-abi-mpich)    suite=sid    cc=abi          run=mpirun.mpich   abi=/usr/local/lib/mpi-abi/mpich ;;
  *) echo "$name: no distribution flavor '$flavor'" >&2; exit 2 ;;
esac
chroot_run=("bash" "$here/../../scripts/chroot.sh" run "$suite")
case $tool in
  mpicc)
    if [ "$cc" = abi ]; then
      # the link options go last, after the objects and libraries given
      # shellcheck disable=SC2086
      exec "${chroot_run[@]}" $ABI_CC "$@" $ABI_LINK
    fi
    exec "${chroot_run[@]}" "$cc" "$@" ;;
  mpifort) # the suite's gfortran through the MPI's wrapper (no standard-ABI Fortran)
    [ "$cc" != abi ] || { echo "$name: the standard ABI has no Fortran binding" >&2; exit 2; }
    exec "${chroot_run[@]}" "${cc/mpicc/mpifort}" "$@" ;;
  mpirun)
    [ -z "$abi" ] || export LD_LIBRARY_PATH=$abi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    exec "${chroot_run[@]}" "$run" "$@" ;;
  exec) # any command, as the flavor's programs run (ldd, a PAPI utility)
    [ -z "$abi" ] || export LD_LIBRARY_PATH=$abi${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    exec "${chroot_run[@]}" "$@" ;;
  *) echo "$name: no tool '$tool' (mpicc, mpifort, mpirun, exec)" >&2; exit 2 ;;
esac
