#!/usr/bin/env bash
# The real TAU (the site's own, named by PAPI_MPIT_TAU) collects
# mpit events exactly: `tau_exec -T mpi,papi,pthread` on ring_app.c, a plain
# MPI program without PAPI calls, with TAU_METRICS naming mpit events
# (Open MPI: UNEXPECTED_MSGS, BYTES_SENT, BYTES_RECEIVED; MPICH:
# UNEXPECTED_MSGS, event.unexp_message_enqueued) and perf::TASK-CLOCK, at 2
# and 4 ranks.  Per rank, TAU's whole-program total (inclusive value of
# ".TAU application" in MULTI__<metric>/profile.<rank>.0.0) must equal the
# truth:
#   openmpi-spc:  Open MPI's own SPC dump at MPI_Finalize
#                 (--mca mpi_spc_dump_enabled true), counter by counter;
#   mpich-events: exactly MESSAGES more than the same run with 0 messages
#                 (ring_app's messages are all unexpected, whatever the timing;
#                 MPI's and TAU's internal messages cancel out).
# perf::TASK-CLOCK must be positive.  A run whose TAU_METRICS also names
# mpit events that do not exist must finish (timeout), keep the other
# metrics exact and name each bad event on stderr.
# Other flavors skip: their MPI has neither SPCs nor MPI_T events.
#
# Run by ctests/run.sh (environment: FLAVOR MPICC MPIRUN MPIRUN_OPTS BIN
# PAPI_MPIT_BACKEND_DIR; PAPI_PREFIX or $MPIT_BUILDDIR/install is the
# installed libpapi TAU is built against), in $BIN.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/flavors.sh"

client_on_exact_kinds TAU PAPI_MPIT_TAU x86_64/bin tau_exec
tau_bin=$client_dir

test_workdir tau || exit 1
$MPICC -Wall -Wextra -Werror "$here/ring_app.c" -o ring_app || { echo "FAIL: ring_app does not build"; exit 1; }
libmpi=$(flavor_libmpi) || exit 1

# TAU was built against Debian's MPI of the family (it needs Fortran); run it
# on this flavor's MPI library, same ABI, first on the search path
mpidir=$(family_mpi_dirs "$libmpi")
if [ "$(flavor_family "$FLAVOR")" = openmpi ] && [ ! -e "$mpidir/libmpi_cxx.so.40" ]; then
  # libTAU.so needs Debian's libmpi_cxx.so.40, whose code needs Open MPI 4.1;
  # Open MPI 5 has no C++ bindings.  TAU's objects name five of their
  # symbols only through mpi.h's inline C++ classes (vtables, the operator
  # intercept) and call none: a library of that name defines them, and
  # aborts should one ever be called
  mkdir -p shim && cat > shim/cxx.c <<'CXX' &&
#include <stdlib.h>
void _ZN3MPI3Win4FreeEv(void) { abort(); }      /* MPI::Win::Free() */
void _ZN3MPI4CommC2Ev(void) { abort(); }        /* MPI::Comm::Comm() */
void _ZN3MPI8Datatype4FreeEv(void) { abort(); } /* MPI::Datatype::Free() */
void ompi_mpi_cxx_op_intercept(void) { abort(); }
void ompi_op_set_cxx_callback(void) { abort(); }
CXX
    cc -shared -fPIC -Wl,-soname,libmpi_cxx.so.40 shim/cxx.c -o shim/libmpi_cxx.so.40 ||
    { echo "FAIL: cannot build the libmpi_cxx stand-in"; exit 1; }
  mpidir=$PWD/shim:$mpidir
fi
# libTAU.so finds libpapi through the cache's papi symlink, which another
# build may point elsewhere meanwhile: name the libpapi under test (run.sh's
# $PAPI_LIB first, the same library as the installed one)
export LD_LIBRARY_PATH=$mpidir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$PAPI_PREFIX/lib
unset TAU_METRICS PROFILEDIR TAU_VERBOSE PAPI_MPIT_QUIET OMPI_MCA_mpi_spc_attach

BYTES=64
case $KIND in
  openmpi-spc)  metrics="UNEXPECTED_MSGS BYTES_SENT BYTES_RECEIVED"; MESSAGES=10
                declare -A spc_of=([UNEXPECTED_MSGS]=OMPI_SPC_UNEXPECTED [BYTES_SENT]=OMPI_SPC_BYTES_SENT_USER
                                   [BYTES_RECEIVED]=OMPI_SPC_BYTES_RECEIVED_USER)
                # lower bounds from ring_app itself, so that no comparison holds by both sides being 0
                declare -A least=([UNEXPECTED_MSGS]=$((MESSAGES + 1)) [BYTES_SENT]=$((MESSAGES * BYTES + 8))
                                  [BYTES_RECEIVED]=$((MESSAGES * BYTES + 8)))
                extra="--mca mpi_spc_dump_enabled true" ;;
  # BYTES_* are SPCs: MPICH has UNEXPECTED_MSGS from its events, and the
  # event itself.  Not unexp_message_dequeued: a message that arrived during
  # MPI_Init, before the component could register, is dequeued afterwards.
  mpich-events) metrics="UNEXPECTED_MSGS event.unexp_message_enqueued"; MESSAGES=10; extra="" ;;
esac
# names that do not exist: a pvar-like one (MPI_T variables are known only
# after MPI_Init) and a portable-metric-like one (the table is fixed)
bad="no_such_pvar NO_SUCH_COUNTER"

# run_tau DIR NP MESSAGES TAU_METRICS: ring_app under tau_exec, profiles in DIR
run_tau() {
  local dir=$1 np=$2 m=$3
  rm -rf "$dir" && mkdir -p "$dir"
  echo "run: TAU_METRICS=$4 $MPIRUN -np $np tau_exec -T mpi,papi,pthread ring_app -m $m -b $BYTES"
  TAU_METRICS=$4 PROFILEDIR=$PWD/$dir timeout -k 5 60 $MPIRUN $MPIRUN_OPTS $extra -np "$np" \
    "$tau_bin/tau_exec" -T mpi,papi,pthread ./ring_app -m "$m" -b "$BYTES" >"$dir/out.log" 2>"$dir/err.log"
  local rc=$?
  sed 's/^/  | /' "$dir/out.log" "$dir/err.log" | grep -v 'OMPI_SPC_\|MPI_COMM_WORLD Rank\|^  | \[[^]]*\] *$' | head -20
  # a run takes seconds; after a hang the next runs would hang too
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    fail "$dir: no end after 60 s: hang (TAU wraps MPI and reads PAPI inside its wrappers)"
    hung_ranks "$dir"
    exit 1
  fi
  [ $rc -eq 0 ] || { fail "$dir: mpirun exited with $rc"; return 1; }
  local r
  for ((r = 0; r < np; r++)); do
    grep -q "^ring_app rank $r done" "$dir/out.log" || { fail "$dir: rank $r did not finish"; return 1; }
  done
}

# hung_ranks DIR: the ranks of run DIR still alive (known by their
# environment), with their stacks when gdb is there, then killed.  They can
# outlive mpirun (launched in their own sessions) and may block SIGTERM.
hung_ranks() {
  local p pids=""
  for p in /proc/[0-9]*; do
    { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx "PROFILEDIR=$PWD/$1" && pids="$pids ${p#/proc/}"
  done
  local shown=0
  for p in $pids; do
    [ "$(readlink "/proc/$p/exe")" = "$PWD/ring_app" ] || continue
    echo "hung rank, process $p: $({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null)"
    # one stack is enough: the ranks hang alike
    [ $shown -eq 0 ] && command -v gdb >/dev/null && shown=1 \
      && timeout 30 gdb -p "$p" -batch -ex 'thread apply all bt' 2>&1 | grep '^#\|^Thread'
  done
  [ -z "$pids" ] || kill -9 $pids 2>/dev/null
}

# tau_total DIR METRIC RANK: inclusive value of ".TAU application" in TAU's
# profile of RANK (a profile line: "NAME" calls subrs excl incl profcalls GROUP=...)
tau_total() {
  local f=$1/MULTI__${2//:/_}/profile.$3.0.0  # TAU writes ':' as '_' in directory names
  [ -f "$f" ] || { echo "missing $f"; return 1; }
  awk -F'"' '$2 == ".TAU application" { split($3, v, " "); print v[4]; exit }' "$f"
}

# spc_value DIR RANK COUNTER: the SPC dump's value (a counter that is absent was 0)
spc_value() {
  awk -v want="$2" -v name="$3" '
    / MPI_COMM_WORLD Rank [0-9]+:$/ { sub(":", "", $NF); rank = $NF; next }
    rank == want && $2 == name && $3 == "->" { v = $4 }
    END { print (v == "" ? 0 : v) }' "$1/err.log"
}

is_int() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }

# tau_metrics NAMES... [-- LAST...]: a TAU_METRICS value: TIME, each mpit
# name and perf::TASK-CLOCK with TAU's PAPI_NATIVE_ prefix, then LAST.  Separated
# by ',' (TAU 2.35.2 splits on ':' unless a ',' is present, and its
# unescaping of '\:' skips the character after each escape, so
# 'mpit\:\:\:X' comes out split).  A name PAPI rejects goes last: TAU drops
# it from its list and then skips the metric that moved into its place.
tau_metrics() {
  local list=TIME last="" name
  while [ $# -gt 0 ] && [ "$1" != -- ]; do list=$list,PAPI_NATIVE_mpit:::$1; shift; done
  [ $# -gt 0 ] && shift
  for name in "$@"; do last=$last,PAPI_NATIVE_mpit:::$name; done
  echo "$list,PAPI_NATIVE_perf::TASK-CLOCK$last"
}

# check_clock DIR NP: perf::TASK-CLOCK counted on every rank
check_clock() {
  local r v
  for ((r = 0; r < $2; r++)); do
    v=$(tau_total "$1" PAPI_NATIVE_perf::TASK-CLOCK $r)
    if is_int "$v" && [ "$v" -gt 0 ]; then ok "$1 rank $r perf::TASK-CLOCK = $v"
    else fail "$1 rank $r perf::TASK-CLOCK is '$v', expected a positive integer"; fi
  done
}

# check_openmpi DIR NP METRICS...: TAU's totals equal the SPC dump
check_openmpi() {
  local dir=$1 np=$2 r m t s; shift 2
  grep -q 'Open MPI Software-based Performance Counters' "$dir/err.log" || { fail "$dir: no SPC dump on stderr"; return; }
  for ((r = 0; r < np; r++)); do
    for m in "$@"; do
      t=$(tau_total "$dir" "PAPI_NATIVE_mpit:::$m" $r)
      s=$(spc_value "$dir" $r "${spc_of[$m]}")
      if ! is_int "$t"; then fail "$dir rank $r $m: TAU total is '$t'"
      elif [ "$s" -lt "${least[$m]}" ]; then fail "$dir rank $r ${spc_of[$m]} = $s in the SPC dump, ring_app alone makes ${least[$m]}"
      elif [ "$t" != "$s" ]; then fail "$dir rank $r $m: TAU $t, SPC dump $s"
      else ok "$dir rank $r $m: TAU $t = SPC dump ${spc_of[$m]} $s"; fi
    done
  done
  check_clock "$dir" "$np"
}

# check_mpich DIR0 DIR NP METRICS...: TAU's totals in DIR exceed DIR0's (the
# run with 0 messages) by exactly MESSAGES
check_mpich() {
  local dir0=$1 dir=$2 np=$3 r m t0 t; shift 3
  for ((r = 0; r < np; r++)); do
    for m in "$@"; do
      t0=$(tau_total "$dir0" "PAPI_NATIVE_mpit:::$m" $r)
      t=$(tau_total "$dir" "PAPI_NATIVE_mpit:::$m" $r)
      if ! is_int "$t0" || ! is_int "$t"; then fail "$dir rank $r $m: TAU totals '$t0' (0 messages) and '$t'"
      elif [ $((t - t0)) -ne $MESSAGES ]; then fail "$dir rank $r $m: TAU $t with $MESSAGES messages, $t0 without: expected a difference of $MESSAGES"
      else ok "$dir rank $r $m: TAU $t with $MESSAGES messages = $t0 without + $MESSAGES"; fi
    done
  done
  check_clock "$dir" "$np"
  check_clock "$dir0" "$np"
}

# ---- exact totals at 2 and 4 ranks
for np in 2 4; do
  if [ "$KIND" = openmpi-spc ]; then
    run_tau np$np $np $MESSAGES "$(tau_metrics $metrics)" && check_openmpi np$np $np $metrics
  else
    run_tau np$np-m0 $np 0 "$(tau_metrics $metrics)" && run_tau np$np $np $MESSAGES "$(tau_metrics $metrics)" \
      && check_mpich np$np-m0 np$np $np $metrics
  fi
done

# ---- mpit events that do not exist
dir=bad
if [ "$KIND" = openmpi-spc ]; then
  run_tau $dir 2 $MESSAGES "$(tau_metrics $metrics -- $bad)" && check_openmpi $dir 2 $metrics
else
  run_tau $dir 2 $MESSAGES "$(tau_metrics $metrics -- $bad)" && check_mpich np2-m0 $dir 2 $metrics
fi
for b in $bad; do
  if grep -q "$b" "$dir/err.log"; then ok "stderr names mpit:::$b: $(grep -m1 "$b" "$dir/err.log")"
  else fail "no message naming mpit:::$b on stderr"; fi
  # a name PAPI rejects at lookup, TAU drops; one accepted before MPI_Init
  # (it may yet appear) TAU keeps: it must read 0, never something made up
  for ((r = 0; r < 2; r++)); do
    v=$(tau_total $dir PAPI_NATIVE_mpit:::$b $r)
    case $v in
      0) ok "rank $r: mpit:::$b reads 0 in TAU's profile" ;;
      "missing "*) ok "rank $r: no TAU profile for mpit:::$b" ;;
      *) fail "rank $r: TAU shows '$v' for mpit:::$b, which does not exist" ;;
    esac
  done
done

[ $fails -eq 0 ] || exit 1
echo "PASS tau"
