#!/usr/bin/env bash
# papi-mpit-report on runs that never reach MPI_Finalize (issue 37), with
# report_hang.c:
# - a two-rank deadlock (each receives from the other first), a tag
#   mismatch (rank 0 sends tag 7 three times and enters a barrier, rank 1
#   waits for tag 8) and a collective one rank never enters (an allreduce
#   on a duplicate of MPI_COMM_WORLD; the last rank waits for rank 0): each
#   under `timeout -s TERM` (the TERM sent to timeout once every rank's
#   watchdog snapshot is there: no sleep); the deadlock also under the
#   launcher's own timeout (Open MPI's mpirun --timeout, Hydra's
#   MPIEXEC_TIMEOUT).  Every
#   rank leaves its state; the calls, peers, tags and sites (line numbers
#   of the program, found by grep) in the files are the program's; `--merge`
#   names the deadlock's cycle, the mismatch (3 messages sent, not received)
#   and the rank that never entered the collective, first in report.txt and
#   report.html; report.json has them; the job ends (no hang).
# - SIGKILL after a periodic snapshot: the last snapshot survives, with the
#   5 messages of 8 B rank 0 sent and rank 1 received.
# - SIGUSR1 twice in a running job: two snapshots (the second's sequence
#   number is 2), the program's own SIGUSR1 handler (installed after
#   MPI_Init, through signal()) ran twice and got the one it had installed
#   before MPI_Init back, the job ends normally with the program's status
#   (3, as without the tool), and no snapshot is left behind.
# scope: launcher (how the launcher ends a hung job: its timeout, its signals; MPICH's releases share Hydra)
# nice: 10
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/hang.sh"
report_tool || exit 1
test_workdir report-hang || exit 1
$MPICC -g -O0 -Wall -Wextra -Werror "$here/report_hang.c" -o report_hang || { echo "FAIL: cannot build report_hang"; exit 1; }
launch() { if [ "$FAMILY" = mpich ]; then hydra_quiet_stdin "$@"; else "$@"; fi; }

np_of() { case $1 in collective) echo 3 ;; *) echo 2 ;; esac; }
for mode in deadlock mismatch collective; do
  np=$(np_of $mode)
  # ---- timeout -s TERM
  d=$PWD/$mode.term
  mkdir -p "$d"
  # (in the background: $! must be timeout's; these jobs do not end during
  # the launcher's start-up, so Hydra's stdin at its end is harmless)
  # --foreground: the TERM goes to the launcher alone, once (the TERM to
  # the whole process group, and Open MPI 4.1's mpirun taking a second
  # one as "kill now", are t_report_hang_term's).  --watchdog 600: its
  # states are taken once each wait is past the 0.5 s after which --merge
  # calls a cycle of them a deadlock
  timeout --foreground -s TERM 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --watchdog 600 ./report_hang $mode \
    </dev/null >"$d.out" 2>"$d.err" &
  tpid=$!
  if await "$d" $np watchdog; then
    kill -TERM $tpid
    wait $tpid
    rc=$?
    [ $rc = 124 ] && fail "$mode: the job did not end on SIGTERM"
    nsig=$(nsnap "$d" signal)
    # one SIGTERM to the launcher: every launcher passes it on to the
    # ranks (Open MPI 4.1's mpirun, PRRTE 5.0's after a SIGCONT, Hydra),
    # and every rank writes its state (a rank passes SIGTERM on only once
    # the node's other ranks have written).  Open MPI 6.0.0~rc2's prterun
    # (sid) SIGKILLs the ranks instead: none sees a signal, the watchdog's
    # states stay.  On a loaded machine Open MPI 5.0.7's PRRTE may also
    # SIGKILL the ranks before all have written: some states are then the
    # watchdog's; each rank's current call is in its mapped state file,
    # which --merge reads (check_merge).  On MPICH all or none.
    case $nsig:$FAMILY in
      $np:*) ;;
      0:*) [ "$(flavor_release "$FLAVOR")" = openmpi-6.0 ] || fail "$mode: no rank wrote its state on SIGTERM" ;;
      *:openmpi) echo "note: $mode: $nsig of $np ranks wrote on SIGTERM before the launcher's SIGKILL" ;;
      *) fail "$mode: $nsig of $np ranks wrote their state on SIGTERM" ;;
    esac
    check_calls "$d" $mode $np
    check_merge "$d" $mode $np
    ok "$mode under timeout -s TERM: status $rc, $nsig of $np states taken on SIGTERM, the rest by the watchdog"
  else
    kill -TERM $tpid; wait $tpid
    fail "$mode: the watchdog wrote $(nsnap "$d" watchdog) of $np states"; cat "$d.err"
  fi
  # ---- the launcher's own timeout: once (the deadlock), since how the
  # launcher ends the job does not depend on why it hangs, and each run
  # waits out the timeout with every rank polling
  [ $mode = deadlock ] || continue
  d=$PWD/$mode.launcher
  mkdir -p "$d"
  if [ "$FAMILY" = mpich ]; then
    MPIEXEC_TIMEOUT=10 launch timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --watchdog 600 ./report_hang $mode >"$d.out" 2>"$d.err"
  else
    launch timeout 120 $MPIRUN $MPIRUN_OPTS --timeout 10 -np $np "$wrap" -q -o "$d" --watchdog 600 ./report_hang $mode >"$d.out" 2>"$d.err"
  fi
  rc=$?
  if [ $rc = 124 ]; then
    fail "$mode: the launcher's timeout did not end the job"
  elif [ "$(ls "$d"/snapshot.*.txt 2>/dev/null | wc -l)" != $np ]; then
    fail "$mode under the launcher's timeout: $(ls "$d"/snapshot.*.txt 2>/dev/null | wc -l) of $np states"
  else
    check_calls "$d" $mode $np
    check_merge "$d" $mode $np
    # (Hydra's MPIEXEC_TIMEOUT sends SIGKILL: the watchdog's states stay)
    ok "$mode under the launcher's timeout: status $rc, $(nsnap "$d" signal) of $np states taken on its signal"
  fi
done

# ---- SIGKILL after a periodic snapshot
d=$PWD/periodic
mkdir -p "$d"
timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$wrap" -q -o "$d" --snapshot-period 100 ./report_hang periodic </dev/null >"$d.out" 2>"$d.err" &
tpid=$!
sent_ok() { [ "$(field "$d/snapshot.0.txt" T 2 2>/dev/null)" = "1:5:40" ]; }
got_ok() { awk -F'\t' '$1 == "C" && $6 ~ /(^|,)0:5:40(,|$)/ { f = 1 } END { exit !f }' "$d/snapshot.1.txt" 2>/dev/null; }
for i in $(seq 600); do
  [ "$(nsnap "$d" periodic)" = 2 ] && sent_ok && got_ok && [ "$(field "$d/snapshot.1.txt" A 3)" = MPI_Recv ] && break
  sleep 0.1
done
if sent_ok && got_ok; then
  pids="$(field "$d/snapshot.0.txt" R 9) $(field "$d/snapshot.1.txt" R 9)"
  kill -KILL $pids
  wait $tpid
  rc=$?
  [ "$(nsnap "$d" periodic)" = 2 ] && sent_ok && got_ok || fail "periodic: the snapshots did not survive SIGKILL"
  [ "$(field "$d/snapshot.1.txt" A 3):$(field "$d/snapshot.1.txt" A 10):$(field "$d/snapshot.1.txt" A 9)" = "MPI_Recv:1:4" ] \
    || fail "periodic: rank 1's call in progress is not MPI_Recv from any source, tag 4"
  # (rank 0 is in the same call: one line says both; rank 1 alone when rank
  # 0's last state came between its sends and that receive)
  "$wrap" --merge "$d" >/dev/null 2>&1 && grep -q "^  \(2 ranks (0-1) wait\|Rank 1 waits\) in MPI_Recv from any rank, tag 4, at report_hang.c:$(line wait), for " "$d/report.txt" \
    || fail "periodic: --merge does not say where rank 1 waits"
  ok "periodic snapshots survive SIGKILL (status $rc): rank 0 sent 5 messages of 8 B to rank 1, rank 1 received them"
else
  kill -TERM $tpid; wait $tpid
  fail "periodic: no periodic snapshot with rank 0's 5 messages to rank 1"; cat "$d.err"
fi

# ---- SIGUSR1 twice in a running job
d=$PWD/usr1
mkdir -p "$d"
launch timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 ./report_hang usr1 - - >usr1.base.out 2>usr1.base.err
base=$?
# (no periodic state: the sequence number counts these two alone)
launch timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$wrap" -q -o "$d" --snapshot-period 0 ./report_hang usr1 "$d" "$PWD/usr1.kept" >usr1.out 2>usr1.err
rc=$?
[ $rc = "$base" ] && [ $rc = 3 ] || fail "usr1: status $rc with the tool, $base without (the program's: 3)"
# the handler signal() returns: the one the program installed before
# MPI_Init, or the MPI's own where MPI_Init replaced it (MPICH's SIGUSR1
# handler): as without the tool
was=$(sed -n 's/^.*signal() returned the one before: //p' usr1.base.out)
grep -q "^handler before MPI_Init: 0, after: 2, signal() returned the one before: $was\$" usr1.out \
  || fail "usr1: the program's own handlers: $(cat usr1.out) (without the tool: $(cat usr1.base.out))"
[ "$(field usr1.kept R 4):$(field usr1.kept R 7)" = "on-demand:2" ] || fail "usr1: the second snapshot is not the 2nd on demand: $(head -1 usr1.kept)"
ls "$d"/snapshot.*.txt >/dev/null 2>&1 && fail "usr1: a run that reached MPI_Finalize left snapshots: $(ls "$d")"
[ -s "$d/report.json" ] || fail "usr1: no report"
ok "SIGUSR1 twice: 2 snapshots, the program's handler ran twice, status $rc as without the tool, none left after MPI_Finalize"

[ $fails = 0 ]
