# Shared by the shell tests (ctests/t_*.sh): counting failures, a clean work
# directory under $BIN, the PAPI utilities of the build, the report tool, and
# the real clients (TAU, Caliper, hpcrun, Score-P) a test runs.
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# PAPI utilities sit in $PAPI_UTILS/<name> (or <name>/<name> in some layouts)
util() { if [ -x "$PAPI_UTILS/$1/$1" ]; then echo "$PAPI_UTILS/$1/$1"; else echo "$PAPI_UTILS/$1"; fi; }
# test_workdir NAME: an empty $BIN/NAME, made the current directory
test_workdir() { work=$BIN/$1; rm -rf "$work" && mkdir -p "$work" && cd "$work"; }
# counts N...: the rank counts to run, smallest first: all of them where
# run.sh says so (MPIT_COUNTS=all: the first flavor of each kind, where a
# test's arithmetic per rank count is checked), else the largest alone
counts() { if [ "${MPIT_COUNTS:-all}" = all ]; then echo "$@"; else echo "${@: -1}"; fi; }
# report_tool: the build's papi-mpit-report in $wrap (build tree in $build),
# its interposers in PAPI_MPIT_REPORT_LIBDIR, and none of the caller's other
# PAPI_MPIT_REPORT_* variables (each test sets what it means); 1 when the
# tool is not built.
report_tool() {
  build=${MPIT_BUILDDIR:-$(cd "$BIN/../.." && pwd)}
  wrap=$build/utils/papi-mpit-report
  local v
  for v in $(compgen -e); do
    case $v in PAPI_MPIT_REPORT_*) unset "$v" ;; esac
  done
  export PAPI_MPIT_REPORT_LIBDIR=$build/.libs
  [ -x "$wrap" ] || { echo "FAIL: $wrap not built"; return 1; }
}

# mpi_fortran: the flavor's Fortran compiler wrapper in $fc, once it has built
# a `use mpi` program in the current directory; else 1, with the reason in
# $fc_why (the standard ABI has no Fortran binding, the SPC and events
# rebuilds are configured without Fortran).
mpi_fortran() {
  case $MPICC in
    *_abi | */distro/*-abi-*-mpicc) fc_why="the standard ABI has no Fortran binding"; return 1 ;;
    */distro/*-mpicc) fc=${MPICC%-mpicc}-mpifort ;; # gfortran in the suite's chroot
    mpicc.*) fc=mpifort.${MPICC#mpicc.} ;;
    */mpicc) fc=${MPICC%/mpicc}/mpifort ;;
    *) fc=mpifort ;;
  esac
  command -v "$fc" >/dev/null 2>&1 || { fc_why="no $fc: the MPI was built without Fortran"; return 1; }
  printf 'program probe\n  use mpi\nend program probe\n' >fc_probe.f90
  # Debian 11's Open MPI ships mpifort.openmpi without its wrapper data
  # ("Cannot open configuration file"), mpif90.openmpi with it
  case $fc in
    mpifort.*) "$fc" fc_probe.f90 -o fc_probe >fc_probe.log 2>&1 || ! command -v "mpif90.${fc#mpifort.}" >/dev/null 2>&1 \
      || fc=mpif90.${fc#mpifort.} ;;
  esac
  "$fc" fc_probe.f90 -o fc_probe >fc_probe.log 2>&1 \
    || { fc_why="$fc cannot build a 'use mpi' program (the MPI was built without Fortran modules)"; return 1; }
}

# client_on_exact_kinds NAME VAR SUBDIR FILE: the start of a test that compares
# a client's numbers with an exact truth, which only the flavors with Open MPI
# SPCs or MPI_T events have (the others skip): the installed PAPI
# (PAPI_PREFIX, default $MPIT_BUILDDIR/install) and need_client.
client_on_exact_kinds() {
  case $KIND in
    openmpi-spc | mpich-events) ;;
    *) echo "SKIP $FLAVOR has neither Open MPI SPCs nor MPI_T events: nothing exact to compare $1 with"; exit 77 ;;
  esac
  export PAPI_PREFIX=${PAPI_PREFIX:-${MPIT_BUILDDIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/_build}/install}
  need_client "$@"
}

# need_client NAME VAR SUBDIR FILE: the site's installation of the real
# client NAME, which the project does not build (no Debian package has it).
# The person running the tests names its prefix, built against the libpapi
# under test: $VAR, or $VAR_OPENMPI / $VAR_MPICH for a build per MPI family
# (TAU's and Score-P's wrappers are compiled against one mpi.h).  Sets
# client_dir to PREFIX/SUBDIR.  The test skips, saying so, when none is
# named, and fails when FILE is missing from client_dir.
need_client() {
  local name=$1 var=$2 sub=$3 file=$4 fam prefix
  case $FLAVOR in openmpi*) fam=OPENMPI ;; *) fam=MPICH ;; esac
  prefix=$(eval "echo \${${var}_${fam}:-\${${var}:-}}")
  # the clients' MPI layers (TAU's and Score-P's wrappers, Caliper's mpi
  # service) are compiled against a native mpi.h; hpcrun has none
  case $FLAVOR in *-abi)
    [ "$name" = hpcrun ] || { echo "SKIP $name is built per native MPI: its MPI layer is compiled against that MPI's mpi.h"; exit 77; } ;;
  esac
  [ -n "$prefix" ] || { echo "SKIP no $name installation named: set $var (or ${var}_$fam) to a prefix built against $PAPI_PREFIX (doc/testing.md, \"Testing with your own tools\")"; exit 77; }
  client_dir=$prefix${sub:+/$sub}
  [ -e "$client_dir/$file" ] || { echo "FAIL: $var=$prefix: no $sub${sub:+/}$file there"; exit 1; }
  echo "$name: $client_dir (PAPI: $PAPI_PREFIX)"
}

# family_mpi_dirs LIBMPI: for a client built against Debian's MPI of the
# family (same ABI), the library path that runs it on this flavor's LIBMPI:
# its directory and, for MPICH, ./shim with Debian's soname libmpich.so.12
# naming the same file.
family_mpi_dirs() {
  local dir
  dir=$(dirname "$1")
  if [ "$(flavor_family "$FLAVOR")" = mpich ]; then
    mkdir -p shim && ln -sfn "$1" shim/libmpich.so.12
    dir=$PWD/shim:$dir
  fi
  echo "$dir"
}

# libmpi40_fits: 0 when a program linked against Debian's libmpi.so.40
# (NPmpi of netpipe-openmpi, Score-P's MPI adapter) can run on this flavor's
# Open MPI: not on one whose library has another soname (the Open MPI 6.0
# snapshot's libmpi.so.0)
libmpi40_fits() {
  case $MPICC in
    */*) [ -e "$(dirname "$MPICC")/../lib/libmpi.so.40" ] ;;
    *) true ;;
  esac
}

# launcher_is_prrte: 0 when $MPIRUN is Open MPI 5's or later (PRRTE).
# PRRTE now and then forwards none of what a rank wrote to stderr early in
# the job, while prterun had not yet taken the spawn's reply (seen about once
# in 40 runs on a loaded machine: a rank's start-up error in t_report_cli and
# t_report_faults, rank 0's "event ... skipped" at MPI_Init in
# t_report_reasons; it fits the PMIx defect of output that beats the spawn's
# reply, fixed in 2026 by openpmix pull 4061, after the versions Debian
# ships): its output forwarding, not the tool; the tests that judge such a
# line read each rank's own stderr (common/per_rank.sh) under PRRTE.
launcher_is_prrte() { $MPIRUN --version 2>&1 | grep -qE '\(Open MPI\) [5-9]'; }
# prrte_status_of RC WANT: whether prterun's status RC answers a job whose
# first failing rank exited WANT: WANT itself, or PRRTE's own 1 or 255 (now
# and then, "Abort is in progress"); a timeout's 124 or a signal's 128+N is
# not one
prrte_status_of() { case $1 in "$2" | 1 | 255) return 0 ;; *) return 1 ;; esac; }

# hydra_quiet_stdin CMD...: CMD with a standard input that never becomes
# readable.  MPICH's mpiexec (Hydra) forwards its stdin to rank 0: at end of
# file (</dev/null, as under make) it writes the end to the proxy's socket,
# and when the whole job ended during mpiexec's own start-up the proxy has
# gone, so mpiexec dies of SIGPIPE (141) with every rank's output unread in
# that socket (4.0.2, pm/pmiserv/pmiserv_cb.c, the STDIN command; strace:
# EPIPE on that write after reading one message of the proxy's).  Seen
# without the tool: "sh -c 'echo line >&2; exit 2'" on 3 ranks, 2 busy
# loops on 2 cores, 16 runs in 200 died so, no line out; the not-found case
# with the tool 3 in 200; with this stdin 0 in 200.  Hydra's alone: what
# the tool controls (each rank's status, the first rank's line) is judged
# (the sleep is started by the shell itself, so that its pid is known and
# it ends with CMD: a process substitution on CMD's own line is made in
# the child forked for CMD, which leaves $! unset and the sleep behind)
hydra_quiet_stdin() {
  local rc pid fd
  exec {fd}< <(exec sleep 600)
  pid=$!
  "$@" <&$fd {fd}<&-
  rc=$?
  exec {fd}<&-
  kill $pid 2>/dev/null
  return $rc
}
