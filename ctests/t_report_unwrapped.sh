#!/usr/bin/env bash
# Every function of this flavor's mpi.h is wrapped by papi-mpit-report's
# interposer, or has its reason in utils/report/interpose/mpi-unwrapped.tsv.
# The functions: the MPI_ names the header, preprocessed by the flavor's own
# compiler, declares as functions with their PMPI_ twins (a typedef of a
# callback's type has none); wrapped: defined by the interposer the flavor's
# programs load (the calls of mpi-calls.tsv, and the start and end).  Prints
# each function that is neither.
# scope: library (the wrappers of each release and ABI: a rebuild with SPCs or MPI_T events changes no call)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-unwrapped || exit 1
table=$here/../utils/report/interpose/mpi-unwrapped.tsv
[ -f "$table" ] || { echo "FAIL: no $table"; exit 1; }

case $MPICC in *abi*) lib=abi ;; *) lib=$FAMILY ;; esac
so=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$lib.so
[ -f "$so" ] || { echo "SKIP no interposer for $lib ($so): the build found no such MPI"; exit 77; }

printf '#include <mpi.h>\n' >hdr.c
$MPICC -E hdr.c >hdr.i 2>hdr.err || { echo "FAIL: $MPICC -E cannot preprocess mpi.h"; cat hdr.err; exit 1; }
declared() { grep -oE "\\b$1MPI_[A-Za-z0-9_]+[[:space:]]*\\(" hdr.i | sed -E 's/[[:space:](]+$//' | sort -u; }
declared "" >mpi.names
declared P | sed 's/^P//' >pmpi.names
comm -12 mpi.names pmpi.names >functions
n=$(wc -l <functions)
[ "$n" -ge 300 ] && ok "mpi.h declares $n MPI_ functions with PMPI_ twins" || fail "only $n MPI_ functions found in mpi.h"

nm -D --defined-only "$so" | awk '$2 == "T" && $3 ~ /^MPI_/ { print $3 }' | sort -u >wrapped
w=$(comm -12 functions wrapped | wc -l)
[ "$w" -ge 100 ] && ok "the interposer ($(basename "$so")) wraps $w of them" || fail "the interposer wraps only $w of them"

# excluded: the first pattern of the table that matches
mapfile -t patterns < <(grep -v '^#' "$table" | grep -v '^$' | cut -f1)
set -f # the patterns match names, not files
missing=""
while read -r f; do
  hit=""
  for p in "${patterns[@]}"; do
    # shellcheck disable=SC2254
    case $f in $p) hit=$p; break ;; esac
  done
  [ -n "$hit" ] || missing="$missing $f"
done < <(comm -23 functions wrapped)
set +f
excluded=$(( n - w - $(wc -w <<<"$missing") ))
if [ -z "$missing" ]; then
  ok "the other $excluded are in mpi-unwrapped.tsv with their reasons"
else
  fail "functions of mpi.h neither wrapped nor in mpi-unwrapped.tsv ($(wc -w <<<"$missing")):$missing"
fi
# a table row is a pattern and a reason
bad=$(grep -v '^#' "$table" | grep -v '^$' | awk -F'\t' 'NF != 2 || $2 == "" { print NR": "$0 }')
[ -z "$bad" ] && ok "each row of mpi-unwrapped.tsv is a pattern and its reason" || fail "rows without a reason: $bad"
[ $fails = 0 ]
