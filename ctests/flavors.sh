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
    # Open MPI 5.0.7 with SPCs, built from trixie's source package (scripts/deps.sh)
    openmpi-5.0.7-spc)  MPICC=$CACHE/$1/bin/mpicc; MPIRUN=$CACHE/$1/bin/mpirun ;;
    *) return 1 ;;
  esac
  case $1 in
    # root in CI containers; more ranks than the 2 cores
    # (Open MPI 5 renamed the shared-memory BTL "sm"; 4.1's is "vader")
    openmpi-[56]*) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,sm --mca pml ob1" ;;
    openmpi*) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1" ;;
  esac
  command -v "$MPICC" >/dev/null 2>&1 && command -v "$MPIRUN" >/dev/null 2>&1
}

# Oldest first in each family.  MPIT_FLAVORS narrows the run.
ALL_FLAVORS="openmpi mpich openmpi-spc mpich-events openmpi-5.0.7-spc"

# family of a flavor, for tests whose truth depends on it
flavor_family() { case $1 in openmpi*) echo openmpi ;; *) echo mpich ;; esac; }

# kind of a flavor: what its MPI offers the tests, whatever its version
# (openmpi, mpich: the distribution's; openmpi-spc: SPCs; mpich-events: MPI_T
# events and recvq pvars).  Tests name kinds in "flavors:" lines and $KIND.
flavor_kind() {
  case $1 in
    openmpi*-spc) echo openmpi-spc ;;
    mpich*-events|mpich*-abi) echo mpich-events ;;
    *) echo "$1" ;;
  esac
}

# flavor_libmpi: the MPI library a program built with $MPICC loads (in the
# current directory it leaves mpiprog.c and mpiprog behind).
flavor_libmpi() {
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > mpiprog.c
  $MPICC mpiprog.c -o mpiprog || { echo "FAIL: $MPICC cannot build a trivial program" >&2; return 1; }
  local lib
  lib=$(ldd ./mpiprog | awk '/libmpi(ch|_abi)?\.so/ { print $3; exit }')
  [ -f "$lib" ] || { echo "FAIL: cannot find the MPI library of $MPICC" >&2; return 1; }
  echo "$lib"
}
