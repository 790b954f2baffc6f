#!/usr/bin/env bash
# papi-mpit-report's report.html in a real browser, on a real 4-rank run of
# demo/traffic.c: headless Chromium opens the page (ctests/report_html_check.py)
# and finds no script error, a heatmap cell per event and rank whose value is
# report.json's, the summary table equal to report.json and sortable, every
# skipped event with its reason; a screenshot is kept (report/page.png).  What
# the flavor has is checked too: the sender matrix and the sentence naming the
# rank with the most unexpected messages and its largest sender (MPI_T
# events), UNEXPECTED_MSGS drawn (Open MPI's SPCs).  overview.svg and
# chart.svg render (rsvg-convert).  The 256- and 1024-rank pages are checked
# without MPI by ctests/report_html_scale.sh (unit/report-html).
# scope: kind (the page shows what the kind measures: senders, SPCs)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
command -v chromium >/dev/null || { echo "SKIP chromium is not installed (scripts/deps.sh installs it)"; exit 77; }
lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$FAMILY.so
[ -f "$lib" ] || { echo "SKIP no $FAMILY interposer in this build ($lib)"; exit 77; }
test_workdir report-html || exit 1

$MPICC -O2 -Wall "$here/../demo/traffic.c" -o traffic || { echo "FAIL: cannot build demo/traffic.c"; exit 1; }
checks=()
case $FLAVOR in
  # MPICH 4.0 tells senders; 4.1 and later cannot (no communicator in the event)
  mpich-events) checks+=(--expect-senders --drawn mpit:::UNEXPECTED_MSGS) ;;
  mpich*-events) checks+=(--drawn mpit:::UNEXPECTED_MSGS) ;;
  openmpi*-spc) export OMPI_MCA_mpi_spc_attach=all; checks+=(--drawn mpit:::UNEXPECTED_MSGS) ;;
esac
timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o report ./traffic >run.out 2>run.err
rc=$?
cat run.err
[ $rc = 0 ] && [ -s report/report.html ] && [ -s report/overview.svg ] \
  && ok "4 ranks: report.html and overview.svg written" || fail "4 ranks: exit $rc, files: $(ls report 2>&1)"
if [ -s report/report.html ]; then
  timeout 120 python3 "$here/report_html_check.py" report report/page.png "${checks[@]}" \
    && ok "report.html in Chromium ($FLAVOR): screenshot $work/report/page.png" || fail "report.html in Chromium"
  grep -q '<script src\|<link\|https:' report/report.html && fail "report.html fetches something"
fi
for f in overview chart; do
  rsvg-convert report/$f.svg -o report/$f.png 2>/dev/null && [ -s report/$f.png ] \
    && ok "$f.svg renders" || fail "$f.svg does not render"
done

[ $fails -eq 0 ] && echo "PASS t_report_html ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
