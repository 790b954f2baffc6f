#!/usr/bin/env bash
# Start-up: what papi-mpit-report adds to MPI_Init, and where it goes.
# bench/startup.c is timed around its MPI_Init (wall and CPU, the largest
# over ranks; with the tool preloaded, its start-up is inside that call):
#   init      MPI_Init alone, no tool
#   t_after   no tool: MPI_Init, then the MPI's own MPI_T_init_thread
#   t_before  no tool: MPI_T_init_thread, then MPI_Init
#   tool      papi-mpit-report -q -o DIR (default events), MPI_Init; also
#             report.json's tool_s.startup and tool_s.startup_mpit_init
#   old       the same with the interposer in OLD_LIBDIR (an older build)
# Open MPI runs with its own defaults ("defaults") and as the tests run it
# (--mca btl self,vader --mca pml ob1); the modes alternate within each run.
#   bench/report_startup.sh [runs]        (default 9; FLAVORS, default "openmpi mpich"; NP, default 2)
# Best and median over runs, in ms.  The load average is printed: on a loaded
# machine read the best, and the CPU time.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
runs=${1:-9}
np=${NP:-2}
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_LOG
work=$BUILD/bench/report_startup
mkdir -p "$work" && cd "$work" || exit 1

# one_run OPTS MODE: "init_ms total_ms cpu_ms startup_ms mpit_init_ms" of one run
one_run() {
  local opts=$1 mode=$2 wrap=() arg=init pass=()
  case $mode in
    init | t_after | t_before) arg=$mode ;;
    tool) wrap=("$tool" -q -o out) ;;
    old) wrap=("$tool" -q -o out) pass=(env PAPI_MPIT_REPORT_LIBDIR="$OLD_LIBDIR") ;;
  esac
  [ "$mode" = old ] && case $MPIRUN in *openmpi* | */mpirun) opts="$opts -x PAPI_MPIT_REPORT_LIBDIR" ;; esac
  rm -rf out
  # shellcheck disable=SC2086 # opts: words
  "${pass[@]}" $MPIRUN $opts -np "$np" "${wrap[@]}" ./startup "$arg" >run.log 2>&1 ||
    { echo "run failed ($mode):" >&2; tail run.log >&2; return 1; }
  local tool_s="- -"
  [ -s out/report.json ] && tool_s=$(python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tool_s"]
print(1e3 * t["startup"], 1e3 * t.get("startup_mpit_init", float("nan")))' out/report.json)
  sed -n 's/^init_s=\([0-9.]*\) mpit_s=[0-9.]* total_s=\([0-9.]*\) cpu_s=\([0-9.]*\)$/\1 \2 \3/p' run.log |
    awk -v t="$tool_s" '{ printf "%.3f %.3f %.3f %s\n", 1e3 * $1, 1e3 * $2, 1e3 * $3, t }'
}

summary() {
  python3 - "$@" <<'PY'
import math, statistics, sys
print(f"  {'mode':9} {'MPI_Init (ms)':>21} {'with MPI_T (ms)':>21} {'CPU (ms)':>19} {'tool_s.startup':>19} {'its MPI_T_init':>17}")
for f in sys.argv[1:]:
    rows = [l.split() for l in open(f) if l.strip()]
    if not rows: continue
    out = f"  {f.split('.')[-1]:9}"
    for c, w in ((0, 21), (1, 21), (2, 19), (3, 19), (4, 17)):
        v = [float(r[c]) for r in rows if r[c] != "-" and not math.isnan(float(r[c]))]
        out += f" {('best %.1f med %.1f' % (min(v), statistics.median(v))) if v else '-':>{w}}"
    print(out)
PY
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $np ranks, $(nproc) cores, $runs runs"
for flavor in ${FLAVORS:-openmpi mpich}; do
  flavor_vars "$flavor" || { echo "($flavor not installed)"; continue; }
  $MPICC -O2 -Wall -Wextra "$top/bench/startup.c" -o startup || exit 1
  configs=("$MPIRUN_OPTS")
  case $flavor in openmpi*) configs=("--allow-run-as-root --oversubscribe" "$MPIRUN_OPTS") ;; esac
  for opts in "${configs[@]}"; do
    modes="init t_after t_before tool"
    [ -n "${OLD_LIBDIR:-}" ] && modes="$modes old"
    for m in $modes; do : >"res.$m"; done
    for ((i = 0; i < runs; i++)); do
      for m in $modes; do one_run "$opts" "$m" >>"res.$m" || exit 1; done
      printf '.' >&2
    done
    echo >&2
    echo "== $flavor, mpirun ${opts:-(no options)}"
    # shellcheck disable=SC2086
    summary $(for m in $modes; do echo "res.$m"; done)
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
