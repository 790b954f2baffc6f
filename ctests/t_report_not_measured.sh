#!/usr/bin/env bash
# The terminal names the default metrics this MPI cannot give once, in at
# most three lines, one per thing that would give them (an Open MPI
# rebuild, an MPICH rebuild, Open MPI's monitoring), each with its metrics;
# every metric of report.json's "not_provided" is on one of them, under each
# remedy its reason names (exactly), and the lines point to report.txt,
# which keeps a line per reason.  Nothing about them before the program's
# own output.
# scope: kind (what is not measured is what the kind lacks)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-not-measured || exit 1
$MPICC -O2 "$here/report_app.c" -o report_app || { echo "FAIL: cannot build report_app"; exit 1; }
timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$wrap" -o out ./report_app >app.out 2>app.err
rc=$?
[ $rc = 0 ] || { fail "the tool's run: status $rc"; cat app.err; exit 1; }
python3 - app.err out/report.json <<'PY' || fails=$((fails + 1))
import json, sys
err, rep = open(sys.argv[1]).read().splitlines(), json.load(open(sys.argv[2]))
np_ = {m["name"].split(":::")[-1]: m["reason"] for m in rep["not_provided"]}
lines = [l for l in err if l.startswith("not measured")]
# the remedies as the man page names them, and the words of a reason that name each
remedies = [("Open MPI built with --enable-spc", ("--enable-spc", "Open MPI 6.0 or later")),
            ("MPICH built with --enable-mpit-events=yes", ("MPICH built with",)),
            ("Open MPI's monitoring", ("monitoring on",))]
bad = 0
def fail(msg):
    global bad
    bad = 1
    print("FAIL: " + msg)
if not np_:
    if lines: fail("nothing is missing, yet: %s" % lines)
    print("ok: this MPI gives every default metric"); sys.exit(bad)
if not 1 <= len(lines) <= 3: fail("%d 'not measured' lines: %s" % (len(lines), lines))
if any("default metric" in l for l in err[:err.index(lines[0]) if lines else 0] if "papi-mpit" in l):
    fail("a line about them before the report")
seen = set()
for label, words in remedies:
    want = sorted(n for n, why in np_.items() if any(w in why for w in words))
    got = [l for l in lines if label in l]
    if not want:
        if got: fail("a line for %s with nothing under it: %s" % (label, got))
        continue
    if len(got) != 1: fail("not one line for %s: %s" % (label, got)); continue
    names = got[0].split(": ", 1)[1].split(" (")[0].split("; also ")[0].split(", ")
    if sorted(names) != want: fail("%s: %s, want %s" % (label, names, want))
    seen.update(names)
rest = set(np_) - seen
for n in rest:
    if not any(n in l for l in lines): fail(n + " on no line")
if "every reason in report.txt" not in lines[-1]: fail("the last line does not point to report.txt: " + lines[-1])
print("ok: %d metrics in %d lines" % (len(np_), len(lines)))
sys.exit(bad)
PY
[ $fails -eq 0 ] && ok "the terminal's not-measured lines" || exit 1
exit 0
