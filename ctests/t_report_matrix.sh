#!/usr/bin/env bash
# papi-mpit-report's communication matrix (sender x receiver messages and
# bytes per kind, from Open MPI's monitoring through papi_mpit_peers_*).
# - report_matrix_app (a known pattern: common/peers.h point-to-point, one
#   barrier, one 400-byte broadcast from rank 0) under the tool with
#   --matrix, at 4 ranks with the default events, at 16 with a list that
#   names no monitoring event (-e mpit:::UNEXPECTED_MSGS: the tool turns the
#   monitoring on itself), with Open MPI's own printout at MPI_Finalize
#   (pml_monitoring_enable_output=3) and the self-check (the renderings
#   alone, matrix.svg at 4 ranks and in blocks at 300, are the unit test
#   report-matrix):
#   * Open MPI 5: p2p and coll exact at 4 and 16 ranks in report.json and
#     matrix.csv, and equal to Open MPI's printout, per pair, once the tool's
#     own traffic outside the counting window (self-check) and the MPI's own
#     (the printout of an idle run less the tool's traffic there: none on
#     Open MPI 5.0.9 and Debian's 4.1.4, three 4-byte collectives per pair in
#     MPI_Init on the 4.1.4 SPC build) are added: bytes and messages
#     exactly; the tool's point-to-point carries no byte.
#   * Open MPI 4.1 (openmpi, openmpi-spc): coll exact and equal to the
#     printout the same way; p2p absent, the reason naming open-mpi/ompi#9260.
#   * MPICH: no matrix, no files, and the note says MPICH has no per-peer
#     variables.
# - report_matrix_app rma (Open MPI, 4 ranks): rank r puts 8 (r+1) bytes to
#   r+1 and gets 24 bytes from r-1; rma_put and rma_get exact and equal to
#   the printout's S and R lines.
# - At 4 ranks (default events): every default metric the MPI cannot give is
#   grouped by reason after the table of report.txt, each with its reason in report.json
#   ("not_provided") and report.html, and not again among the skipped.
# - Without --matrix (the default) and with PAPI_MPIT_REPORT_MATRIX=0: no
#   matrix, no files, and the note says --matrix turns it on (Open MPI); the
#   monitoring stayed off (its printout at MPI_Finalize, asked for, is not
#   written), and COLL_BYTES_SENT is not provided, its reason saying
#   --matrix.
# timeout: 600
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert (librsvg2-bin) not installed"; exit 1; }
test_workdir report-matrix || exit 1
renders() { rsvg-convert "$1" -o "$1.png" 2>"$1.err" && [ -s "$1.png" ]; }

# ---- the known pattern under the tool
$MPICC -O2 -Wall -Wextra -Werror -I"$here/common" "$here/report_matrix_app.c" -o report_matrix_app \
  || { echo "FAIL: cannot build report_matrix_app"; exit 1; }
run() { timeout 180 $MPIRUN $MPIRUN_OPTS "$@"; }
case $FLAVOR in
  openmpi-[56]* | debian13-openmpi) kinds=p2p,coll; absent=; nps="4 16" ;;
  openmpi*) kinds=coll; absent=p2p:open-mpi/ompi#9260; nps="4 16" ;;
  *) kinds=; nps=4 ;;
esac
for np in $nps; do
  rm -rf prof$np && mkdir prof$np
  prof=()
  [ "$FAMILY" = openmpi ] && prof=(--mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$PWD/prof$np/prof")
  # 4 ranks: the default events; 16: a list that names no monitoring event
  events=(); [ $np = 16 ] && events=(-e mpit:::UNEXPECTED_MSGS)
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np $np "${prof[@]}" "$wrap" -q --matrix -o out$np "${events[@]}" ./report_matrix_app >out$np.out 2>out$np.err
  rc=$?
  if [ $np = 4 ]; then
    python3 - out$np <<'PY' >out$np.top 2>&1 && ok "np=4: the default metrics $FLAVOR cannot give: a line per reason after the table in report.txt, once in report.html, each with its own reason in report.json" || fail "np=4: not-provided lines: $(cat out$np.top)"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
txt, html = open(d + "/report.txt").read(), open(d + "/report.html").read()
head = txt.index("\nevent ")
after = txt[head:]
np_ = r["not_provided"]
assert np_, "none listed (every flavor lacks some default metric)"
assert list(r).index("not_provided") < list(r).index("events"), "not at the top of report.json"
def cause(m):
    short, why = m["name"].split(":::")[-1], m["reason"]
    if why.startswith(short + " ") and ": " in why:
        why = why.split(": ", 1)[1]
    return why
# a line per cause; a reason cut at the length limit (REPORT_REASON_LEN,
# 2048 bytes with the NUL) goes with the longer one it starts (the tool's
# rule, report_not_provided.c)
causes = {}
for m in np_:
    assert m["reason"], m
    c, cut = cause(m), len(m["reason"].encode()) >= 2047
    key = next((k for k in causes if k == c or (cut and k.startswith(c)) or (causes[k][1] and c.startswith(k))), None)
    if key is None:
        causes[c] = ([], cut)
        key = c
    causes[key][0].append(m["name"].split(":::")[-1])
lines = [l for l in after.split("\n") if l.split(" ", 1)[0].isdigit() and " metric" in l.split(":")[0]]
assert len(lines) == len(causes), "%d lines for %d reasons: %s" % (len(lines), len(causes), lines)
for c, (names, cut) in causes.items():
    n = len(names)
    want = "%d metric%s " % (n, "" if n == 1 else "s")
    want += ("need%s %s" % ("s" if n == 1 else "", c[len("it needs "):])) if c.startswith("it needs ") else "not provided by this MPI (%s)" % c
    line = [l for l in lines if l.endswith(": " + ", ".join(names))]
    assert len(line) == 1 and line[0].startswith(want[:120]), "no line %r in %s" % (want, lines)
    assert "\n" + line[0] in after, want + " not after the table"
assert "not provided" not in txt[:head] and "not available" not in txt[:head], "still at the top of report.txt"
assert html.count('<li data-names="') == len(causes), "report.html: not a line per reason"
assert 'id="not-provided">This MPI cannot give %d of the default metrics' % len(np_) in html, "no pointer at the top of report.html"
for m in np_:
    assert html.count("<code>%s</code>" % m["name"].split(":::")[-1]) == 1, m["name"] + " not once in report.html"
    assert f"skipped on all ranks: {m['name']} " not in txt, m["name"] + " repeated among the skipped"
print(len(np_), "metrics in", len(causes), "lines")
PY
  fi
  if [ -z "$kinds" ]; then
    if [ $rc = 0 ] && [ ! -e out$np/matrix.csv ] && [ ! -e out$np/matrix.svg ] && python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
sys.exit(r["matrix"] is not None or "MPICH has no per-peer variables" not in r.get("matrix_note", ""))' \
        out$np/report.json && grep -q "^communication matrix: none (MPICH has no per-peer variables" out$np/report.txt \
        && grep -q 'id="matrix-none"' out$np/report.html; then
      ok "np=$np: no matrix on $FLAVOR, and report.json, report.txt and report.html say why"
    else
      fail "np=$np (exit $rc): a matrix, or no reason, on $FLAVOR"
      cat out$np.err
    fi
    continue
  fi
  # the same run without the program's traffic: the MPI's own
  rm -rf idle$np && mkdir idle$np
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np $np --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename \
    "$PWD/idle$np/prof" "$wrap" -q --matrix -o idleout$np "${events[@]}" ./report_matrix_app idle >idle$np.out 2>idle$np.err
  rci=$?
  if [ $rc = 0 ] && [ $rci = 0 ] && python3 "$here/report_matrix_check.py" out$np $np $kinds $absent \
      --prof "$PWD/prof$np/prof" out$np.err --idle "$PWD/idle$np/prof" idle$np.err >out$np.check; then
    ok "np=$np: $kinds exact (CSV = JSON = the pattern)${absent:+, ${absent%%:*} absent with its reason}; Open MPI's printout = matrix + the tool's own traffic + the MPI's own ($(tr '\n' ';' <out$np.check))"
  else
    fail "np=$np (exit $rc, idle run $rci): $(head -20 out$np.check 2>/dev/null)"
    tail -20 out$np.err
  fi
  # only the SPC build of 4.1.4 is known to send its own collectives in MPI_Init
  [ "$FLAVOR" != openmpi-spc ] && grep -q "\[(" out$np.check && fail "np=$np: the MPI's own traffic on $FLAVOR: $(cat out$np.check)"
  renders out$np/matrix.svg && ok "np=$np: matrix.svg renders" || fail "np=$np: matrix.svg does not render"
  grep -q '<h3 id="matrix">' out$np/report.html && grep -q 'id="matrix-table"' out$np/report.html \
    && ok "np=$np: report.html has the matrix" || fail "np=$np: report.html lacks the matrix"
done

# ---- one-sided only (report_matrix_app rma, 4 ranks, default events as in the
# idle run above): rma_put and rma_get exact, and equal to the printout's S
# and R lines (bytes: Open MPI counts a get as a zero-byte "sent" too)
if [ "$FAMILY" = openmpi ]; then
  rm -rf profrma && mkdir profrma
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np 4 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename \
    "$PWD/profrma/prof" "$wrap" -q --matrix -o outrma ./report_matrix_app rma >outrma.out 2>outrma.err
  rc=$?
  if [ $rc = 0 ] && python3 "$here/report_matrix_check.py" outrma 4 rma_put,rma_get $absent \
      --prof "$PWD/profrma/prof" outrma.err --idle "$PWD/idle4/prof" idle4.err >outrma.check; then
    ok "rma: rma_put and rma_get exact, and equal to Open MPI's printout"
  else
    fail "rma (exit $rc): $(head -20 outrma.check 2>/dev/null)"
  fi
fi

# ---- off: by default, and with PAPI_MPIT_REPORT_MATRIX=0.  Open MPI's own
# printout at MPI_Finalize, asked for, tells whether its monitoring ran.
for how in default zero; do
  rm -rf off-$how prof-$how && mkdir prof-$how
  prof=()
  [ "$FAMILY" = openmpi ] && prof=(--mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$PWD/prof-$how/prof")
  env=(); [ $how = zero ] && env=(PAPI_MPIT_REPORT_MATRIX=0)
  env "${env[@]}" timeout 180 $MPIRUN $MPIRUN_OPTS -np 2 "${prof[@]}" "$wrap" -q -o off-$how ./report_matrix_app >off-$how.out 2>off-$how.err
  rc=$?
  if [ "$FAMILY" = openmpi ]; then
    want_note="off: --matrix (PAPI_MPIT_REPORT_MATRIX=1) turns on Open MPI's monitoring"
  else
    want_note="the MPI has no per-peer variables"
  fi
  if [ $rc = 0 ] && [ ! -e off-$how/matrix.csv ] && [ ! -e off-$how/matrix.svg ] \
      && grep -qF "communication matrix: none ($want_note" off-$how/report.txt \
      && python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(r["matrix"] is not None or not r.get("matrix_note", "").startswith(sys.argv[2]))' \
         off-$how/report.json "$want_note"; then
    ok "matrix off ($how): no matrix, no matrix files, the note says how to have it"
  else
    fail "matrix off ($how; exit $rc): $(ls off-$how); $(grep "communication matrix" off-$how/report.txt)"
  fi
  if [ "$FAMILY" = openmpi ]; then
    # the monitoring never ran: no printout, and the metrics that need it are
    # not provided, their reason saying how to have them
    if [ -z "$(ls prof-$how)" ] && python3 - off-$how/report.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
names = {e["name"] for e in r["events"]}
assert "mpit:::COLL_BYTES_SENT" not in names, "COLL_BYTES_SENT measured"
why = {m["name"]: m["reason"] for m in r["not_provided"]}
assert why["mpit:::COLL_BYTES_SENT"].endswith("papi-mpit-report leaves the monitoring off unless --matrix is given"), why
PY
    then
      ok "matrix off ($how): Open MPI's monitoring stayed off (no printout), COLL_BYTES_SENT not provided, saying --matrix"
    else
      fail "matrix off ($how): monitoring printout $(ls prof-$how | tr '\n' ' ') or COLL_BYTES_SENT's reason wrong"
    fi
  fi
done

[ $fails -eq 0 ] && echo "PASS t_report_matrix ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
