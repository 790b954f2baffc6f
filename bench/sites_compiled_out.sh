#!/usr/bin/env bash
# What one part of the wrappers' path costs a wrapped call: the Open MPI
# interposer built twice from this checkout, as it is and with DEFINE (the
# part compiled out), both run with -o on bench/sites_call_cost.c (one rank
# to itself: MPI_Isend, MPI_Recv, MPI_Wait, three wrapped calls an
# iteration), single-threaded and under MPI_THREAD_MULTIPLE, alternating
# within each round; the best of each round's 100 trials of 20000
# iterations, then the median and best over rounds.  On a loaded machine
# the difference is a bound, not a measure.
#   bench/sites_compiled_out.sh NAME DEFINE LABEL [rounds]
# NAME: the work directory under $BUILD/bench; LABEL: what the last lines
# call the difference.  bench/report_sites_extremes.sh and
# bench/report_timeline.sh are its two uses.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
name=$1 define=$2 label=$3 rounds=${4:-9}
flavor_vars openmpi || { echo "the distribution's Open MPI is not installed"; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR PAPI_MPIT_REPORT_SITES
work=$BUILD/bench/$name
mkdir -p "$work" && cd "$work" || exit 1
: >runs.txt
[ -f "$BUILD/utils/report/interpose/site_wrappers.c" ] || { echo "no generated wrappers in $BUILD: build first"; exit 1; }
# the interposer's sources, as utils/utils.am lists them, and its flags
srcs=$(awk '/^REPORT_SOURCES/ { on = 1 } on { for (i = 1; i <= NF; i++) if ($i ~ /\.c$/) print $i; if ($NF != "\\") on = 0 }' \
  "$top/utils/utils.am" | sed "s|^|$top/|")
ompi_inc=$(sed -n 's/^OPENMPI_CPPFLAGS = //p' "$BUILD/Makefile")
for v in with without; do
  def=; [ $v = without ] && def=$define
  rm -rf "lib-$v" && cp -r "$PREFIX/lib/papi-mpit" "lib-$v" || exit 1
  # shellcheck disable=SC2086
  gcc -g -O2 -fPIC -shared $def $ompi_inc -I"$BUILD/papi-build/src" $(for d in interpose hang collect sites render common; do echo -I"$top/utils/report/$d"; done) \
    -I"$BUILD/utils/report/sites" -I"$top/components/mpit" $srcs "$BUILD/utils/report/interpose/site_wrappers.c" \
    -L"$PREFIX/lib" -Wl,-rpath,"$PREFIX/lib" -lpapi -lpthread -ldl -lm -ldw -lelf -ljansson \
    -o "lib-$v/libpapi-mpit-report-openmpi.so" || exit 1
done
$MPICC -O2 "$top/bench/sites_call_cost.c" -o sites_call_cost || exit 1
tool=$PREFIX/bin/papi-mpit-report
echo "Open MPI $(ompi_info --version 2>/dev/null | head -1 | grep -o '[0-9.]*$'), $(nproc) cores, $rounds rounds"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  for t in single multiple; do
    for v in with without; do
      PAPI_MPIT_REPORT_LIBDIR=$work/lib-$v $MPIRUN $MPIRUN_OPTS -np 1 $tool -q -o out ./sites_call_cost 20000 100 $t \
        2>/dev/null | sed -n "s/^ns_per_iteration=\([0-9.]*\).*/$t $v \1/p" >>runs.txt
    done
  done
  printf '.' >&2
done
echo >&2
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
LABEL=$label python3 - <<'PY'
import os, statistics
v = {}
for line in open("runs.txt"):
    t, w, ns = line.split()
    v.setdefault((t, w), []).append(float(ns))
print("ns per iteration (3 wrapped calls), median [best] over rounds:")
for t in ("single", "multiple"):
    a, b = v.get((t, "with"), []), v.get((t, "without"), [])
    if not a or not b:
        print(f"  {t}: no runs"); continue
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"  {t:8} with {ma:7.1f} [{min(a):.1f}]  without {mb:7.1f} [{min(b):.1f}]  "
          f"{os.environ['LABEL']}: {(ma - mb) / 3:+.2f} ns a call (median), {(min(a) - min(b)) / 3:+.2f} (best)")
PY
