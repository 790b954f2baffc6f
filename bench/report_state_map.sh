#!/usr/bin/env bash
# What keeping each rank's state in its mapped file (DIR/state.RANK.map,
# collect/report_state_map.h) costs, against the same tool with the tables
# in the heap (--no-state-file; the periodic snapshot off in both, so only
# the file's place differs):
#   - a wrapped call: bench/sites_call_cost.c, one rank to itself (MPI_Isend,
#     MPI_Recv, MPI_Wait), ns per iteration, best of 100 trials, per round;
#   - NetPIPE's 8-byte latency (NPmpi of netpipe-openmpi, 2 ranks, shared
#     memory), when installed;
#   - the metadata operations a rank makes in DIR over a whole run (strace
#     of the file-name system calls: creates, renames, unlinks);
#   (the file's size: doc/performance.md, from a killed run's files)
#   bench/report_state_map.sh [rounds]     (default 5; alternating modes)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-5}
flavor_vars openmpi || { echo "the distribution's Open MPI is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES PAPI_MPIT_REPORT_STATE_MAP
work=$BUILD/bench/report_state_map
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 "$top/bench/sites_call_cost.c" -o sites_call_cost || exit 1
np=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
wrap_of() {
  case $1 in
    heap) echo "$tool -q -o out --no-state-file --snapshot-period 0" ;;
    map) echo "$tool -q -o out --snapshot-period 0" ;;
  esac
}
for m in heap map; do : >"call.$m"; : >"lat.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in heap map; do
    # shellcheck disable=SC2046
    $MPIRUN $MPIRUN_OPTS -np 1 $(wrap_of $m) ./sites_call_cost 20000 100 2>/dev/null \
      | sed -n 's/^ns_per_iteration=\([0-9.]*\).*/\1/p' >>"call.$m"
    if [ -x "$np" ]; then
      # shellcheck disable=SC2046
      $MPIRUN $MPIRUN_OPTS -np 2 $(wrap_of $m) "$np" -l 8 -u 8 -p 0 -o np.out >np.log 2>&1 &&
        awk '$1 == 8 { printf "%.5f\n", 64 / ($2 * 1.048576) }' np.out >>"lat.$m"
    fi
  done
  printf '.' >&2
done
echo >&2
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for what in call lat; do
  for m in heap map; do
    [ -s "$what.$m" ] || continue
    sort -g "$what.$m" | awk -v w="$what" -v m="$m" '{ v[NR] = $1 } END {
      printf "%s %-4s median %.4f best %.4f (%s)\n", w, m, v[int((NR + 1) / 2)], v[1], w == "call" ? "ns per 3 calls" : "us one-way" }'
  done
done
# metadata operations in DIR over a whole run (2 ranks, 3 s in MPI calls)
if command -v strace >/dev/null; then
  rm -rf out && mkdir out
  strace -f -qq -e trace=open,openat,creat,rename,renameat,renameat2,unlink,unlinkat -o trace.txt \
    $MPIRUN $MPIRUN_OPTS -np 2 $(wrap_of map) ./sites_call_cost 200000 15 >/dev/null 2>&1
  echo "metadata operations on the state files in DIR, whole run of 2 ranks (creates, renames, unlinks; the report the run writes at its end aside):"
  grep -E "$work/out/(state|snapshot)\." trace.txt | grep -E 'O_CREAT|rename|unlink' | sed -E 's/^[0-9]+ +//; s/"[^"]*out\/([a-z]+)\.[0-9]+\./"\1.RANK./; s/, 0[0-9]+\)/)/' | sort | uniq -c
fi
