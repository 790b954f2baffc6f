#!/usr/bin/env bash
# The tests of a killed job, many runs each on every launcher, on a loaded
# machine: what "every rank's state, however the job ends" rests on.  Not
# part of CI (about 10 minutes a flavor at 20 runs); run it after a change
# to the signal path, the mapped state file or the merge.
#   ctests/soak.sh [FLAVOR...]      (from the build tree; default: one
#                                    flavor per MPI release, as CI has them)
# MPIT_SOAK_RUNS (20) runs of each:
#   t_report_hang_term   timeout -s TERM on the launcher (each run loads
#                        the machine itself: one busy loop per core)
#   t_report_hang_kill   the whole job SIGKILLed once every rank blocks
#   t_report_death_segv  one rank segfaults, the launcher ends the rest
#   t_report_death_oom   one rank OOM-killed (cgroup v2, or v1's memory
#                        controller), the launcher ends the rest
# the last three with one busy loop per core started here, on the first
# flavor of each family (their scope: the kernel keeps a killed rank's file
# whatever the launcher, which only ends the rest), on every flavor named
# with MPIT_SOAK_KILL_ALL=1.  The Slurm
# cases: MPIT_HANG_JOBS=20 for t_report_hang_sbatch (it loads the machine
# itself), on flavor openmpi.  A test passes only if all its runs held;
# each test's ok lines (runs, forced runs, times) are printed.
set -u
build=${MPIT_BUILDDIR:-$PWD}
[ -f "$build/Makefile" ] || { echo "run from the build tree (or set MPIT_BUILDDIR)"; exit 1; }
runs=${MPIT_SOAK_RUNS:-20}
flavors=${*:-openmpi debian13-openmpi sid-openmpi mpich debian13-mpich sid-mpich}
. "$(dirname "$0")/flavors.sh"
logs=$build/soak
mkdir -p "$logs"
busy=
stop_busy() { [ -n "$busy" ] && kill $busy 2>/dev/null; busy=; }
trap stop_busy EXIT
start_busy() { local i; for ((i = 0; i < $(nproc); i++)); do sh -c 'while :; do :; done' & busy="$busy $!"; done; }

# soak FLAVOR LABEL TESTS...: the tests on FLAVOR with every run counted
soak() {
  local f=$1 label=$2; shift 2
  local log=$logs/$f-$label.log
  (cd "$build" && MPIT_UNITS=no MPIT_FLAVORS="$f" MPIT_TESTS="$*" MPIT_SCOPE=every \
    MPIT_HANG_RUNS=$runs MPIT_DEATH_RUNS=$runs MPIT_TIMEOUT_FACTOR=$(((runs + 1) / 2)) make check) >"$log" 2>&1
  grep -E '^(PASS|FAIL|SKIP) |^[0-9]+ passed' "$log" | sed "s|^|  |"
}
seen_family=
for f in $flavors; do
  echo "== $f ($runs runs each, load average $(cut -d' ' -f1 /proc/loadavg))"
  soak "$f" term t_report_hang_term
  fam=$(flavor_family "$f")
  if [ "${MPIT_SOAK_KILL_ALL:-0}" = 1 ] || [[ " $seen_family " != *" $fam "* ]]; then
    seen_family="$seen_family $fam"
    start_busy
    soak "$f" kill t_report_hang_kill t_report_death_segv t_report_death_oom
    stop_busy
  fi
  for t in t_report_hang_term t_report_hang_kill t_report_death_segv t_report_death_oom; do
    grep -h '^ok: ' "$build/ctests-build/logs/$f-$t.log" 2>/dev/null | sed "s|^|    $t: |" | cut -c1-400
  done
done
