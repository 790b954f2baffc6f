#!/usr/bin/env bash
# Score-P, the real one (the site's own, named by PAPI_MPIT_SCOREP; once per MPI
# family against Debian's MPI and the PAPI under test), records mpit events
# through SCOREP_METRIC_PAPI.  ring_app.c, a plain MPI program, is
# instrumented with `scorep --mpp=mpi --thread=pthread --nocompiler` and run
# at 2 and 4 ranks on this flavor's MPI (same ABI); the per-rank totals are
# read from profile.cubex with the bundled cube_dump (inclusive value of the
# call tree's root, each location).
#   BYTES_SENT, BYTES_RECEIVED (Open MPI SPC): exactly ring_app's bytes, and
#     the difference between the runs with N and 0 messages equals that of
#     Open MPI's own SPC dump at MPI_Finalize (the dump also holds what
#     Score-P sends after its last read, the same in both runs);
#   UNEXPECTED_MSGS: at least ring_app's N + 1 and (Open MPI) at most the
#     dump.  Not exact: Score-P's own messages in MPI_Init and MPI_Finalize
#     (communicator set-up, clock synchronisation) arrive unexpected or not
#     by timing, a few per rank (seen 0 to 5), in both runs;
#   MPICH events: UNEXPECTED_MSGS equals event.unexp_message_enqueued;
# and on both, perf::TASK-CLOCK (a second event set, Score-P makes one per
# component) positive.  For meaning, not only presence:
#   !mpit:::UNEXPECTED_QUEUE_MAX, an absolute metric: Score-P's profile
#   stores the change between a region's enter and exit, '!' or not, so the
#   root's inclusive value is the high-water mark of the whole run, at least
#   the N + 1 messages that wait together in ring_app (on Open MPI 4.1 and
#   5.0 this found that the SPC level and watermark miss Score-P's messages
#   that arrive inside MPI_Init: the maximum is kept over ob1's queue length);
#   MATCH_TIME (integer ns, where offered) positive and larger with N = 400
#   than with N = 0.
# And: a misspelt name ends the run with the component's reason on stderr; a
# thread started after MPI_Finalize (ring_app -t) does not end a good run;
# every event the component lists after MPI_Init, given to Score-P in groups,
# never ends a run.  Other flavors: skip.
#
# Run by ctests/run.sh (environment: FLAVOR KIND MPICC MPIRUN MPIRUN_OPTS BIN
# PAPI_MPIT_BACKEND_DIR; PAPI_PREFIX or $MPIT_BUILDDIR/install is the
# installed libpapi Score-P is built against), in $BIN.
# timeout: 600
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/flavors.sh"

[ "$(flavor_family "$FLAVOR")" = openmpi ] && ! libmpi40_fits &&
  { echo "SKIP Score-P is built once per family against Debian's Open MPI (libmpi.so.40), which $FLAVOR's library is not"; exit 77; }
client_on_exact_kinds Score-P PAPI_MPIT_SCOREP bin scorep
scorep_bin=$client_dir
family=$(flavor_family "$FLAVOR")
tools_bin=$(dirname "$(dirname "$scorep_bin")")/scorep-tools/bin
mpi_wrappers=$(dirname "$(dirname "$scorep_bin")")/scorep-mpi-$family
echo "Score-P: $scorep_bin (tools $tools_bin)"

test_workdir scorep || exit 1
# instrumented with Debian's MPI compiler of the family (Score-P's own build)
PATH=$mpi_wrappers:$scorep_bin:$PATH scorep --mpp=mpi --thread=pthread --nocompiler \
  mpicc -Wall -Wextra -Werror "$here/ring_app.c" -o ring_app >build.log 2>&1 \
  || { cat build.log; echo "FAIL: scorep does not instrument ring_app"; exit 1; }
libmpi=$(flavor_libmpi) || exit 1

# Score-P was built against Debian's MPI of the family; run it on this
# flavor's library, same ABI, first on the search path
mpidir=$(family_mpi_dirs "$libmpi")
export LD_LIBRARY_PATH=$mpidir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$PAPI_PREFIX/lib
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_QUIET
for v in $(compgen -e); do case $v in SCOREP_*) unset "$v" ;; esac; done
export SCOREP_ENABLE_PROFILING=true SCOREP_ENABLE_TRACING=false SCOREP_VERBOSE=false

BYTES=64 N=10
case $KIND in
  openmpi-spc)  counters="UNEXPECTED_MSGS BYTES_SENT BYTES_RECEIVED"
                declare -A spc_of=([UNEXPECTED_MSGS]=OMPI_SPC_UNEXPECTED [BYTES_SENT]=OMPI_SPC_BYTES_SENT_USER
                                   [BYTES_RECEIVED]=OMPI_SPC_BYTES_RECEIVED_USER)
                declare -A own=([UNEXPECTED_MSGS]=$((N + 1)) [BYTES_SENT]=$((N * BYTES + 4))
                                [BYTES_RECEIVED]=$((N * BYTES + 4)))
                extra="--mca mpi_spc_dump_enabled true" ;;
  mpich-events) counters="UNEXPECTED_MSGS event.unexp_message_enqueued"; extra="" ;;
esac

# metric_list NAMES...: SCOREP_METRIC_PAPI for mpit NAMES (a leading ! kept)
metric_list() {
  local list="" n
  for n in "$@"; do
    case $n in '!'*) list=$list,!mpit:::${n#!} ;; *::*) list=$list,$n ;; *) list=$list,mpit:::$n ;; esac
  done
  echo "${list#,}"
}

# run_scorep DIR NP N METRICS [ARGS...]: ring_app under Score-P, experiment in DIR
run_scorep() {
  local dir=$1 np=$2 m=$3 metrics=$4; shift 4
  rm -rf "$dir"
  echo "run: SCOREP_METRIC_PAPI=$metrics $MPIRUN -np $np ring_app -m $m -b $BYTES $*"
  SCOREP_EXPERIMENT_DIRECTORY=$PWD/$dir SCOREP_METRIC_PAPI=$metrics timeout -k 5 60 \
    $MPIRUN $MPIRUN_OPTS $extra -np "$np" ./ring_app -m "$m" -b "$BYTES" "$@" </dev/null >"$dir.out" 2>"$dir.err"
}

# ran DIR NP RC: the run ended well, every rank finished, and a profile is there
ran() {
  local dir=$1 np=$2 rc=$3 r
  if [ "$rc" -ne 0 ]; then
    fail "$dir: mpirun exited with $rc"; grep -v 'OMPI_SPC_\|MPI_COMM_WORLD Rank' "$dir.err" | head -20; return 1
  fi
  for ((r = 0; r < np; r++)); do
    grep -q "^ring_app rank $r done" "$dir.out" || { fail "$dir: rank $r did not finish"; return 1; }
  done
  [ -s "$dir/profile.cubex" ] || { fail "$dir: no profile.cubex"; ls "$dir"; return 1; }
}

# cube_total DIR METRIC RANK: the metric's inclusive value at the call tree's
# root on the rank's (first) location, from cube_dump's CSV
cube_total() {
  # (Cube's unique names have '_' for '.' and '-')
  "$tools_bin/cube_dump" -m "$(tr .- __ <<<"$2")" -z incl -c 0 -s csv2 "$1/profile.cubex" 2>/dev/null |
    awk -F, -v r="$3" 'NR == 1 { for (i = 1; i <= NF; i++) { gsub(/^ +| +$/, "", $i); col[$i] = i }; next }
      $col["Thread ID"] == r && !seen { print $NF; seen = 1 }'
}

is_int() { case $1 in ''|*[!0-9]*) return 1 ;; esac; }

# spc_value FILE RANK COUNTER: the SPC dump's value (a counter that is absent was 0)
spc_value() {
  awk -v want="$2" -v name="$3" '
    / MPI_COMM_WORLD Rank [0-9]+:$/ { sub(":", "", $NF); rank = $NF; next }
    rank == want && $2 == name && $3 == "->" { v = $4 }
    END { print (v == "" ? 0 : v) }' "$1"
}

check_clock() { # DIR NP
  local r v
  for ((r = 0; r < $2; r++)); do
    v=$(cube_total "$1" perf::TASK-CLOCK $r)
    is_int "$v" && [ "$v" -gt 0 ] && ok "$1 rank $r perf::TASK-CLOCK = $v" \
      || fail "$1 rank $r perf::TASK-CLOCK is '$v' in the profile, expected a positive integer"
  done
}

# ---- totals at 2 and 4 ranks: runs with N and with 0 messages
qmax="!UNEXPECTED_QUEUE_MAX"
for np in 2 4; do
  metrics=$(metric_list $counters "$qmax" perf::TASK-CLOCK)
  # "-m 00": Score-P writes the command line into its definitions, which it
  # sends after its last read: the same length keeps those bytes the same
  run_scorep np$np-m0 $np 00 "$metrics"; ran np$np-m0 $np $? || continue
  run_scorep np$np $np $N "$metrics"; ran np$np $np $? || continue
  for ((r = 0; r < np; r++)); do
    for c in $counters; do
      t0=$(cube_total np$np-m0 mpit:::$c $r) t=$(cube_total np$np mpit:::$c $r)
      if ! is_int "$t0" || ! is_int "$t"; then fail "np$np rank $r $c: profile totals '$t0' (0 messages) and '$t'"; continue; fi
      case $c in
        BYTES_*)
          # exact: ring_app's own bytes (the ready, the burst, the go), and
          # the difference of the runs is the dump's difference (what
          # Score-P sends itself after its last read is the same in both)
          s0=$(spc_value np$np-m0.err $r ${spc_of[$c]}) s=$(spc_value np$np.err $r ${spc_of[$c]})
          if [ "$t" -ne $((N * BYTES + 8)) ] || [ "$t0" -ne 8 ]; then
            fail "np$np rank $r $c: Score-P $t with $N messages, $t0 without; ring_app sends $((N * BYTES + 8)) and 8"
          elif [ $((t - t0)) -ne $((s - s0)) ]; then
            fail "np$np rank $r $c: Score-P $t - $t0, SPC dump $s - $s0: the differences differ"
          else
            ok "np$np rank $r $c: Score-P $t = ring_app's bytes; $t - $t0 = SPC dump $s - $s0"
          fi ;;
        *)
          # ring_app's N + 1 arrive unexpected on every rank; Score-P's own
          # messages (communicator set-up and clock synchronisation in
          # MPI_Init and MPI_Finalize) may too, by timing: at least N + 1,
          # and on Open MPI at most the dump (which also holds what Score-P
          # sends after its last read)
          least=$((N + 1)) most=$t dump=""
          [ "$KIND" = openmpi-spc ] && most=$(spc_value np$np.err $r ${spc_of[$c]}) && dump="; SPC dump $most"
          [ "$t" -ge $least ] && [ "$t" -le "$most" ] && [ "$t0" -ge 1 ] \
            && ok "np$np rank $r $c: Score-P $t with $N messages ($least from ring_app$dump), $t0 without" \
            || fail "np$np rank $r $c: Score-P $t with $N messages, $t0 without: expected $least to $most, and at least 1 without" ;;
      esac
    done
    if [ "$KIND" = mpich-events ]; then
      # the portable metric and the raw event counter count the same MPI event
      a=$(cube_total np$np mpit:::UNEXPECTED_MSGS $r) b=$(cube_total np$np mpit:::event.unexp_message_enqueued $r)
      [ -n "$a" ] && [ "$a" = "$b" ] && ok "np$np rank $r UNEXPECTED_MSGS $a = event.unexp_message_enqueued $b" \
        || fail "np$np rank $r UNEXPECTED_MSGS '$a', event.unexp_message_enqueued '$b': the same MPI event"
    fi
    # the absolute metric: the run's high-water mark at the root
    q=$(cube_total np$np mpit:::UNEXPECTED_QUEUE_MAX $r)
    is_int "$q" && [ "$q" -ge $((N + 1)) ] && ok "np$np rank $r !UNEXPECTED_QUEUE_MAX = $q (N + 1 = $((N + 1)) wait together)" \
      || fail "np$np rank $r !UNEXPECTED_QUEUE_MAX is '$q' in the profile, expected at least $((N + 1))"
  done
  check_clock np$np $np
done

# ---- MATCH_TIME (integer ns), where this MPI offers it
if [ "$KIND" = mpich-events ]; then
  run_scorep mt0 2 0 "$(metric_list MATCH_TIME)"; ran mt0 2 $? &&
  run_scorep mt 2 400 "$(metric_list MATCH_TIME)"; ran mt 2 $? &&
  for ((r = 0; r < 2; r++)); do
    t0=$(cube_total mt0 mpit:::MATCH_TIME $r) t=$(cube_total mt mpit:::MATCH_TIME $r)
    # (times of two runs are not compared: under load the run without the
    # messages took longer matching Score-P's own, 485 us against 115 us)
    is_int "$t0" && is_int "$t" && [ "$t0" -ge 0 ] && [ "$t" -gt 0 ] \
      && ok "rank $r MATCH_TIME: $t ns with 400 messages searched, $t0 without (integers)" \
      || fail "rank $r MATCH_TIME: '$t' ns with 400 messages, '$t0' without: expected integers, positive with the messages"
  done
fi

# ---- a misspelt name ends the run, with the component's reason
run_scorep typo 2 $N "$(metric_list UNEXPECTED_MSG)"
rc=$?
if [ $rc -ne 0 ] && grep -q "papi-mpit: UNEXPECTED_MSG: .*did you mean UNEXPECTED_MSGS" typo.err; then
  ok "misspelt UNEXPECTED_MSG: the run ends (exit $rc) with '$(grep -m1 'papi-mpit: UNEXPECTED_MSG' typo.err)'"
else
  fail "misspelt UNEXPECTED_MSG: exit $rc, stderr:"; head -10 typo.err
fi

# ---- a thread started after MPI_Finalize: a location of its own, no error
run_scorep late 2 $N "$(metric_list $counters)" -t
if ran late 2 $?; then
  [ "$(grep -c '^ring_app rank [0-9]* thread done' late.out)" = 2 ] \
    && ok "a thread started after MPI_Finalize: the run ends well" || fail "late: the threads did not finish"
fi

# ---- every listed event, in groups of 18 (Score-P takes 20 at most)
$MPICC -I"$PAPI_PREFIX/include" "$here/list_events.c" -L"$PAPI_PREFIX/lib" -lpapi -o list_events \
  || { fail "list_events does not build"; exit 1; }
# (once each: MPICH's timer/counter twins list ":class=counter" under both names)
# (whole names only: under load Open MPI 5's launcher has been seen to move a
# few bytes of a line of stdout elsewhere, leaving "t:::..." and "PI_SPC_...")
env -u LD_PRELOAD $MPIRUN $MPIRUN_OPTS -np 1 ./list_events </dev/null 2>listed.err | awk '!seen[$0]++' \
  | grep -E '^mpit:::[A-Za-z0-9_.]+(:[a-z]+=[A-Za-z0-9_]+)*$' >listed.txt
[ -s listed.txt ] || { fail "list_events listed nothing"; cat listed.err; }
total=$(wc -l <listed.txt)
[ "$total" -gt 0 ] || fail "no mpit event listed after MPI_Init"
group=0 bad=0
while read -r -a names; do
  group=$((group + 1))
  list=$(IFS=,; echo "${names[*]}")
  run_scorep listed$group 2 1 "$list"
  rc=$?
  [ $rc -eq 0 ] || { bad=$((bad + 1)); fail "listed events, group $group ended the run (exit $rc): $list"; grep -m3 'papi-mpit\|Score-P\|PAPI' listed$group.err; }
done < <(xargs -n 18 <listed.txt)
[ $bad -eq 0 ] && [ "$total" -gt 0 ] && ok "all $total listed events, in $group runs of up to 18: no run ended"

[ $fails -eq 0 ] || exit 1
echo "PASS scorep"
