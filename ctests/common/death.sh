# Helpers of the tests of papi-mpit-report's mapped state files on
# report_death.c (t_report_death_segv.sh, t_report_death_oom.sh,
# t_report_hang_kill.sh); sourced after test_lib.sh and report_tool.

# death_build: report_death in the work directory
death_build() {
  $MPICC -g -O0 -Wall -Wextra -Werror "$here/report_death.c" -o report_death \
    || { echo "FAIL: cannot build report_death"; return 1; }
}
# descendants PID: every process below PID (ranks a launcher put in a process group of their own too)
descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
# death_check DIR MODE [progress]: death_check.py on --merge's report of DIR
death_check() {
  python3 "$here/common/death_check.py" "$1" "$2" "$here/report_death.c" ${3:-}
}
# death_blocked DIR: --merge of the live job shows every rank but the
# victim in its blocking call
death_blocked() {
  "$wrap" --merge "$1" >/dev/null 2>&1 && death_check "$1" block progress
}
# death_await DIR: until death_blocked (bounded: 60 s; the calls come within seconds)
death_await() {
  local end=$((SECONDS + 60))
  while [ $SECONDS -lt $end ]; do death_blocked "$1" && return 0; sleep 0.2; done
  return 1
}
# death_merge DIR MODE: --merge from what DIR holds, then the exact check
death_merge() {
  rm -f "$1"/report.*
  "$wrap" --merge "$1" >"$1.merge.out" 2>"$1.merge.err" || { fail "$2: --merge failed: $(cat "$1.merge.err")"; return; }
  death_check "$1" "$2" || fails=$((fails + 1))
  grep -q "^How fresh each rank's state is" "$1/report.txt" || fail "$2: report.txt does not say how fresh each rank's state is"
  grep -q '<h3 id="fresh">How fresh each rank' "$1/report.html" || fail "$2: report.html does not say how fresh each rank's state is"
}
# death_run DIR MODE [ARG...]: report_death MODE under the tool at 4 ranks
# into DIR, the job in a process group of its own (the caller's set -m);
# once every rank but the victim blocks, the victim is let go (DIR/go);
# then whatever the launcher left is killed.  rc: the launcher's status.
# 1 when the ranks never blocked (said as a failure).
death_run() {
  local d=$1 mode=$2 pgid
  shift 2
  rm -rf "$d" && mkdir -p "$d"
  timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o "$d" --snapshot-period 0 ./report_death "$mode" "$d/go" "$@" \
    </dev/null >"$d.out" 2>"$d.err" &
  pgid=$!
  if ! death_await "$d"; then
    fail "$d: the ranks never all reached their blocking calls in 60 s"
    kill -KILL -- -$pgid $(descendants $pgid) 2>/dev/null
    wait $pgid 2>/dev/null
    cat "$d.err"
    return 1
  fi
  : >"$d/go"
  wait $pgid 2>/dev/null
  rc=$?
  [ $rc = 124 ] && fail "$d: the launcher did not end the job within 120 s of rank 3's death"
  kill -KILL -- -$pgid $(descendants $pgid) 2>/dev/null # (a launcher that left ranks behind)
  return 0
}
