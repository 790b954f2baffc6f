#!/usr/bin/env bash
# The findings name a pair of ranks only where it stands out (at least
# twice the mean pair's bytes), and otherwise say once that the
# point-to-point traffic is even, with the range of the pairs' bytes; the
# figures are those of p2p.csv (whose exactness t_report_sites asserts):
#  - report_pairs -s at 4 ranks: a ring of 1000 bytes a pair and 8000 more
#    from rank 0 to rank 1: "Heaviest pair: rank 0 sends rank 1 8.79 KiB in 2
#    messages, 3.0 times the mean pair's ...";
#  - report_pairs -p at 4 ranks: every pair the same bytes: "Point-to-point
#    traffic is even: 12 pairs of ranks, ... each."
# scope: family (findings computed from the program's matrix, not the MPI)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-findings || exit 1
$MPICC -O2 -Wall -Wextra -Werror "$here/report_pairs.c" -o report_pairs || { echo "FAIL: cannot build report_pairs"; exit 1; }
for mode in s p; do
  timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o out-$mode ./report_pairs -$mode >$mode.out 2>$mode.err
  rc=$?
  [ $rc = 0 ] || { fail "report_pairs -$mode: status $rc"; cat $mode.err; continue; }
  python3 - out-$mode $mode <<'PY' || fails=$((fails + 1))
import csv, sys
d, mode = sys.argv[1:]
cells = [(int(r["sender"]), int(r["receiver"]), int(r["messages"]), int(r["bytes"])) for r in csv.DictReader(open(d + "/p2p.csv"))]
cells = [c for c in cells if c[3] > 0]
txt = open(d + "/report.txt").read().split("\n\n")[0]
found = [l[4:] for l in txt.splitlines() if l.startswith("  * ")]
pair = [f for f in found if f.startswith(("Heaviest pair:", "Point-to-point traffic is even:"))]
mean = sum(c[3] for c in cells) / len(cells)
top = max(cells, key=lambda c: c[3])
want = {"s": (0, 1, 8000 + 1000, 2), "p": None}[mode]
if len(pair) != 1:
    print("FAIL: -%s: not one finding about pairs: %s" % (mode, found)); sys.exit(1)
if want:
    if (top[0], top[1], top[3], top[2]) != want or top[3] < 2 * mean:
        print("FAIL: -%s: p2p.csv's heaviest pair %s is not the program's %s" % (mode, top, want)); sys.exit(1)
    head = "Heaviest pair: rank %d sends rank %d " % (top[0], top[1])
    ok = pair[0].startswith(head) and (" in %d messages, %.1f times the mean pair's " % (top[2], top[3] / mean)) in pair[0]
else:
    if top[3] >= 2 * mean or len(cells) != 12 or len({c[3] for c in cells}) != 1:
        print("FAIL: -p: p2p.csv is not 12 equal pairs: %s" % cells); sys.exit(1)
    ok = pair[0].startswith("Point-to-point traffic is even: 12 pairs of ranks, ") and pair[0].endswith(" each.")
if not ok:
    print("FAIL: -%s: %r" % (mode, pair[0])); sys.exit(1)
print("ok: -%s: %s" % (mode, pair[0]))
PY
done
[ $fails -eq 0 ] || exit 1
exit 0
