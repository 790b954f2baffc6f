#!/usr/bin/env bash
# One libpapi, every MPI on the machine: the same installed libpapi and
# backend directory serve a program of the distribution's Open MPI, one of
# its MPICH, and a program built for the MPI 5.0 standard ABI (mpicc_abi:
# MPICH 5.0.1's libmpi_abi) beside MPICH 5.0.1's and Open MPI 6.0's (where
# built) native programs.  Each chooses its backend at run time: the
# component names the module it loaded (papi_mpit_backend), and where the
# MPI counts unexpected messages (SPCs, MPI_T events) the 5 that
# backend_app arranges read exactly 5.
# flavors: mpich-events
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/flavors.sh"
case $FLAVOR in mpich-5.0.1-abi) ;; *) echo "SKIP runs on mpich-5.0.1-abi, with every other MPI installed"; exit 77 ;; esac
test_workdir backends
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ran=0
# flavor, expected module and family, expected unexpected count ("-": none)
for row in "openmpi:mpit_backend_openmpi.so (Open MPI):-" "mpich:mpit_backend_mpich.so (MPICH):-" \
           "mpich-5.0.1-events:mpit_backend_mpich.so (MPICH):5" "mpich-5.0.1-abi:mpit_backend_abi.so (MPICH):5" \
           "openmpi-6.0-spc:mpit_backend_openmpi.so (Open MPI):5"; do
  f=${row%%:*}; rest=${row#*:}; module=${rest%:*}; count=${rest##*:}
  if ! flavor_vars "$f"; then
    case $f in openmpi-6.0*) echo "($f not built: scripts/deps.sh ompi6-spc)"; continue ;; esac
    fail "$f is not installed"; continue
  fi
  opts=$MPIRUN_OPTS
  [ "$count" = 5 ] && case $f in openmpi*) export OMPI_MCA_mpi_spc_attach=OMPI_SPC_UNEXPECTED ;; esac
  $MPICC -Wall -Wextra -I"$PAPI_INC" -I"$here/../components/mpit" "$here/backend_app.c" \
    -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o "app-$f" || { fail "$f: cannot build backend_app"; continue; }
  out=$(timeout 120 $MPIRUN $opts -np 2 "./app-$f" 2>"err-$f")
  unset OMPI_MCA_mpi_spc_attach
  echo "$f: $(echo "$out" | tr '\n' ' ')"
  ran=$((ran + 1))
  echo "$out" | grep -qxF "backend: $module" || { fail "$f: expected backend '$module'"; tail -5 "err-$f"; }
  echo "$out" | grep -qxF "unexpected: $count of 5" || fail "$f: expected 'unexpected: $count of 5'"
done
[ $ran -ge 4 ] || fail "only $ran programs ran"
[ $fails -eq 0 ] && echo "PASS one libpapi served $ran programs, each with its backend"
[ $fails -eq 0 ]
