#!/usr/bin/env bash
# papi-mpit-report on a job one of whose ranks segfaults (issue 49): in
# report_death.c, after known calls per site, ranks 0 and 2 deadlock on
# their split communicator, rank 1 waits in a barrier on its own for the
# last rank, which writes through a NULL pointer once the test sees (in
# --merge of the live job, polled: no sleep as synchronisation) the others
# in their calls; the launcher then ends the rest its own way.  No
# periodic snapshot, no watchdog: the last rank's state is its mapped
# file's alone.  Checked, from --merge: every rank's call at its death (the
# last rank's none) with the split communicator's id, not "?"; the calls
# each rank completed per site, the collectives and the sends, exactly;
# how fresh each rank's state is.  MPIT_DEATH_RUNS runs (2).
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a rank's mapped file however it ends; the launchers differ only in how they end the rest)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
. "$here/common/death.sh"
test_workdir report-death-segv || exit 1
death_build || exit 1
runs=${MPIT_DEATH_RUNS:-2}
set -m # the job in a process group of its own
for i in $(seq "$runs"); do
  d=$PWD/segv.$i
  death_run "$d" segv || continue
  [ -e "$d/state.3.map" ] || fail "run $i: the segfaulted rank left no state file"
  [ -e "$d/snapshot.3.txt" ] && fail "run $i: the segfaulted rank wrote a snapshot: the check would not be the mapping's"
  death_merge "$d" segv
  echo "run $i: launcher status $rc, $(ls "$d" | grep -c '^snapshot\.') snapshot files (the ranks the launcher ended with a signal first)"
done
[ $fails = 0 ] && ok "$runs runs with a segfault in rank 3: every rank's call at its death and its completed calls per site, exactly"
[ $fails = 0 ]
