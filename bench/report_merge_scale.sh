#!/usr/bin/env bash
# What `papi-mpit-report --merge` costs at 4096 to 65536 ranks (issue 41
# item 2): a real ring deadlock at 4 ranks (ctests/hang_ring.c under -o and
# --watchdog, ended once every rank wrote its state), made into N ranks'
# snapshot directories by ctests/common/synth_snapshots.py (64 ranks a host,
# a ring still: rank 0 the real rank 0, the others the real ranks 1-3 in
# turn), each merged once under /usr/bin/time -v: CPU seconds (user +
# system), peak resident memory, wall time, and the sizes of what it
# wrote; report.html's time to its load event in headless Chromium
# (bench/html_load_time.py) where chromium is installed.
#   bench/report_merge_scale.sh [N...]      (default 4096 16384 65536; FLAVOR=openmpi)
# The synthetic directories take about 12 KB a rank (0.8 GB at 65536) in
# $BUILD/bench/report_merge_scale, each removed once measured.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
sizes=${*:-4096 16384 65536}
flavor=${FLAVOR:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SAMPLE_MS
work=$BUILD/bench/report_merge_scale
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
$MPICC -g -O0 "$top/ctests/hang_ring.c" -o hang_ring || exit 1

# ---- the real snapshots
mkdir real
timeout -s TERM 120 $MPIRUN $MPIRUN_OPTS -np 4 "$tool" -q -o "$PWD/real" --watchdog 600 ./hang_ring \
  </dev/null >real.out 2>real.err &
t=$!
for i in $(seq 600); do
  [ "$(cat real/snapshot.*.txt 2>/dev/null | grep -c '^R	')" -ge 4 ] && break
  sleep 0.1
done
kill -TERM $t; wait $t
[ "$(ls real/snapshot.*.txt 2>/dev/null | wc -l)" = 4 ] || { echo "the ring left $(ls real/snapshot.*.txt 2>/dev/null | wc -l) of 4 states"; exit 1; }
echo "real snapshots: 4 ranks, $(cat real/snapshot.*.txt | wc -c) B ($flavor)"

printf '%-8s %10s %10s %12s %10s %12s %12s %12s %s\n' ranks cpu_s wall_s peak_MiB input_MB report.txt report.json report.html html_load_ms
for n in $sizes; do
  rm -rf "s$n"
  python3 "$top/ctests/common/synth_snapshots.py" real "$n" "s$n" || exit 1
  input=$(du -sm "s$n" | cut -f1)
  /usr/bin/time -v "$tool" --merge "s$n" >"merge$n.out" 2>"merge$n.time" || { echo "--merge of $n ranks failed:"; tail -5 "merge$n.time"; exit 1; }
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "merge$n.time")
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.1f", s }' "merge$n.time")
  rss=$(awk -F': ' '/Maximum resident/ { printf "%.0f", $2 / 1024 }' "merge$n.time")
  load=-
  if command -v chromium >/dev/null; then
    load=$(timeout 300 python3 "$top/bench/html_load_time.py" "s$n/report.html" 3 | sed -n 's/.*load \([0-9]*\) ms.*/\1/p')
  fi
  printf '%-8s %10s %10s %12s %10s %12s %12s %12s %s\n' "$n" "$cpu" "$wall" "$rss" "$input" \
    "$(stat -c %s "s$n/report.txt")" "$(stat -c %s "s$n/report.json")" "$(stat -c %s "s$n/report.html")" "${load:--}"
  head -5 "s$n/report.txt" | cut -c1-160 | sed 's/^/    /'
  rm -rf "s$n"
done
