#!/usr/bin/env bash
# papi-mpit-report on a job SIGKILLed whole, with no signal first (issue
# 49: the OOM killer, Slurm's KillWait, prterun's immediate SIGKILL):
# report_hang.c's ring deadlock at 4 ranks, no periodic snapshot and no
# watchdog, so the only state left is each rank's mapped state file
# (DIR/state.RANK.map).  Each run: --merge is polled on the live job until
# every rank's file shows it in its receive (the cycle of 4; no sleep as
# synchronisation), then every process of the job (the launcher's process
# group and every process below it) gets SIGKILL at once.  Checked: no
# snapshot was written, every state file is there, and --merge, from the
# files alone, opens with the cycle (every rank, MPI_Recv from the rank
# before, tag 20, at the program's line) on 1 host with no rank missing,
# and says the states are the mapped files'.  MPIT_HANG_RUNS runs (2).
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a killed rank's mapped file whatever the launcher: the test kills every process itself)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/hang.sh"
report_tool || exit 1
test_workdir report-hang-kill || exit 1
$MPICC -g -O0 -Wall -Wextra -Werror "$here/report_hang.c" -o report_hang || { echo "FAIL: cannot build report_hang"; exit 1; }
np=4 runs=${MPIT_HANG_RUNS:-2}

# descendants PID: every process below PID (ranks a launcher put in a process group of their own too)
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
# cycle_seen DIR: --merge of the live job names the cycle of every rank
cycle_seen() {
  "$wrap" --merge "$1" >/dev/null 2>&1 && sed -n 2p "$1/report.txt" | grep -q "a cycle of $np ranks"
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
    fail "run $i: --merge never saw the cycle of $np ranks in the state files in 30 s: $(sed -n 2p "$d/report.txt" 2>/dev/null)"
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
[ $fails = 0 ] && ok "$runs runs SIGKILLed whole: every rank's state from its mapped file, the cycle of $np ranks in MPI_Recv named by --merge"
[ $fails = 0 ]
