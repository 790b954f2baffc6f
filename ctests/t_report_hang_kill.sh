#!/usr/bin/env bash
# papi-mpit-report on a job SIGKILLed whole, with no signal first (issue
# 49: the OOM killer, Slurm's KillWait, prterun's immediate SIGKILL):
# report_hang.c's ring deadlock at 4 ranks, no periodic snapshot and no
# watchdog, so the only state left is each rank's mapped state file
# (DIR/state.RANK.map).  Each run: --merge is polled on the live job until
# every rank's file shows it in its receive for 0.5 s (the cycle of 4,
# settled: a deadlock; no sleep as synchronisation), then every process of
# the job (the launcher's process group and every process below it) gets
# SIGKILL at once.  Checked: no
# snapshot was written, every state file is there, and --merge, from the
# files alone, opens with the cycle (every rank, MPI_Recv from the rank
# before, tag 20, at the program's line) on 1 host with no rank missing,
# and says the states are the mapped files'.  Then report_death.c's block
# (common/death.sh), SIGKILLed whole the same way once every rank is in its
# call: every rank's call with its split communicator named, and the calls
# each completed per site, the collectives and the sends, exactly, from the
# files alone.  MPIT_HANG_RUNS runs (2) of each; MPIT_DEATH_RUNS, when
# set, of report_death.c's.  Last, report_death.c's flood (more call sites
# than a rank's table holds, then a ring of receives), SIGKILLed whole: the
# calls not recorded, exactly FLOOD_OVER a rank, in report.json, report.txt
# and report.html from the files alone.
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a killed rank's mapped file whatever the launcher: the test kills every process itself)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/hang.sh"
report_tool || exit 1
. "$here/common/death.sh"
test_workdir report-hang-kill || exit 1
$MPICC -g -O0 -Wall -Wextra -Werror "$here/report_hang.c" -o report_hang || { echo "FAIL: cannot build report_hang"; exit 1; }
np=4 runs=${MPIT_HANG_RUNS:-2}

# cycle_seen DIR: --merge of the live job names the cycle of every rank as
# a deadlock (each wait 0.5 s old, as of the rank's last stamp: at most a
# second after it is)
cycle_seen() {
  "$wrap" --merge "$1" >/dev/null 2>&1 && sed -n 2p "$1/report.txt" | grep -q "^  Deadlock: .*a cycle of $np ranks"
}

set -m # each job in a process group of its own: the group is the job
for i in $(seq "$runs"); do
  d=$PWD/ring.$i
  mkdir -p "$d"
  t0=$(date +%s.%N)
  timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --snapshot-period 0 ./report_hang ring \
    </dev/null >"$d.out" 2>"$d.err" &
  pgid=$!
  seen=
  end=$((SECONDS + 30)) # (bounded: the ring blocks within a few seconds)
  while [ $SECONDS -lt $end ]; do cycle_seen "$d" && { seen=1; break; }; sleep 0.2; done
  procs=$(descendants $pgid)
  kill -KILL -- -$pgid $procs 2>/dev/null
  { wait $pgid; } 2>/dev/null # (no "Killed" notice from the shell)
  rc=$?
  t1=$(date +%s.%N)
  if [ -z "$seen" ]; then
    fail "run $i: --merge never saw the deadlock of $np ranks in the state files in 30 s: $(sed -n 2p "$d/report.txt" 2>/dev/null)"
    cat "$d.err"
    continue
  fi
  left=$(ls "$d"/snapshot.*.txt 2>/dev/null | wc -l)
  [ "$left" = 0 ] || fail "run $i: $left snapshot files (none was asked for): the check would not be the mapping's"
  nmap=$(ls "$d"/state.*.map 2>/dev/null | wc -l)
  [ "$nmap" = $np ] || fail "run $i: $nmap of $np state files after SIGKILL"
  rm -f "$d"/report.*
  check_merge "$d" ring $np
  grep -q "from the mapped state file" "$d/report.txt" || fail "run $i: report.txt does not say the states are the mapped files'"
  [ "$(sed -n '/^Where each rank was/,/^$/p' "$d/report.txt" | grep -c '^  ')" = 1 ] \
    || fail "run $i: 'Where each rank was' has more than the ring's one line: $(sed -n '/^Where each rank was/,/^$/p' "$d/report.txt")"
  echo "run $i: status $rc, $nmap state files, killed $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s after launch"
done
death_build || exit 1
block_runs=${MPIT_DEATH_RUNS:-$runs}
for i in $(seq "$block_runs"); do
  d=$PWD/block.$i
  mkdir -p "$d"
  timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o "$d" --snapshot-period 0 ./report_death block \
    </dev/null >"$d.out" 2>"$d.err" &
  pgid=$!
  seen=
  end=$((SECONDS + 60))
  while [ $SECONDS -lt $end ]; do
    "$wrap" --merge "$d" >/dev/null 2>&1 && death_check "$d" block >/dev/null && { seen=1; break; }
    sleep 0.2
  done
  kill -KILL -- -$pgid $(descendants $pgid) 2>/dev/null
  { wait $pgid; } 2>/dev/null
  [ -n "$seen" ] || { fail "block run $i: --merge never saw every rank in its call in 60 s"; death_check "$d" block; continue; }
  [ "$(ls "$d"/snapshot.*.txt 2>/dev/null | wc -l)" = 0 ] || fail "block run $i: snapshot files (none was asked for)"
  death_merge "$d" block
  echo "block run $i: the exact counts from the $(ls "$d"/state.*.map | wc -l) state files after SIGKILL"
done
# report_death.c's flood: more sites than the table holds, then a ring of
# receives; the calls not recorded are counted in the mapped files too
over=$(sed -n 's/^#define FLOOD_OVER *\([0-9]*\)$/\1/p' "$here/report_death.c")
d=$PWD/flood
mkdir -p "$d"
timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --snapshot-period 0 ./report_death flood \
  </dev/null >"$d.out" 2>"$d.err" &
pgid=$!
seen=
end=$((SECONDS + 60))
while [ $SECONDS -lt $end ]; do cycle_seen "$d" && { seen=1; break; }; sleep 0.2; done
kill -KILL -- -$pgid $(descendants $pgid) 2>/dev/null
{ wait $pgid; } 2>/dev/null
if [ -z "$seen" ]; then
  fail "flood: --merge never saw the cycle of $np ranks in 60 s: $(sed -n 2p "$d/report.txt" 2>/dev/null)"
  cat "$d.err"
else
  rm -f "$d"/report.*
  "$wrap" --merge "$d" >"$d.merge.out" 2>"$d.merge.err" || fail "flood: --merge failed: $(cat "$d.merge.err")"
  want=$((np * over))
  python3 - "$d/report.json" "$want" <<'PY' || fails=$((fails + 1))
import json, sys
got = json.load(open(sys.argv[1]))["call_sites"]["not_recorded"]
want = {"calls": int(sys.argv[2]), "collectives": 0, "requests": 0}
if got != want:
    print("FAIL: flood: report.json's not_recorded is %s, not %s" % (got, want))
    sys.exit(1)
PY
  grep -q "^  not recorded: $want calls beyond the sites kept, 0 collectives beyond the cells kept, 0 requests beyond the tracked$" "$d/report.txt" \
    || fail "flood: report.txt does not say the $want calls not recorded: $(grep 'not recorded' "$d/report.txt")"
  grep -q "Not recorded: $want calls beyond the sites kept, 0 collectives beyond the cells kept, 0 requests beyond the tracked" "$d/report.html" \
    || fail "flood: report.html does not say the $want calls not recorded"
  echo "flood: $want calls not recorded ($over a rank), from the $(ls "$d"/state.*.map | wc -l) state files after SIGKILL"
fi
[ $fails = 0 ] && ok "$runs runs SIGKILLed whole: every rank's state from its mapped file, the cycle of $np ranks in MPI_Recv named by --merge; $block_runs of report_death.c's block with every rank's completed calls per site exact; the calls beyond the site table counted from the files"
[ $fails = 0 ]
