#!/usr/bin/env bash
# papi-mpit-report's communication matrix (sender x receiver messages and
# bytes per kind, from Open MPI's monitoring through papi_mpit_peers_*).
# - The renderings alone (utils/tests/test_matrix.c): matrix.svg renders at 4
#   ranks and in blocks at 300.
# - report_matrix_app (a known pattern: common/peers.h point-to-point, one
#   barrier, one 400-byte broadcast from rank 0) under the tool, at 4 ranks
#   with the default events, at 16 with a list that names no monitoring
#   event (-e mpit:::UNEXPECTED_MSGS: the tool turns the monitoring on
#   itself), with Open MPI's own printout at MPI_Finalize
#   (pml_monitoring_enable_output=3) and the self-check:
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
#   named with its reason at the top of report.txt, report.json
#   ("not_provided") and report.html, and not again among the skipped.
# - PAPI_MPIT_REPORT_MATRIX=0: no matrix, no files, no note.
# timeout: 600
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert (librsvg2-bin) not installed"; exit 1; }
test_workdir report-matrix || exit 1
renders() { rsvg-convert "$1" -o "$1.png" 2>"$1.err" && [ -s "$1.png" ]; }

# ---- the renderings alone
if cc -Wall -Wextra -Werror -I"$here/../utils" "$here/../utils/tests/test_matrix.c" "$here/../utils/report_output.c" \
    "$here/../utils/report_matrix.c" -lm -o test_matrix && ./test_matrix unit; then
  ok "unit: CSV, JSON, table lines, note, blocks beyond 128 ranks"
  for f in matrix4 matrix300; do
    renders unit/$f.svg && ok "unit: $f.svg renders" || { fail "unit: $f.svg does not render"; cat unit/$f.svg.err; }
  done
else
  fail "unit test test_matrix"
fi

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
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np $np "${prof[@]}" "$wrap" -q -o out$np "${events[@]}" ./report_matrix_app >out$np.out 2>out$np.err
  rc=$?
  if [ $np = 4 ]; then
    python3 - out$np <<'PY' >out$np.top 2>&1 && ok "np=4: the default metrics $FLAVOR cannot give, each with its reason, at the top of report.txt, report.json and report.html" || fail "np=4: not-provided lines: $(cat out$np.top)"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
txt, html = open(d + "/report.txt").read(), open(d + "/report.html").read()
top, box = txt[: txt.index("\nevent ") + 1], html[html.index('<div id="not-provided">') :]
box = box[: box.index("</div>")]
np_ = r["not_provided"]
assert np_, "none listed (every flavor lacks some default metric)"
assert list(r).index("not_provided") < list(r).index("events"), "not at the top of report.json"
for m in np_:
    assert m["reason"], m
    assert f"  not provided by this MPI: {m['name']}: {m['reason']}\n" in top, m["name"] + " not at the top of report.txt"
    assert f"<li><code>{m['name']}</code>: " in box, m["name"] + " not at the top of report.html"
    assert f"skipped on all ranks: {m['name']} " not in txt, m["name"] + " repeated among the skipped"
print(len(np_), "listed")
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
    "$PWD/idle$np/prof" "$wrap" -q -o idleout$np "${events[@]}" ./report_matrix_app idle >idle$np.out 2>idle$np.err
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
  grep -q '<h2 id="matrix">' out$np/report.html && grep -q 'id="matrix-table"' out$np/report.html \
    && ok "np=$np: report.html has the matrix" || fail "np=$np: report.html lacks the matrix"
done

# ---- one-sided only (report_matrix_app rma, 4 ranks, default events as in the
# idle run above): rma_put and rma_get exact, and equal to the printout's S
# and R lines (bytes: Open MPI counts a get as a zero-byte "sent" too)
if [ "$FAMILY" = openmpi ]; then
  rm -rf profrma && mkdir profrma
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np 4 --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename \
    "$PWD/profrma/prof" "$wrap" -q -o outrma ./report_matrix_app rma >outrma.out 2>outrma.err
  rc=$?
  if [ $rc = 0 ] && python3 "$here/report_matrix_check.py" outrma 4 rma_put,rma_get $absent \
      --prof "$PWD/profrma/prof" outrma.err --idle "$PWD/idle4/prof" idle4.err >outrma.check; then
    ok "rma: rma_put and rma_get exact, and equal to Open MPI's printout"
  else
    fail "rma (exit $rc): $(head -20 outrma.check 2>/dev/null)"
  fi
fi

# ---- turned off
PAPI_MPIT_REPORT_MATRIX=0 run -np 2 "$wrap" -q -o off -e mpit:::UNEXPECTED_MSGS ./report_matrix_app >off.out 2>off.err
rc=$?
if [ $rc = 0 ] && [ ! -e off/matrix.csv ] && [ ! -e off/matrix.svg ] && ! grep -q "communication matrix" off/report.txt \
    && python3 -c 'import json,sys; r = json.load(open(sys.argv[1])); sys.exit(r["matrix"] is not None or "matrix_note" in r)' \
       off/report.json; then
  ok "PAPI_MPIT_REPORT_MATRIX=0: no matrix, no matrix files, no note"
else
  fail "PAPI_MPIT_REPORT_MATRIX=0 (exit $rc): $(ls off)"
fi

[ $fails -eq 0 ] && echo "PASS t_report_matrix ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
