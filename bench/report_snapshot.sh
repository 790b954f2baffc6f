#!/usr/bin/env bash
# What a snapshot of a rank's state costs (issue 37): the time each rank
# takes to write DIR/snapshot.RANK.txt, from the request reaching the tool's
# helper thread to the file renamed in place (the D line the snapshot ends
# with), and the file's size.  ctests/report_hang.c in its deadlock mode
# (2 ranks) and its collective mode (4 ranks: 3 in an allreduce, 1 in a
# receive), with the default events, under --snapshot-period 20 (periodic
# snapshots as fast as they come) until every rank wrote 20, then SIGTERM
# (through timeout): the last state, the one written on SIGTERM where it
# was written in time, is measured.  Medians and maxima over rounds x ranks.
#   bench/report_snapshot.sh [rounds]            (default 5; FLAVOR=openmpi)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
rounds=${1:-5}
flavor=${FLAVOR:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SAMPLE_MS
work=$BUILD/bench/report_snapshot
mkdir -p "$work" && cd "$work" || exit 1
$MPICC -g -O2 "$top/ctests/report_hang.c" -o report_hang || exit 1

for case in "deadlock 2" "collective 4"; do
  set -- $case
  mode=$1 np=$2
  : >times.txt
  for r in $(seq "$rounds"); do
    rm -rf out && mkdir out
    timeout -s TERM 120 $MPIRUN $MPIRUN_OPTS -np "$np" "$tool" -q -o out --snapshot-period 20 ./report_hang "$mode" \
      </dev/null >run.log 2>&1 &
    t=$!
    for i in $(seq 600); do
      n=$(awk -F'\t' '$1 == "R" && $7 >= 20 { n++ } END { print n + 0 }' out/snapshot.*.txt 2>/dev/null)
      [ "${n:-0}" -ge "$np" ] && break
      sleep 0.1
    done
    kill -TERM $t; wait $t
    for f in out/snapshot.*.txt; do
      printf '%s %s %s\n' "$(awk -F'\t' '$1 == "D" { print $2 }' "$f")" "$(wc -c <"$f")" \
        "$(awk -F'\t' '$1 == "R" { print $4 }' "$f")" >>times.txt
    done
  done
  sort -n times.txt | awk -v mode="$mode" -v np="$np" -v fl="$flavor" '
    { t[NR] = $1; b[NR] = $2; why[$3]++ }
    END { printf "%s, %s, %d ranks: %d states, write time median %.3f ms, max %.3f ms; size median %d B (", fl, mode, np, NR, 1000 * t[int((NR + 1) / 2)], 1000 * t[NR], b[int((NR + 1) / 2)]
          s = ""; for (w in why) { printf "%s%d %s", s, why[w], w; s = ", " } print ")" }'
done
