#!/usr/bin/env bash
# papi-mpit-report on a job one of whose ranks the kernel's OOM killer
# ends (issue 49): report_death.c as in t_report_death_segv.sh, but the
# last rank, once the others are in their calls, moves itself into a
# memory cgroup of its own limited to 64 MiB (cgroup v2's memory.max, or
# cgroup v1's memory.limit_in_bytes on a hybrid host) and touches memory
# until the OOM killer sends it SIGKILL (no handler runs, no snapshot);
# the launcher then ends the rest.  Checked as t_report_death_segv.sh
# does, and that the cgroup counted the OOM kill.  Skipped when neither
# hierarchy has a memory controller this test can make a cgroup in and
# move a process into (it runs as root).  MPIT_DEATH_RUNS runs (2).
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a rank's mapped file however it ends; the launchers differ only in how they end the rest)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
. "$here/common/death.sh"

skip() { echo "SKIP $*"; exit 77; }
# the rank's own memory cgroup: cgroup v2's memory.max where /sys/fs/cgroup
# is v2 with the memory controller; else cgroup v1's memory controller
# (hybrid hosts: /sys/fs/cgroup/memory, memory.limit_in_bytes); the same
# OOM killer either way.  oom_kills: the kills the cgroup counted
# (memory.events in v2, memory.oom_control in v1).
cgroot=/sys/fs/cgroup
if [ "$(stat -fc %T $cgroot 2>/dev/null)" = cgroup2fs ]; then
  grep -qw memory $cgroot/cgroup.controllers 2>/dev/null || skip "cgroup v2 at $cgroot has no memory controller"
  grep -qw memory $cgroot/cgroup.subtree_control 2>/dev/null || echo +memory >$cgroot/cgroup.subtree_control 2>/dev/null \
    || skip "cannot enable the memory controller for the cgroups below $cgroot"
  cg=$cgroot/papi-mpit-oom.$$ limit=memory.max swap=memory.swap.max events=memory.events
elif [ "$(stat -fc %T $cgroot/memory 2>/dev/null)" = cgroupfs ] && [ -e $cgroot/memory/memory.oom_control ]; then
  cg=$cgroot/memory/papi-mpit-oom.$$ limit=memory.limit_in_bytes swap=memory.memsw.limit_in_bytes events=memory.oom_control
else
  skip "neither a cgroup v2 hierarchy at $cgroot nor cgroup v1's memory controller at $cgroot/memory: no memory limit to end one rank with"
fi
mkdir "$cg" 2>/dev/null || skip "cannot make a cgroup in $(dirname "$cg")"
trap 'rmdir "$cg" 2>/dev/null' EXIT
echo $((64 << 20)) >"$cg/$limit" || skip "cannot set $cg/$limit"
# no swap beside it (v1: the memory+swap limit, at most the memory limit)
[ -e "$cg/$swap" ] && { [ $swap = memory.swap.max ] && echo 0 >"$cg/$swap" || echo $((64 << 20)) >"$cg/$swap"; }
sh -c "echo \$\$ >'$cg/cgroup.procs'" 2>/dev/null || skip "cannot move a process into $cg"
oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$cg/$events"; }

test_workdir report-death-oom || exit 1
death_build || exit 1
runs=${MPIT_DEATH_RUNS:-2}
set -m # the job in a process group of its own
for i in $(seq "$runs"); do
  d=$PWD/oom.$i
  kills0=$(oom_kills)
  death_run "$d" oom "$cg" || continue
  kills=$(oom_kills)
  [ "$kills" -gt "$kills0" ] || fail "run $i: no OOM kill in $cg ($events: oom_kill $kills0 -> $kills)"
  [ -e "$d/state.3.map" ] || fail "run $i: the OOM-killed rank left no state file"
  [ -e "$d/snapshot.3.txt" ] && fail "run $i: the OOM-killed rank wrote a snapshot: the check would not be the mapping's"
  death_merge "$d" oom
  echo "run $i: launcher status $rc, OOM kills in the cgroup $kills0 -> $kills, $(ls "$d" | grep -c '^snapshot\.') snapshot files"
done
[ $fails = 0 ] && ok "$runs runs with rank 3 ended by the OOM killer: every rank's call at its death and its completed calls per site, exactly"
[ $fails = 0 ]
