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
# trips (about 0.15 s each: every trial holds many sampling periods).
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

# one_run MODE: the round trip in us of one run
one_run() {
  local wrap=()
  case $1 in
    none) ;;
    *) wrap=("$tool" -q -o out --sample-period "$1") ;;
  esac
  $MPIRUN $MPIRUN_OPTS "${pass[@]}" -np 2 "${wrap[@]}" ./pingpong none "$iters" >run.log 2>&1 \
    || { echo "pingpong failed ($1):" >&2; cat run.log >&2; return 1; }
  awk '/round trip/ { for (i = 1; i < NF; i++) if ($i == "trip") print $(i + 1) }' run.log
}

modes="none 0 10 1"
for m in $modes; do : >"rt.$m"; done
for ((r = 1; r <= rounds; r++)); do
  for m in $modes; do one_run "$m" >>"rt.$m" || exit 1; done
done
samples=$(python3 -c 'import json; print(json.load(open("out/report.json"))["sampling"])' 2>/dev/null)
echo "$flavor, pingpong none $iters, $rounds rounds; the last run's sampling: $samples"
for m in $modes; do
  sort -g "rt.$m" | awk -v m="$m" '{ v[NR] = $1 } END {
    med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s %.4f %.4f %.4f\n", m, med, v[1], v[NR] }'
done | awk '
  { name = $1 == "none" ? "no tool" : $1 == "0" ? "tool, sampling off" : "tool, every " $1 " ms"
    if ($1 == "0") base = $2
    line[NR] = sprintf("%-22s round trip %.4f us (%.4f..%.4f)", name, $2, $3, $4); val[NR] = $2; key[NR] = $1 }
  END { for (i = 1; i <= NR; i++)
          printf "%s%s\n", line[i], key[i] != "none" && key[i] != "0" ? sprintf("  %+.2f %% against sampling off", 100 * (val[i] / base - 1)) : "" }'
