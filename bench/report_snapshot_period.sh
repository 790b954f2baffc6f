#!/usr/bin/env bash
# What the periodic state costs at its default (issue 40): with -o, each rank
# writes its state every --snapshot-period ms (default 10000), so that a run
# killed by SIGKILL, the OOM killer or a lost node still leaves it.  Budget:
# at most 0.1 % of the run time.  bench/overhead.c (rounds of about 10 ms of
# arithmetic, each followed by an MPI_Allreduce of one double; NP ranks)
# under the tool (-q -o DIR, default events), three modes alternating
# within each run: --snapshot-period 0 (none), the default, and 10 ms (a
# state every 10 ms: 1000 times the default's rate, where the cost is well
# above the noise).  Per mode, medians over runs of the CPU time of mpirun
# and every rank, every thread (/usr/bin/time), and of the rounds' wall
# time (the slowest rank).  From them:
#   per state   (cpu(10 ms) - cpu(0)) / states written at 10 ms
#               (NP x loop / 10 ms): the CPU one state costs a rank;
#   default     per state / 10 s: the share of a rank's time the default
#               takes (what the budget is about);
#   direct      cpu(default) / cpu(0) - 1, measured: within the noise of a
#               few seconds' run (a state or less per rank), for the record.
#   bench/report_snapshot_period.sh [runs] [rounds]   (default 5 runs of 300 rounds)
# FLAVOR (default openmpi), NP (default 2).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
runs=${1:-5}
rounds=${2:-300}
flavor=${FLAVOR:-openmpi}
np=${NP:-2}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG PAPI_MPIT_REPORT_SNAPSHOT_MS
work=$BUILD/bench/report_snapshot_period
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -Wall -Wextra "$top/bench/overhead.c" -o overhead || exit 1
units=$(./overhead calibrate 10) || exit 1

# one_run MODE: "cpu_s loop_s" of one run (MODE: 0, default or a period in ms)
one_run() {
  local period=()
  [ "$1" = default ] || period=(--snapshot-period "$1")
  rm -rf out
  /usr/bin/time -f 'TIME %e %U %S' -o time.txt $MPIRUN $MPIRUN_OPTS -np "$np" "$tool" -q -o out "${period[@]}" \
    ./overhead "$rounds" "$units" >run.log 2>&1 || { echo "run failed ($1):" >&2; tail run.log >&2; return 1; }
  awk '/^TIME/ { printf "%.3f ", $3 + $4 }' time.txt
  sed -n 's/^loop_s=\([0-9.]*\) .*/\1/p' run.log
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >runs.txt
for r in $(seq "$runs"); do
  line=""
  for mode in 0 default 10; do line="$line $(one_run $mode)" || exit 1; done
  echo "$line" >>runs.txt
  echo "run $r: cpu_s loop_s (off, default, 10 ms):$line"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$np" runs.txt <<'PY'
import statistics as st, sys
np_ = int(sys.argv[1])
rows = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
cpu = {m: st.median(r[2 * i] for r in rows) for i, m in enumerate(("off", "default", "10ms"))}
loop = {m: st.median(r[2 * i + 1] for r in rows) for i, m in enumerate(("off", "default", "10ms"))}
states = np_ * loop["10ms"] / 0.010
per = (cpu["10ms"] - cpu["off"]) / states
print("cpu_s median: off %.3f, default %.3f, 10 ms %.3f; loop_s median: off %.3f, default %.3f, 10 ms %.3f"
      % (cpu["off"], cpu["default"], cpu["10ms"], loop["off"], loop["default"], loop["10ms"]))
print("per state: %.3f ms of CPU (%.0f states at 10 ms)" % (per * 1e3, states))
print("default (10 s): %.4f %% of a rank's time (budget 0.1 %%)" % (100 * per / 10.0))
print("direct, default against off: %+.2f %% CPU (noise: a run of %.1f s holds %d state(s) per rank)"
      % (100 * (cpu["default"] / cpu["off"] - 1), loop["off"], int(loop["off"] // 10)))
PY
