# MPI flavors the tests run on: name, mpicc, mpirun and launcher options.
# Sourced by run.sh and by the demo.  A flavor is used when its compiler exists.
CACHE=${PAPI_MPIT_CACHE:-/var/cache/papi-mpit}

FLAVOR_WRAPPERS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/distro

# the Debian suite of a distribution flavor's chroot
flavor_suite() { case $1 in debian13-*) echo trixie ;; sid-*) echo sid ;; esac; }

# flavor_vars NAME: sets MPICC, MPIRUN, MPIRUN_OPTS and FLAVOR_EXEC (the
# prefix that runs a command where the flavor's programs run: empty on this
# machine, the chroot's for a distribution flavor), or returns 1 if absent.
flavor_vars() {
  MPIRUN_OPTS="" FLAVOR_EXEC=""
  case $1 in
    openmpi)      MPICC=mpicc.openmpi; MPIRUN=mpirun.openmpi ;;
    mpich)        MPICC=mpicc.mpich;   MPIRUN=mpirun.mpich ;;
    openmpi-spc)  MPICC=$CACHE/openmpi-spc/bin/mpicc; MPIRUN=$CACHE/openmpi-spc/bin/mpirun ;;
    mpich-events) MPICC=$CACHE/mpich-events/bin/mpicc; MPIRUN=$CACHE/mpich-events/bin/mpiexec ;;
    # Open MPI 5.0.7 with SPCs, built from trixie's source package (scripts/deps.sh)
    openmpi-5.0.7-spc)  MPICC=$CACHE/$1/bin/mpicc; MPIRUN=$CACHE/$1/bin/mpirun ;;
    # the distributions' MPIs as they ship, in chroots of Debian 13 (trixie)
    # and sid (scripts/chroot.sh); the sid-abi ones: a program built for the
    # MPI 5.0 standard ABI on Open MPI's and MPICH's libmpi_abi
    debian13-openmpi|debian13-mpich|sid-openmpi|sid-mpich|sid-abi-openmpi|sid-abi-mpich)
      [ -f "$CACHE/chroots/$(flavor_suite "$1")/.built" ] || return 1
      MPICC=$FLAVOR_WRAPPERS/$1-mpicc; MPIRUN=$FLAVOR_WRAPPERS/$1-mpirun; FLAVOR_EXEC=$FLAVOR_WRAPPERS/$1-exec ;;
    *) return 1 ;;
  esac
  case $1 in
    # root in CI containers; more ranks than the 2 cores
    # (Open MPI 5 renamed the shared-memory BTL "sm"; 4.1's is "vader")
    openmpi-[56]*|debian13-openmpi) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,sm --mca pml ob1" ;;
    # and Debian sid's UCX one-sided component, which fails its query here
    # (no UCX device) and says so on every window
    sid-openmpi|sid-abi-openmpi) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,sm --mca pml ob1 --mca osc ^ucx" ;;
    openmpi*) MPIRUN_OPTS="--allow-run-as-root --oversubscribe --mca btl self,vader --mca pml ob1" ;;
  esac
  command -v "$MPICC" >/dev/null 2>&1 && command -v "$MPIRUN" >/dev/null 2>&1
}

# Oldest first in each family.  MPIT_FLAVORS narrows the run.
ALL_FLAVORS="openmpi mpich openmpi-spc mpich-events openmpi-5.0.7-spc
             debian13-openmpi debian13-mpich sid-openmpi sid-mpich sid-abi-openmpi sid-abi-mpich"

# family of a flavor, for tests whose truth depends on it
flavor_family() { case $1 in openmpi* | *-openmpi) echo openmpi ;; *) echo mpich ;; esac; }

# kind of a flavor: what its MPI offers the tests, whatever its version
# (openmpi, mpich: the distribution's; openmpi-spc: SPCs; mpich-events: MPI_T
# events and recvq pvars).  Tests name kinds in "flavors:" lines and $KIND.
flavor_kind() { flavor_kind_r "$1"; echo "$REPLY"; }
# flavor_kind_r FLAVOR: the same in REPLY (no subshell: the scope checks
# call it for every test and flavor)
flavor_kind_r() {
  case $1 in
    openmpi*-spc) REPLY=openmpi-spc ;;
    mpich*-events|mpich*-abi) REPLY=mpich-events ;;
    # the distributions' MPIs as they ship: no SPCs, no MPICH events
    *-openmpi) REPLY=openmpi ;;
    *-mpich) REPLY=mpich ;;
    *) REPLY=$1 ;;
  esac
}
# the MPI release a flavor runs (its launcher included): flavors of one
# release differ only in how the library was built (SPCs, MPI_T events, the
# standard ABI), not in how a job starts, ends or forwards its output
flavor_release() { flavor_release_r "$1"; echo "$REPLY"; }
flavor_release_r() {
  case $1 in
    openmpi | openmpi-spc) REPLY=openmpi-4.1 ;;
    openmpi-5.0.7-spc | debian13-openmpi) REPLY=openmpi-5.0 ;;
    sid-openmpi | sid-abi-openmpi) REPLY=openmpi-6.0 ;;
    mpich | mpich-events) REPLY=mpich-4.0 ;;
    debian13-mpich) REPLY=mpich-4.2 ;;
    sid-mpich | sid-abi-mpich) REPLY=mpich-5.0 ;;
    *) REPLY=$1 ;;
  esac
}
# A test's "scope:" line says on which flavors it can fail differently, so
# that CI runs it there and nowhere else:
#   every    each flavor (MPI semantics, counters, the wrappers of each ABI);
#   release  one flavor per MPI release (launchers, signals, exit statuses,
#            each release's Fortran bindings);
#   library  one flavor per MPI release and ABI (the report's wrappers: a
#            rebuild with SPCs or MPI_T events adds counters, not calls;
#            the standard ABI's libmpi_abi is a library of its own);
#   kind     one flavor per kind (what the MPI offers: SPCs, MPI_T events);
#   family   one flavor per family (option parsing, rendering, merging, files).
# The flavor that runs a test for its group is the first in ALL_FLAVORS of
# that group that its "flavors:" line allows and FLAVOR_SKIPS does not skip.
scope_group_r() { # scope_group_r SCOPE FLAVOR: the group, in REPLY
  case $1 in
    release) flavor_release_r "$2" ;;
    library) flavor_release_r "$2"; case $2 in *-abi-*) REPLY=$REPLY-abi ;; esac ;;
    # each Open MPI release has a launcher of its own (4.1's mpirun, 5.0's
    # PRRTE, 6.0's prterun); MPICH's releases share Hydra
    launcher) case $2 in openmpi* | *-openmpi) flavor_release_r "$2" ;; *) REPLY=hydra ;; esac ;;
    kind) flavor_kind_r "$2" ;;
    family) case $2 in openmpi* | *-openmpi) REPLY=openmpi ;; *) REPLY=mpich ;; esac ;;
    *) REPLY=$2 ;;
  esac
}
# in_scope TEST SCOPE KINDS FLAVOR: 0 when FLAVOR runs TEST
# (MPIT_SCOPE=every: every flavor whatever the scope, for ctests/soak.sh)
in_scope() {
  local test=$1 scope=$2 kinds=$3 flavor=$4 group f
  case ${MPIT_SCOPE:-$scope} in '' | every) return 0 ;; esac
  scope_group_r "$scope" "$flavor"; group=$REPLY
  for f in $ALL_FLAVORS; do
    if [ -n "$kinds" ]; then flavor_kind_r "$f"; case " $kinds " in *" $REPLY "*) ;; *) continue ;; esac; fi
    scope_group_r "$scope" "$f"; [ "$REPLY" = "$group" ] || continue
    flavor_skip "$f" "$test" >/dev/null && continue
    [ "$f" = "$flavor" ]
    return
  done
  return 1
}
# test_meta FILE: a test's header lines, read without a subshell (run.sh
# and flavor-table.sh call it for every test): KINDS, the kinds its
# "flavors:" line names (none: every kind), SCOPE and SCOPE_WHY, its
# "scope:" line's word and the reason in parentheses after it
test_meta() {
  local line re_kinds re_scope='^[#!/* ]*scope: *([a-z]+)( *[(](.*)[)])?'
  KINDS="" SCOPE="" SCOPE_WHY=""
  case $1 in *.c) re_kinds='^.*flavors: *([a-z -]*)' ;; *) re_kinds='^# flavors: *([a-z -]*)' ;; esac
  while IFS= read -r line || [ -n "$line" ]; do
    [ -z "$KINDS" ] && [[ $line =~ $re_kinds ]] && KINDS=${BASH_REMATCH[1]}
    [ -z "$SCOPE" ] && [[ $line =~ $re_scope ]] && SCOPE=${BASH_REMATCH[1]} SCOPE_WHY=${BASH_REMATCH[3]}
  done <"$1"
  KINDS=${KINDS%"${KINDS##*[! ]}"}
  return 0
}

# flavor_libmpi: the MPI library a program built with $MPICC loads, where it
# runs ($FLAVOR_EXEC); in the current directory it leaves mpiprog.c and
# mpiprog behind.
flavor_libmpi() {
  printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' > mpiprog.c
  $MPICC mpiprog.c -o mpiprog || { echo "FAIL: $MPICC cannot build a trivial program" >&2; return 1; }
  local lib
  lib=$($FLAVOR_EXEC ldd ./mpiprog | awk '/libmpi(ch|_abi)?\.so/ { print $3; exit }')
  [ -n "$lib" ] && $FLAVOR_EXEC test -f "$lib" || { echo "FAIL: cannot find the MPI library of $MPICC" >&2; return 1; }
  echo "$lib"
}

# Tests that cannot hold on a flavor, and why (run.sh skips them, saying
# so): "FLAVORS|TESTS|reason", each a space-separated list of shell patterns.
FLAVOR_SKIPS=(
  "sid-openmpi sid-abi-openmpi|t_monitoring_mca|the user's own pml_monitoring_enable makes Open MPI 6.0.0~rc2 segfault in MPI_Init (mca_common_monitoring_add_procs), before the component is loaded to prevent it; t_never_kill checks what the component does there"
  "sid-openmpi sid-abi-openmpi|t_monitoring t_report_matrix t_bad_variable t_count_from_init t_listing_before_init t_peer_before_init t_report_reasons t_rma_bytes|Open MPI 6.0.0~rc2's monitoring segfaults in MPI_Init, so the component never switches it on there (a known defect): t_never_kill checks the refusals and the report"
  "sid-openmpi sid-abi-openmpi|t_report_alloc|Open MPI 6.0.0~rc2's sm BTL hangs under MPI_THREAD_MULTIPLE: 2 threads a rank, each on its own communicators, both wait in MPI_Waitall for good after some 20,000 to 80,000 messages, without the tool or the counter (none over the tcp BTL, with 1 thread, or on Open MPI 5.0.7 and 4.1.4; t_report_alloc.sh)"
  "sid-abi-openmpi|t_add_threads t_lifecycle t_hl t_native_avail t_report_sampled t_report_scale|these expect ob1's queue lengths, bound to a communicator, which Open MPI 6.0.0~rc2's libmpi_abi refuses to bind (MPI_T_ERR_INVALID_HANDLE, a known defect: refused with the reason; the others that need them skip themselves)"
  "debian13-mpich|t_report_faults|Debian 13's mpiexec (MPICH 4.2.1's hydra) now and then exits 0 after a rank killed itself with SIGKILL, without the tool too (1 of 4 runs of report_fault kill here; sid's 5.0.2 exits 9 every time)"
  "debian13-openmpi|t_report_scale|Debian 13's mpirun (PRRTE of Open MPI 5.0.7) segfaults on an MPMD command line (mpirun -np 1 hostname : -np 1 hostname, exit 139), which the test's mixed-events run needs"
  "debian13-* sid-*|t_report_slurm t_report_hang_slurm t_report_hang_sbatch|Slurm (Debian 12's slurm-wlm and its PMIx) runs on this machine; a chroot's MPI is launched by its own mpirun, and t_report_slurm, t_report_hang_slurm and t_report_hang_sbatch check the report under srun, and under mpirun inside sbatch, on the machine's own Open MPI"
  "debian13-* sid-*|t_report_netpipe|NPmpi is the machine's netpipe-openmpi (Debian 12), not in the chroot"
  "mpich-events|t_sessions_refused|MPICH 4.0.2 built with MPI_T events aborts now and then in MPI_Init called after MPI_Session_init at 2 ranks (its assertion at ch4_progress.h:327 on the global mutex), at this project's commit 91ba8ae as at later ones, so not from a change of the component's; stock MPICH runs the test (t_sessions_count covers sessions on this flavor)"
  "debian13-* sid-* openmpi-5.0.7-spc|t_report_sites_hpcc|hpcc is the machine's, built for Debian 12's Open MPI 4.1 (it does not start on Open MPI 5.0.7, and is not in the chroots)"
  "debian13-* sid-*|t_tau t_scorep t_caliper t_hpcrun|the site's tool installations (doc/testing.md, \"Testing with your own tools\") are built on this machine, not in the chroot"
  "sid-abi-*|t_metric_table|doc/events.md's metric table has a column per native library; a standard-ABI program's column differs by the ABI defects (t_backends, t_never_kill)"
)

# flavor_skip FLAVOR TEST: prints why TEST cannot hold on FLAVOR, or returns 1
flavor_skip() {
  local row fl ts f t
  for row in "${FLAVOR_SKIPS[@]}"; do
    fl=${row%%|*}; ts=${row#*|}; ts=${ts%%|*}
    for f in $fl; do
      # shellcheck disable=SC2254
      case $1 in $f) for t in $ts; do case $2 in $t) echo "${row##*|}"; return 0 ;; esac; done ;; esac
    done
  done
  return 1
}
