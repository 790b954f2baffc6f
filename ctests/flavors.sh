# MPI flavors the tests run on: name, mpicc, mpirun and launcher options.
# Sourced by run.sh and by the demo.  A flavor is used when its compiler exists.
CACHE=${PAPI_MPIT_CACHE:-/var/cache/papi-mpit}

# flavor_vars NAME: sets MPICC, MPIRUN, MPIRUN_OPTS, or returns 1 if absent.
flavor_vars() {
  MPIRUN_OPTS=""
  case $1 in
    openmpi)      MPICC=mpicc.openmpi; MPIRUN=mpirun.openmpi ;;
    mpich)        MPICC=mpicc.mpich;   MPIRUN=mpirun.mpich ;;
    openmpi-spc)  MPICC=$CACHE/openmpi-spc/bin/mpicc; MPIRUN=$CACHE/openmpi-spc/bin/mpirun ;;
    mpich-events) MPICC=$CACHE/mpich-events/bin/mpicc; MPIRUN=$CACHE/mpich-events/bin/mpiexec ;;
    *) return 1 ;;
  esac
  case $1 in
    # root in CI containers; more ranks than the 2 cores
    openmpi*) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1" ;;
  esac
  command -v "$MPICC" >/dev/null 2>&1 && command -v "$MPIRUN" >/dev/null 2>&1
}

ALL_FLAVORS="openmpi mpich openmpi-spc mpich-events"

# family of a flavor, for tests whose truth depends on it
flavor_family() { case $1 in openmpi*) echo openmpi ;; *) echo mpich ;; esac; }

# flavor_libmpi: the MPI library a program built with $MPICC loads (in the
# current directory it leaves mpiprog.c and mpiprog behind).
flavor_libmpi() {
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > mpiprog.c
  $MPICC mpiprog.c -o mpiprog || { echo "FAIL: $MPICC cannot build a trivial program" >&2; return 1; }
  local lib
  lib=$(ldd ./mpiprog | awk '/libmpi(ch)?\.so/ { print $3; exit }')
  [ -f "$lib" ] || { echo "FAIL: cannot find the MPI library of $MPICC" >&2; return 1; }
  echo "$lib"
}
