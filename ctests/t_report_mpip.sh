#!/usr/bin/env bash
# The figures mpiP users look for, exact where the truth is known
# (report_mpip_app.c says what the program does, report_mpip_check.py what
# the report must say): the calls that make and free communicators and
# datatypes as sites with their calls per rank; per site and rank the
# longest and shortest single call, one of them at least a compute time the
# program measured; each rank's time in MPI as a share of its run, in
# report.json, ranks.csv, the table and the page.
# scope: library (the wrappers of each release and ABI: a rebuild with SPCs or MPI_T events changes no call)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-mpip || exit 1
# -O0: each marked line keeps its own call
$MPICC -g -O0 -Wall "$here/report_mpip_app.c" -o report_mpip_app || { echo "FAIL: cannot build report_mpip_app"; exit 1; }
np=4
timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o out ./report_mpip_app >out.txt 2>err.txt
rc=$?
[ $rc = 0 ] && ok "np=$np: exit 0" || { fail "np=$np: exit $rc"; cat err.txt; exit 1; }
compute=$(sed -n 's/^compute_ns: //p' out.txt)
[ -n "$compute" ] || { fail "rank 1 printed no compute time"; cat out.txt; exit 1; }
python3 "$here/report_mpip_check.py" "$here/report_mpip_app.c" out $np "$compute" || fails=$((fails + 1))
[ $fails = 0 ]
