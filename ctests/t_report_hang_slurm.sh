#!/usr/bin/env bash
# papi-mpit-report on a job that deadlocks until Slurm's time limit (issue
# 37): report_hang.c's two-rank deadlock (each rank receives from the other
# first) under `srun --mpi=pmix -n 2 -t 1` on the test's own Slurm
# (common/slurm.sh: Debian's slurm-wlm, started and stopped by the test;
# it skips, saying why, where Slurm cannot start).  One minute is Slurm's
# smallest time limit; slurm.conf's KillWait=5 keeps the time from Slurm's
# SIGTERM to its SIGKILL short (30 s by default).  The job ends on Slurm's
# time limit alone: no watchdog, no periodic snapshot, no signal from the
# test.  Measured (slurm-wlm 22.05.8): at the limit slurmd sends each task
# SIGTERM twice and SIGCONT within 5 ms, then SIGKILL KillWait seconds
# later; each rank writes its state on the first SIGTERM in well under a
# millisecond and then ends by that signal, long before the SIGKILL.
# Checked, as t_report_hang checks the deadlock (common/hang.sh):
# - Slurm ended the job at its time limit (srun's "CANCELLED ... DUE TO
#   TIME LIMIT"), the tasks ended by SIGTERM ("Terminated"), not by the
#   SIGKILL ("Killed"), and srun itself ended (no hang);
# - every rank left its state, taken on signal 15; the calls, peers, tags
#   and communicator in the files are the program's;
# - `--merge` names the cycle first, with the program's line, in
#   report.txt, report.html and report.json.
# Said on the ok line: the time from Slurm's SIGTERM (slurmd's log) to each
# rank's state, the time writing it took, and how long the job ran.
# flavors: openmpi
# timeout: 300
# nice: 10
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/slurm.sh"
. "$here/common/hang.sh"
report_tool || exit 1
test_workdir report_hang_slurm || exit 1
lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$FAMILY.so
[ -f "$lib" ] || { echo "SKIP no $FAMILY interposer in this build ($lib)"; exit 77; }
slurm_check
$MPICC -g -O0 -Wall -Wextra -Werror "$here/report_hang.c" -o report_hang || { echo "FAIL: cannot build report_hang"; exit 1; }
slurm_start KillWait=5

d=$PWD/deadlock.slurm
mkdir -p "$d"
t0=$(date +%s.%N)
# the limit is checked by slurmctld every 30 s or so: the job ends 60 to
# 90 s after it started, well inside timeout's 200 s
timeout 200 srun -n 2 -O --mpi=pmix -t 1 -J deadlock "$wrap" -q -o "$d" ./report_hang deadlock \
  </dev/null >"$d.out" 2>"$d.err"
rc=$?
t1=$(date +%s.%N)
echo "--- srun's stderr (status $rc)"; cat "$d.err"
if [ $rc = 124 ]; then
  fail "the job did not end on Slurm's time limit within 200 s"
  slurm_logs
fi
grep -q "CANCELLED AT .* DUE TO TIME LIMIT" "$d.err" || fail "srun does not say that Slurm cancelled the step at its time limit"
# srun: "tasks 0-1: Terminated" (or a line per task)
if grep -q ': Killed$' "$d.err" || ! grep -q "^srun: error: .*: tasks\? [0-9,-]*: Terminated$" "$d.err"; then
  fail "the tasks did not end by Slurm's SIGTERM (the tool passes it on once the state is written), or KillWait's SIGKILL came first"
fi
[ "$(nsnap "$d" signal)" = 2 ] || fail "$(nsnap "$d" signal) of 2 ranks wrote their state on a signal"
for r in 0 1; do
  [ "$(field "$d/snapshot.$r.txt" R 5 2>/dev/null)" = 15 ] || fail "rank $r's state was not taken on SIGTERM: $(head -1 "$d/snapshot.$r.txt" 2>/dev/null)"
done
check_calls "$d" deadlock 2
check_merge "$d" deadlock 2

# the times: Slurm's SIGTERM (slurmd's log line of the cancel, in ms),
# each rank's state (its R line), what writing took (its D line)
cancel=$(sed -n 's/^\[\([0-9T:.-]*\)\] .*CANCELLED AT .* DUE TO TIME LIMIT.*$/\1/p' slurm/log/slurmd.log | head -1)
times=$(python3 - "$cancel" "$t0" "$t1" "$d"/snapshot.[01].txt <<'PY'
import datetime, sys
cancel, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
c = datetime.datetime.strptime(cancel, "%Y-%m-%dT%H:%M:%S.%f").timestamp() if cancel else None
out = []
for r, p in enumerate(sys.argv[4:]):
    rows = [l.rstrip("\n").split("\t") for l in open(p)]
    taken = float(next(x for x in rows if x[0] == "R")[5])
    wrote = float(next(x for x in rows if x[0] == "D")[1])
    out.append("rank %d's %s, written in %.2f ms" % (r, "%+.0f ms" % ((taken - c) * 1e3) if c else "?", wrote * 1e3))
print("state after Slurm's SIGTERM: %s; Slurm cancelled the job %.1f s after srun started, srun ended %.1f s after it started"
      % ("; ".join(out), (c - t0) if c else float("nan"), t1 - t0))
PY
)
[ -n "$cancel" ] || fail "no cancel at the time limit in slurmd's log"
[ $fails = 0 ] && ok "deadlock under srun -t 1: Slurm's time limit ended it (srun status $rc, tasks Terminated), both states taken on SIGTERM; $times"

[ $fails = 0 ]
