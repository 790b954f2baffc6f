#!/usr/bin/env bash
# What papi-mpit-report costs a compute-bound program with frequent small
# collectives: bench/overhead.c (rounds of about 10 ms of arithmetic, each
# followed by an MPI_Allreduce of one double) with and without the tool
# (its default events, -q -o DIR), modes alternating within each run.
#   bench/report_overhead.sh [runs] [rounds]     (default 7 runs of 300 rounds)
# FLAVOR (default openmpi), NP (default 2) and MS (default 10: the ms of
# arithmetic per round, calibrated once) choose the case; Open MPI runs as
# the tests run it (--mca btl self,vader --mca pml ob1), or with its own
# defaults when LAUNCH=defaults.  Per mode, best and
# median over runs of:
#   job    the whole mpirun, wall clock (start-up and MPI_Finalize included)
#   cpu    the CPU time of mpirun and every rank, every thread (the tool's
#          helper and sampler threads included)
#   loop   the rounds alone, wall clock, the slowest rank
#   outside  job - loop: launch, MPI_Init, MPI_Finalize (the tool's start-up
#          and its collection and files are there)
#   round  the median round (ms), the slowest rank's: on a loaded machine the
#          steady figure (a round that lost its core is an outlier there)
# and the tool's cost as best/best, median/median and the median of each
# run's ratio (tool / no tool, the two runs next to each other); then, from the tool's
# report.json, its own figures, which the load does not blur as much: its
# start-up and collection (tool_s) and its sampler thread's CPU time against
# the run's duration (sampling.cpu_s_max / elapsed_s).  The machine's load
# average is printed before and after: on a loaded machine the best of several
# runs is the figure to read, and CPU time more than wall time.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
runs=${1:-7}
rounds=${2:-300}
flavor=${FLAVOR:-openmpi}
np=${NP:-2}
ms=${MS:-10}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
case $flavor:${LAUNCH:-} in openmpi*:defaults) MPIRUN_OPTS="--allow-run-as-root --oversubscribe" ;; esac
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG
work=$BUILD/bench/report_overhead
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/overhead.c" -o overhead || exit 1
units=$(./overhead calibrate "$ms") || exit 1

# one_run MODE: "job_s cpu_s loop_s round_ms" of one run
one_run() {
  local wrap=()
  [ "$1" = tool ] && wrap=("$tool" -q -o out)
  rm -rf out
  /usr/bin/time -f 'TIME %e %U %S' -o time.txt $MPIRUN $MPIRUN_OPTS -np "$np" "${wrap[@]}" \
    ./overhead "$rounds" "$units" >run.log 2>&1 || { echo "run failed ($1):" >&2; tail run.log >&2; return 1; }
  if [ "$1" = tool ]; then
    [ -s out/report.json ] || { echo "the tool wrote no report" >&2; return 1; }
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); t = r["tool_s"]; s = r.get("sampling") or {}
print(t["startup"], t.get("startup_mpit_init", 0), t["collection"], s.get("cpu_s_max", 0) / r["elapsed_s"])' \
      out/report.json >>own.txt
  fi
  awk '/^TIME/ { job = $2; cpu = $3 + $4 } END { printf "%s %.3f ", job, cpu }' time.txt
  sed -n 's/^loop_s=\([0-9.]*\) cpu_s=[0-9.]* round_ms=\([0-9.]*\) .*/\1 \2/p' run.log
}

echo "$flavor, $np ranks on $(nproc) cores, $rounds rounds of $ms ms of arithmetic ($units units) + MPI_Allreduce"
echo "mpirun ${MPIRUN_OPTS:-(no options)}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >none.txt
: >tool.txt
: >own.txt
for ((i = 0; i < runs; i++)); do
  one_run none >>none.txt || exit 1
  one_run tool >>tool.txt || exit 1
  printf '.' >&2
done
echo >&2
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - none.txt tool.txt own.txt <<'PY'
import statistics, sys
cols = ("job s", "cpu s", "loop s", "round ms", "outside s")
data = [[list(map(float, l.split())) for l in open(f) if l.strip()] for f in sys.argv[1:3]]
data = [[r + [r[0] - r[2]] for r in d] for d in data]
print(f"{'':8} {'no tool best':>12} {'median':>8} {'tool best':>10} {'median':>8} {'best/best':>10} {'med/med':>8} {'paired':>8}")
for c, name in enumerate(cols):
    n = [r[c] for r in data[0]]
    t = [r[c] for r in data[1]]
    bn, bt, mn, mt = min(n), min(t), statistics.median(n), statistics.median(t)
    pr = statistics.median(y / x for x, y in zip(n, t))
    print(f"{name:8} {bn:12.3f} {mn:8.3f} {bt:10.3f} {mt:8.3f} {100 * (bt / bn - 1):+9.1f}% {100 * (mt / mn - 1):+7.1f}%"
          f" {100 * (pr - 1):+7.1f}%")
own = [list(map(float, l.split())) for l in open(sys.argv[3]) if l.strip()]
m = [statistics.median(r[c] for r in own) for c in range(4)]
print(f"the tool's own (report.json, medians): start-up {1e3 * m[0]:.1f} ms (MPI_T_init_thread {1e3 * m[1]:.1f} ms), "
      f"collection {1e3 * m[2]:.1f} ms, sampler {100 * m[3]:.2f} % of a core")
PY
