#!/usr/bin/env bash
# What papi-mpit-report's sampling of the queue maxima costs a message-rate
# bound program: bench/pingpong.c's 8-byte round trip (2 ranks, no PAPI call
# of its own) under the tool with its default events, sampling off
# (--sample-period 0) against sampling every 10 ms and every 1 ms, and the
# program without the tool.  On the distribution's Open MPI, whose
# UNEXPECTED_QUEUE_MAX and POSTED_QUEUE_MAX are sampled.  The modes
# alternate within each round; medians over rounds, with the spread.
#   bench/report_sampling.sh [rounds] [iterations]     (default 9, 200000)
# Each run's figure is pingpong's best of 5 trials of `iterations` round
# trips (about 0.15 s each: every trial holds many sampling periods).  Also
# the sampler's own CPU time (report.json sampling.cpu_s_max, from its set
# running to its stop) against the run's elapsed time: its direct cost, as a
# share of a core, which a loaded machine does not blur as it blurs a round
# trip.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-9} iters=${2:-200000}
flavor=${FLAVOR:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SAMPLE_MS
pass=()
[ -n "${PAPI_MPIT_REPORT_LIBDIR:-}" ] && pass+=(-x PAPI_MPIT_REPORT_LIBDIR)
work=$BUILD/bench/report_sampling
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -O2 -I"$PREFIX/include" "$top/bench/pingpong.c" -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lpapi \
  -o pingpong || exit 1

# one_run MODE: the round trip in us of one run, and the sampler's CPU share
one_run() {
  local wrap=()
  case $1 in
    none) ;;
    *) wrap=("$tool" -q -o out --sample-period "$1") ;;
  esac
  $MPIRUN $MPIRUN_OPTS "${pass[@]}" -np 2 "${wrap[@]}" ./pingpong none "$iters" >run.log 2>&1 \
    || { echo "pingpong failed ($1):" >&2; cat run.log >&2; return 1; }
  local rt share=-
  rt=$(awk '/round trip/ { for (i = 1; i < NF; i++) if ($i == "trip") print $(i + 1) }' run.log)
  [ "$1" != none ] && share=$(python3 -c 'import json; r = json.load(open("out/report.json")); s = r["sampling"]
print("%.4f %.1f" % (100 * s["cpu_s_max"] / r["elapsed_s"], 1e6 * s["cpu_s_max"] / max(s["samples_min"], 1))
      if s and s["period_ms"] > 0 else "-")')
  echo "$rt $share"
}

modes="none 0 10 1"
for m in $modes; do : >"rt.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do one_run "$m" >>"rt.$m" || exit 1; done
done
echo "$flavor, pingpong none $iters, $rounds rounds: medians (spread)"
# med FILE COLUMN: "median lowest highest" of a column
med() {
  awk -v c="$2" '$c != "-" { print $c }' "$1" | sort -g | awk '{ v[NR] = $1 } END {
    if (!NR) { print "- - -"; exit }
    printf "%s %s %s\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2, v[1], v[NR] }'
}
base=$(med rt.0 1 | cut -d' ' -f1)
for m in $modes; do
  read -r rt lo hi <<<"$(med "rt.$m" 1)"
  read -r share slo shi <<<"$(med "rt.$m" 2)"
  read -r per _ _ <<<"$(med "rt.$m" 3)"
  case $m in none) name="no tool" ;; 0) name="tool, sampling off" ;; *) name="tool, every $m ms" ;; esac
  printf '%-20s round trip %s us (%s..%s)' "$name" "$rt" "$lo" "$hi"
  case $m in none | 0) echo ;;
    *) awk -v a="$rt" -v b="$base" -v s="$share" -v l="$slo" -v h="$shi" -v p="$per" 'BEGIN {
         printf "  %+.1f %% against off; sampler CPU %s %% of a core (%s..%s), %s us a sample\n", 100 * (a / b - 1), s, l, h, p }' ;;
  esac
done
