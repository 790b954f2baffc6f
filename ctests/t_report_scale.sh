#!/usr/bin/env bash
# papi-mpit-report at 128 ranks (oversubscribed on this machine): the
# collection tree (utils/report/collect/report_collect.c) brings every rank's record to
# rank 0.
# - A trivial program (MPI_Init, MPI_Finalize): report.json has 128 ranks,
#   every event measured on all of them and consistent with ranks.csv and
#   report.txt (report_check.py), tool_s.collection is there, and
#   report.html opens in headless Chromium without an error, its heatmap a
#   cell per rank equal to report.json (report_html_check.py).
# - report_flood -k 1 (rank r's unexpected queue peaks at r + 1, held until
#   sampled): UNEXPECTED_QUEUE_MAX is exactly r + 1 on every rank r, so
#   every record arrived and sits at its own rank.
# - Ranks whose records differ (MPMD: other events on ranks 2 to 4, so
#   that their templates differ from rank 0's): every rank's values and
#   skips land where they belong.
# flavors: openmpi
# scope: family (the collection tree, the merge of templates and the page are the tool's own)
# timeout: 900
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-scale || exit 1
NP=128
run() { timeout 400 $MPIRUN $MPIRUN_OPTS "$@"; }
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n' >trivial.c
$MPICC trivial.c -o trivial || { echo "FAIL: cannot build trivial.c"; exit 1; }
$MPICC -O2 -Wall -Wextra -Werror "$here/report_flood.c" -o report_flood || { echo "FAIL: cannot build report_flood"; exit 1; }

run -np $NP "$wrap" -q -o out ./trivial >trivial.out 2>trivial.err
rc=$?
if [ $rc = 0 ] && python3 "$here/report_check.py" out $NP --measured perf::TASK-CLOCK \
    --measured mpit:::UNEXPECTED_QUEUE_MAX >trivial.check; then
  ok "$NP ranks: report.json, ranks.csv and report.txt hold every rank ($(tail -1 trivial.check))"
else
  fail "$NP ranks (exit $rc): $(cat trivial.check 2>/dev/null)"
  tail -20 trivial.err
fi
python3 -c 'import json, sys; t = json.load(open(sys.argv[1]))["tool_s"]; print(t["collection"])' \
  out/report.json >collection.txt 2>/dev/null && ok "tool_s.collection: $(cat collection.txt) s" \
  || fail "no tool_s.collection in report.json"
if command -v chromium >/dev/null; then
  [ -s out/report.html ] && timeout 300 python3 "$here/report_html_check.py" out out/page.png \
    && ok "report.html of $NP ranks in Chromium" || fail "report.html of $NP ranks"
else
  python3 -c 'import html.parser, sys
class P(html.parser.HTMLParser): pass
P().feed(open(sys.argv[1]).read())' out/report.html && grep -q '</html>' out/report.html \
    && ok "report.html parses (no chromium here)" || fail "report.html"
fi

run -np $NP "$wrap" -q -o flood -e mpit:::UNEXPECTED_QUEUE_MAX ./report_flood -k 1 >flood.out 2>flood.err
rc=$?
got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
v = {e["name"]: e["values"] for e in r["events"]}["mpit:::UNEXPECTED_QUEUE_MAX"]
bad = [(k, x) for k, x in enumerate(v) if x != k + 1]
print("%d ranks, %d wrong: %s" % (len(v), len(bad), bad[:5]))' flood/report.json 2>&1)
[ $rc = 0 ] && [ "$got" = "$NP ranks, 0 wrong: []" ] \
  && ok "flood: UNEXPECTED_QUEUE_MAX of rank r is r + 1 on all $NP ranks" \
  || { fail "flood (exit $rc): $got"; tail -20 flood.err; }

# ranks 0-1: the defaults; 2: TASK-CLOCK only; 3-4: TASK-CLOCK and UNEXPECTED_QUEUE_MAX
run -np 2 "$wrap" -q -o mixed ./report_flood -k 1 : -np 1 "$wrap" -q -o mixed -e perf::TASK-CLOCK ./report_flood -k 1 \
  : -np 2 "$wrap" -q -o mixed -e perf::TASK-CLOCK,mpit:::UNEXPECTED_QUEUE_MAX ./report_flood -k 1 >mixed.out 2>mixed.err
rc=$?
got=$(python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
v = {e["name"]: e["values"] for e in r["events"]}
k = {s["name"]: s["ranks"] for s in r["skipped"]}
print(v["mpit:::UNEXPECTED_QUEUE_MAX"], [x is not None for x in v["perf::TASK-CLOCK"]], v["mpit:::POSTED_QUEUE_MAX"],
      k.get("mpit:::BYTES_SENT"))' mixed/report.json 2>&1)
want="[1, 2, None, 4, 5] [True, True, True, True, True] [0, 0, None, None, None] 2"
[ $rc = 0 ] && [ "$got" = "$want" ] && ! grep -q malformed mixed.err \
  && ok "ranks with other events: each rank's values and skips in place" \
  || { fail "mixed (exit $rc): '$got', expected '$want'"; tail -20 mixed.err; }

[ $fails -eq 0 ] && echo "PASS t_report_scale ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
