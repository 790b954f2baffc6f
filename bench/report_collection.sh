#!/usr/bin/env bash
# How papi-mpit-report's collection (utils/report/collect/report_collect.c) grows with the
# number of ranks: a trivial MPI program (MPI_Init, MPI_Finalize) under the
# tool with its default events, at 4 to 128 ranks on this machine
# (oversubscribed: more ranks than cores), and report.json's
# tool_s.collection (rank 0: from every rank stopped counting to every
# record in) and collection_bytes (the records as they travel).
#   bench/report_collection.sh [runs] [rank counts...]   (default 5; 4 8 16 32 64 128)
# bench/collection_model.py prints what the model of doc/performance.md
# predicts for the same counts.
# Open MPI runs as the tests run it (--mca btl self,vader --mca pml ob1), or
# with its own defaults when LAUNCH=defaults.
# Medians over runs, with the spread.  OLD_LIBDIR=DIR also runs the
# interposer found in DIR (an older build) on the same runs, alternating.
# APP=sites runs bench/collection_app.c instead (issue 41's program: 64 call
# sites a rank and a dense row, one message to every other rank).
# MODES="tags bytes" runs each rank count with the records in zero-byte
# messages' tags and in real bytes (PAPI_MPIT_REPORT_COLLECT, alternating);
# the default, "auto", lets the tool choose (report_collect.c).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
runs=${1:-5}
shift || :
counts=${*:-4 8 16 32 64 128}
flavor=${FLAVOR:-openmpi}
flavor_vars "$flavor" || { echo "flavor $flavor is not installed"; exit 1; }
case $flavor:${LAUNCH:-} in openmpi*:defaults) MPIRUN_OPTS="--allow-run-as-root --oversubscribe" ;; esac
tool=$PREFIX/bin/papi-mpit-report
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset OMPI_MCA_mpi_spc_attach PAPI_MPIT_REPORT_EVENTS PAPI_MPIT_REPORT_DIR
new_libdir=${PAPI_MPIT_REPORT_LIBDIR:-$PREFIX/lib/papi-mpit}
work=$BUILD/bench/report_collection
mkdir -p "$work" && cd "$work" || exit 1
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >trivial.c
$MPICC trivial.c -o trivial || exit 1
$MPICC -O2 "$top/bench/collection_app.c" -o collection_app || exit 1
case ${APP:-trivial} in sites) app=./collection_app ;; *) app=./trivial ;; esac
modes=${MODES:-auto}

# one_run LIBDIR NP [MODE]: "seconds bytes" of one run
one_run() {
  rm -rf out
  local how=${3:-auto}
  [ "$how" = auto ] && how=
  PAPI_MPIT_REPORT_COLLECT=$how PAPI_MPIT_REPORT_LIBDIR=$1 timeout 600 $MPIRUN $MPIRUN_OPTS \
    -x PAPI_MPIT_REPORT_LIBDIR -x PAPI_MPIT_REPORT_COLLECT -np "$2" \
    "$tool" -q -o out $app >run.log 2>&1 || { echo "run failed (np $2, $1):" >&2; tail run.log >&2; return 1; }
  python3 -c 'import json; r = json.load(open("out/report.json")); print(r["tool_s"]["collection"], r.get("collection_bytes", "-"))'
}

# summary NAME FILE: median and spread of the first column, the bytes
summary() {
  sort -g "$2" | awk -v n="$1" '{ v[NR] = $1; b = $2 } END {
    med = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "  %-5s %9.4f s (%.4f..%.4f)  %s bytes collected\n", n, med, v[1], v[NR], b }'
}

echo "$flavor, $app, $runs runs per rank count, tool_s.collection (median, spread), $(nproc) cores"
echo "mpirun ${MPIRUN_OPTS:-(no options)}"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for np in $counts; do
  for m in $modes; do : >"new.$m.$np"; done
  [ -n "${OLD_LIBDIR:-}" ] && : >"old.$np"
  for ((i = 0; i < runs; i++)); do
    for m in $modes; do one_run "$new_libdir" "$np" "$m" >>"new.$m.$np" || exit 1; done
    [ -n "${OLD_LIBDIR:-}" ] && { one_run "$OLD_LIBDIR" "$np" >>"old.$np" || exit 1; }
  done
  echo "np $np"
  for m in $modes; do summary "$m" "new.$m.$np"; done
  [ -n "${OLD_LIBDIR:-}" ] && summary old "old.$np"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
