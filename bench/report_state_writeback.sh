#!/usr/bin/env bash
# The write-back I/O a rank's mapped state file (DIR/state.RANK.map) causes
# the storage under DIR: one rank making wrapped calls without pause
# (bench/state_writeback.c) for SECONDS, its /proc/self/io write_bytes
# (each mapped page counted every time it is dirtied again after the
# kernel's flusher wrote it back: vm.dirty_expire_centisecs and
# dirty_writeback_centisecs set the pace), with the file (the defaults)
# with the tables in the heap (--no-state-file), and without the tool (what
# the rank and its MPI write anyway).  DIR is in the build
# tree: put BUILD on the file system to measure (not a tmpfs).
#   bench/report_state_writeback.sh [seconds]     (default 65)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
seconds=${1:-65}
flavor_vars openmpi || { echo "the distribution's Open MPI is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES PAPI_MPIT_REPORT_STATE_MAP
work=$BUILD/bench/report_state_writeback
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 "$top/bench/state_writeback.c" -o state_writeback || exit 1
echo "DIR on $(df --output=fstype . | tail -1) ($(df --output=source . | tail -1)); vm.dirty_expire_centisecs $(cat /proc/sys/vm/dirty_expire_centisecs), dirty_writeback_centisecs $(cat /proc/sys/vm/dirty_writeback_centisecs)"
for m in none heap map; do
  rm -rf out && mkdir out
  wrap=("$tool" -q -o out); [ $m = heap ] && wrap+=(--no-state-file); [ $m = none ] && wrap=()
  line=$($MPIRUN $MPIRUN_OPTS -np 1 "${wrap[@]}" ./state_writeback "$seconds" 2>/dev/null | grep '^seconds=')
  echo "$m: $line" \
    | awk -v s="$seconds" '{ print } match($0, /write_bytes=[0-9]+/) {
        b = substr($0, RSTART + 12, RLENGTH - 12); printf "  %.1f KiB a minute\n", b / 1024 * 60 / s }'
done
