#!/usr/bin/env bash
# papi-mpit-report on a job one of whose ranks the kernel's OOM killer
# ends (issue 49): report_death.c as in t_report_death_segv.sh, but the
# last rank, once the others are in their calls, moves itself into a
# cgroup v2 of its own whose memory.max is 64 MiB and touches memory until
# the OOM killer sends it SIGKILL (no handler runs, no snapshot); the
# launcher then ends the rest.  Checked as t_report_death_segv.sh does,
# and that the cgroup's memory.events counted the OOM kill.  Skipped when
# /sys/fs/cgroup is not a cgroup v2 hierarchy with the memory controller
# that this test can make a cgroup in and move a process into (it runs as
# root).  MPIT_DEATH_RUNS runs (2).
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a rank's mapped file however it ends; the launchers differ only in how they end the rest)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
. "$here/common/death.sh"

cgroot=/sys/fs/cgroup
skip() { echo "SKIP $*"; exit 77; }
[ "$(stat -fc %T $cgroot 2>/dev/null)" = cgroup2fs ] \
  || skip "$cgroot is not a cgroup v2 hierarchy ($(stat -fc %T $cgroot 2>/dev/null)): no memory.max to end one rank with"
grep -qw memory $cgroot/cgroup.controllers 2>/dev/null || skip "cgroup v2 at $cgroot has no memory controller"
grep -qw memory $cgroot/cgroup.subtree_control 2>/dev/null || echo +memory >$cgroot/cgroup.subtree_control 2>/dev/null \
  || skip "cannot enable the memory controller for the cgroups below $cgroot"
cg=$cgroot/papi-mpit-oom.$$
mkdir "$cg" 2>/dev/null || skip "cannot make a cgroup in $cgroot"
trap 'rmdir "$cg" 2>/dev/null' EXIT
echo $((64 << 20)) >"$cg/memory.max" || skip "cannot set $cg/memory.max"
[ -e "$cg/memory.swap.max" ] && echo 0 >"$cg/memory.swap.max"
sh -c "echo \$\$ >'$cg/cgroup.procs'" 2>/dev/null || skip "cannot move a process into $cg"

test_workdir report-death-oom || exit 1
death_build || exit 1
runs=${MPIT_DEATH_RUNS:-2}
set -m # the job in a process group of its own
for i in $(seq "$runs"); do
  d=$PWD/oom.$i
  kills0=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
  death_run "$d" oom "$cg" || continue
  kills=$(awk '$1 == "oom_kill" { print $2 }' "$cg/memory.events")
  [ "$kills" -gt "$kills0" ] || fail "run $i: no OOM kill in $cg (memory.events: oom_kill $kills0 -> $kills)"
  [ -e "$d/state.3.map" ] || fail "run $i: the OOM-killed rank left no state file"
  [ -e "$d/snapshot.3.txt" ] && fail "run $i: the OOM-killed rank wrote a snapshot: the check would not be the mapping's"
  death_merge "$d" oom
  echo "run $i: launcher status $rc, OOM kills in the cgroup $kills0 -> $kills, $(ls "$d" | grep -c '^snapshot\.') snapshot files"
done
[ $fails = 0 ] && ok "$runs runs with rank 3 ended by the OOM killer: every rank's call at its death and its completed calls per site, exactly"
[ $fails = 0 ]
