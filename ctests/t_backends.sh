#!/usr/bin/env bash
# One libpapi, every MPI: the same libpapi and backend directory serve a
# program of Debian 12's Open MPI and MPICH, of sid's Open MPI 6.0.0~rc2 and
# MPICH 5.0.2 (in sid's chroot), and ONE program compiled once against the
# MPI 5.0 standard mpi.h (sid's libmpich-dev) run on both standard-ABI
# libraries, libmpi_abi_openmpi and libmpi_abi_mpich.  Each chooses its
# backend at run time: the component names the module it loaded and the
# family behind it (backend_app).  The standard-ABI binary of
# t_object_events.c, the same file on both libraries: through Open MPI's
# ABI the events of 6.0.0~rc2 are exact (communicators created and freed,
# windows, errors handled); through MPICH's each metric is refused with the
# reason that names what gives it.  (No stock MPI here counts unexpected
# messages: backend_app says "-" on each.)
# flavors: openmpi
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/flavors.sh"
case $FLAVOR in sid-abi-openmpi) ;; *) echo "SKIP runs once, on sid-abi-openmpi, with the other MPIs beside it"; exit 77 ;; esac
test_workdir backends
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# build FLAVOR OUT SOURCE...: compiled with FLAVOR's compiler
build() {
  local f=$1 out=$2; shift 2
  flavor_vars "$f" || return 1
  $MPICC -Wall -Wextra -I"$here/common" -I"$PAPI_INC" -I"$here/../components/mpit" "$@" \
    -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o "$out"
}

# ---- the standard ABI: one binary of each program, built once
build sid-abi-openmpi app-abi "$here/backend_app.c" || { echo "FAIL: cannot build backend_app for the standard ABI"; exit 1; }
build sid-abi-openmpi objects-abi "$here/t_object_events.c" "$here/common/check.c" \
  || { echo "FAIL: cannot build t_object_events for the standard ABI"; exit 1; }

ran=0
# flavor, program, expected module and family
for row in "openmpi:app-openmpi:mpit_backend_openmpi.so (Open MPI)" "mpich:app-mpich:mpit_backend_mpich.so (MPICH)" \
           "sid-openmpi:app-sid-openmpi:mpit_backend_openmpi.so (Open MPI)" "sid-mpich:app-sid-mpich:mpit_backend_mpich.so (MPICH)" \
           "sid-abi-openmpi:app-abi:mpit_backend_abi.so (Open MPI)" "sid-abi-mpich:app-abi:mpit_backend_abi.so (MPICH)"; do
  f=${row%%:*}; rest=${row#*:}; app=${rest%%:*}; module=${rest#*:}
  flavor_vars "$f" || { fail "$f is not installed"; continue; }
  [ -x "$app" ] || build "$f" "$app" "$here/backend_app.c" || { fail "$f: cannot build backend_app"; continue; }
  out=$(timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "./$app" 2>"err-$f")
  echo "$f ($app): $(echo "$out" | tr '\n' ' ')"
  ran=$((ran + 1))
  echo "$out" | grep -qxF "backend: $module" || { fail "$f: expected backend '$module'"; tail -5 "err-$f"; }
  echo "$out" | grep -qxF "unexpected: - of 5" || fail "$f: expected 'unexpected: - of 5' (no stock MPI counts them)"
done
[ $ran -eq 6 ] || fail "only $ran programs ran"

# ---- the events through the standard ABI, one binary on both libraries
for row in "sid-abi-openmpi:object events" "sid-abi-mpich:object events (none on this MPI)"; do
  f=${row%%:*}; want="PASS ${row#*:}"
  flavor_vars "$f" || { fail "$f is not installed"; continue; }
  for np in 2 4; do
    # stdout apart from stderr: another rank's message on stderr, forwarded
    # in pieces, could otherwise land inside the PASS line
    timeout 120 $MPIRUN $MPIRUN_OPTS -np $np ./objects-abi >"objects-$f-$np.out" 2>"objects-$f-$np.err"
    rc=$?
    if [ $rc -eq 0 ] && grep -qxF "$want" "objects-$f-$np.out" && ! grep -q FAIL "objects-$f-$np.out" "objects-$f-$np.err"; then
      ok "$f np=$np: the standard-ABI t_object_events: $want ($(grep '^object events:' "objects-$f-$np.out"))"
    else
      fail "$f np=$np (exit $rc): not '$want'"; grep -E 'FAIL|PASS' "objects-$f-$np.out" | head -10; head -5 "objects-$f-$np.err"
    fi
  done
done

[ $fails -eq 0 ] && echo "PASS one libpapi served $ran programs, each with its backend; one standard-ABI binary on both libraries"
[ $fails -eq 0 ]
