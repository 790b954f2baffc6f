#!/usr/bin/env bash
# papi-mpit-report's receiver x sender matrix of unexpected messages.
# - The renderings without MPI (utils/report/tests/test_senders.c): top senders,
#   CSV, JSON, the note when there is no source, rank labels that never
#   overlap from 2 to 256 ranks; the 4- and 256-rank heatmaps render.
# - The early ring (report_pairs -r -c, 4 ranks): rank r sends r+1 messages
#   and a token to (r+1) mod 4, all queued before any receive, so receiver
#   (r+1) mod 4 has exactly r+2 from rank r and nothing from anyone else.
#   mpich-events: the "count" kind, exact, and every row adds up to the
#   rank's UNEXPECTED_MSGS.  openmpi-spc: the "queue_max" kind, exact too,
#   since the program's MPI_Pcontrol makes the tool look at the queues while
#   all of it waits there.  Twice each; the tool's own messages (start-up and
#   collection) would show as extra counts.  The CSV equals the JSON, the SVG
#   renders, report.txt names the sender of each receiver.
# - PAPI_MPIT_REPORT_SENDERS=0: no matrix, no files, no note.
# scope: kind (the sender matrix comes from MPI_T events or SPCs)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
case $KIND in
  mpich-events) kind=count ;;
  openmpi-spc) kind=queue_max ;;
  *) echo "SKIP senders are exact with MPI_T events (mpich-events) or ob1's queue per peer (openmpi-spc)"; exit 77 ;;
esac
command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert (librsvg2-bin) not installed"; exit 1; }
test_workdir report-senders || exit 1
# a PNG of nonzero size from an SVG
renders() { rsvg-convert "$1" -o "$1.png" 2>"$1.err" && [ -s "$1.png" ]; }

# ---- the renderings alone
if cc -Wall -Wextra -Werror -I"$here/../utils/report/render" "$here/../utils/report/tests/test_senders.c" "$here/../utils/report/render/report_job.c" "$here/../utils/report/render/report_not_provided.c" "$here/../utils/report/render/report_stats.c" "$here/../utils/report/render/report_text.c" "$here/../utils/report/render/report_json.c" "$here/../utils/report/render/report_svg.c" "$here/../utils/report/render/report_write_file.c" "$here/../utils/report/render/report_units.c" "$here/../utils/report/render/report_matrix.c" "$here/../utils/report/render/report_kit.c" \
    $(pkg-config --cflags --libs jansson) -lm -o test_senders && ./test_senders unit; then
  ok "unit: top senders, CSV, JSON, note, labels from 2 to 256 ranks"
  python3 -m json.tool unit/senders4.json >/dev/null && ok "unit: the JSON parses" || fail "unit: senders4.json"
  for f in senders4 senders256; do
    renders unit/$f.svg && ok "unit: $f.svg renders ($(stat -c %s unit/$f.svg.png) bytes of PNG)" \
      || { fail "unit: $f.svg does not render"; cat unit/$f.svg.err; }
  done
else
  fail "unit test test_senders"
fi

# ---- the early ring under the tool
$MPICC -O2 -Wall -Wextra -Werror "$here/report_pairs.c" -o report_pairs || { echo "FAIL: cannot build report_pairs"; exit 1; }
run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }
[ "$KIND" = openmpi-spc ] && export OMPI_MCA_mpi_spc_attach=all
# MPICH 4.1 and later name no communicator in the queue events, and 5.0
# aborts when event data is read, so they cannot tell senders: the report
# then has no matrix and its note says why
case $FLAVOR in
  mpich-5.0*) kind=refused; reason=MPI_T_event_read ;;
  mpich-4.[1-9]*) kind=refused; reason=communicator ;;
esac
for i in 1 2; do
  run -np 4 "$wrap" -q -o ring$i -e mpit:::UNEXPECTED_MSGS ./report_pairs -r -c >ring$i.out 2>ring$i.err
  rc=$?
  if [ $kind = refused ]; then
    if [ $rc = 0 ] && [ ! -e ring$i/senders.csv ] && python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
sys.exit(r["senders"] is not None or sys.argv[2] not in r.get("senders_note", ""))' ring$i/report.json "$reason"; then
      ok "early ring run $i: no sender matrix on $FLAVOR, and the note says why"
    else
      fail "early ring run $i (exit $rc): a matrix, or no reason, on $FLAVOR"
    fi
    continue
  fi
  if [ $rc = 0 ] && python3 "$here/report_senders_check.py" ring$i 4 $kind >ring$i.check; then
    ok "early ring run $i: $kind matrix exact, CSV = JSON, top senders in report.txt"
  else
    fail "early ring run $i (exit $rc): $(cat ring$i.check 2>/dev/null)"
    cat ring$i.err
  fi
  renders ring$i/senders.svg && ok "run $i: senders.svg renders" || fail "run $i: senders.svg does not render"
done

# ---- turned off
PAPI_MPIT_REPORT_SENDERS=0 run -np 4 "$wrap" -q -o off -e mpit:::UNEXPECTED_MSGS ./report_pairs -r -c >off.out 2>off.err
rc=$?
if [ $rc = 0 ] && [ ! -e off/senders.csv ] && [ ! -e off/senders.svg ] && ! grep -q "by sender" off/report.txt \
    && python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(r["senders"] is not None or "senders_note" in r)' \
       off/report.json; then
  ok "PAPI_MPIT_REPORT_SENDERS=0: no matrix, no sender files, no note"
else
  fail "PAPI_MPIT_REPORT_SENDERS=0 (exit $rc): $(ls off)"
fi

[ $fails -eq 0 ] && echo "PASS t_report_senders ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
