#!/usr/bin/env bash
# papi-mpit-report's timeline of a job SIGKILLed whole (issue 49): each
# rank's last calls, from the ring of its thread in its mapped state file
# (sites/site_timeline.h), written by --merge as timeline.json (trace
# events) and, where the build has libotf2, an OTF2 archive.  timeline_ring.c
# at 4 ranks: 5 MPI_Sendrecv of known peer, tag and bytes, a barrier, then
# a receive no rank ever sends (a ring deadlock).  --merge is polled on the
# live job until it names the cycle of 4 (no sleep as synchronisation),
# then every process of the job gets SIGKILL at once, no signal first.
# Checked, for every rank: timeline.json holds exactly those 6 calls in
# order (call numbers 1-6, name, peer = the left neighbour, tag, bytes
# sent and received, the program's line), then the receive in progress (a
# "B" event with no end, marked in_progress), begin <= end and each call
# after the one before; otf2-print of the archive shows the same 7 calls
# per rank (6 Enter/Leave pairs, one Enter with in_progress).  Chromium,
# where installed, loads nothing here: the trace's viewers are not tested.
# flavors: openmpi mpich
# timeout: 300
# scope: family (the kernel keeps a killed rank's mapped file whatever the launcher: the test kills every process itself)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-timeline || exit 1
$MPICC -g -O0 -Wall -Wextra -Werror "$here/timeline_ring.c" -o timeline_ring || { echo "FAIL: cannot build timeline_ring"; exit 1; }
np=4
line() { grep -n "site:$1" "$here/timeline_ring.c" | cut -d: -f1; }
sr=$(($(line sendrecv) + 1)) barrier=$(line barrier) ring=$(line ring)

descendants() {
  local c
  for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; descendants "$c"; done
}
cycle_seen() {
  "$wrap" --merge "$1" >/dev/null 2>&1 && sed -n 2p "$1/report.txt" | grep -q "a cycle of $np ranks"
}

set -m # the job in a process group of its own
d=$PWD/ring
mkdir -p "$d"
timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --snapshot-period 0 ./timeline_ring \
  </dev/null >"$d.out" 2>"$d.err" &
pgid=$!
seen=
end=$((SECONDS + 30))
while [ $SECONDS -lt $end ]; do cycle_seen "$d" && { seen=1; break; }; sleep 0.2; done
procs=$(descendants $pgid)
kill -KILL -- -$pgid $procs 2>/dev/null
{ wait $pgid; } 2>/dev/null
[ -n "$seen" ] || { fail "--merge never saw the cycle of $np ranks in 30 s"; cat "$d.err"; exit 1; }
rm -f "$d"/report.* "$d"/timeline.json
rm -rf "$d"/timeline-otf2
"$wrap" --merge "$d" >"$d.merge.out" 2>"$d.merge.err" || { fail "--merge failed"; cat "$d.merge.err"; }
grep -q "wrote timeline.json in $d" "$d.merge.err" || fail "--merge did not say it wrote timeline.json: $(cat "$d.merge.err")"

# the JSON: exact events per rank
python3 - "$d/timeline.json" "$np" "$sr" "$barrier" "$ring" <<'PY' || fail "timeline.json is not the program's calls"
import json, sys
path, np, sr, barrier, ring = sys.argv[1], *map(int, sys.argv[2:])
ev = json.load(open(path))["traceEvents"]
bad = []
for r in range(np):
    left = (r + np - 1) % np
    want = [("X", "MPI_Sendrecv", i + 1, {"peer": left, "tag": 10 + i, "bytes": 8 * (i + 1), "sent": 4 * (i + 1),
                                          "received": 4 * (i + 1), "comm": "world", "site": f"timeline_ring.c:{sr}"})
            for i in range(5)]
    want.append(("X", "MPI_Barrier", 6, {"bytes": 0, "sent": 0, "received": 0, "comm": "world",
                                         "site": f"timeline_ring.c:{barrier}"}))
    want.append(("B", "MPI_Recv", 7, {"peer": left, "tag": 99, "comm": "world", "site": f"timeline_ring.c:{ring}",
                                      "in_progress": True}))
    mine = [e for e in ev if e.get("pid") == r and e["ph"] in ("X", "B", "E")]
    got = [(e["ph"], e["name"], e["args"]["call"], {k: v for k, v in e["args"].items() if k != "call"}) for e in mine]
    if got != want:
        bad.append(f"rank {r}: got {got}\n  want {want}")
        continue
    if len({e["tid"] for e in mine}) != 1:
        bad.append(f"rank {r}: calls on more than one thread")
    t = None
    for e in mine:
        if e["ph"] == "X" and e["dur"] < 0:
            bad.append(f"rank {r}: call {e['args']['call']} ends before it begins")
        if t is not None and e["ts"] < t:
            bad.append(f"rank {r}: call {e['args']['call']} begins before the one before it ended")
        t = e["ts"] + e.get("dur", 0)
    names = [e for e in ev if e.get("pid") == r and e["ph"] == "M" and e["name"] == "process_name"]
    if len(names) != 1 or not names[0]["args"]["name"].startswith(f"rank {r} ("):
        bad.append(f"rank {r}: process_name {names}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY

# the OTF2 archive, through otf2-print
if grep -q "OTF2 trace is not built in" "$d.merge.err"; then
  echo "SKIP the OTF2 check: this build has no libotf2 (configure found none)"
elif ! command -v otf2-print >/dev/null; then
  fail "otf2-print is not installed (otf2-tools: scripts/deps.sh installs it)"
else
  [ -s "$d/timeline-otf2/traces.otf2" ] || fail "no OTF2 archive timeline-otf2/traces.otf2"
  otf2-print -A "$d/timeline-otf2/traces.otf2" >"$d.otf2.txt" 2>"$d.otf2.err" || fail "otf2-print failed: $(head -3 "$d.otf2.err")"
  python3 - "$d.otf2.txt" "$np" "$sr" "$barrier" "$ring" <<'PY' || fail "the OTF2 archive is not the program's calls"
import re, sys
path, np, sr, barrier, ring = sys.argv[1], *map(int, sys.argv[2:])
# event lines: KIND LOCATION TIME Region: "NAME" <id>, then their attributes
events = {}
for line in open(path):
    m = re.match(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "([^"]+)"', line)
    if m:
        loc = int(m.group(2))
        events.setdefault(loc // 65536, []).append([m.group(1), m.group(4), int(m.group(3)), {}])
        continue
    if events and "ADDITIONAL ATTRIBUTES" in line:
        last = events[loc // 65536][-1]
        for name, val in re.findall(r'\("([a-z_]+)" <\d+>; [A-Z0-9_]+; ("[^"]*"|[-0-9]+)', line):
            last[3][name] = val.strip('"')
bad = []
for r in range(np):
    left = (r + np - 1) % np
    want = []
    for i in range(5):
        want += [("ENTER", "MPI_Sendrecv", {"call": str(i + 1), "peer": str(left), "tag": str(10 + i),
                                            "bytes": str(8 * (i + 1)), "sent": str(4 * (i + 1)),
                                            "received": str(4 * (i + 1)), "comm": "world",
                                            "site": f"timeline_ring.c:{sr}"}), ("LEAVE", "MPI_Sendrecv", {})]
    want += [("ENTER", "MPI_Barrier", {"call": "6", "bytes": "0", "sent": "0", "received": "0", "comm": "world",
                                       "site": f"timeline_ring.c:{barrier}"}), ("LEAVE", "MPI_Barrier", {})]
    want += [("ENTER", "MPI_Recv", {"call": "7", "peer": str(left), "tag": "99", "comm": "world",
                                    "site": f"timeline_ring.c:{ring}", "in_progress": "1"})]
    got = [(k, n, a) for k, n, t, a in events.get(r, [])]
    if got != want:
        bad.append(f"rank {r}: got {got}\n  want {want}")
    times = [t for k, n, t, a in events.get(r, [])]
    if times != sorted(times):
        bad.append(f"rank {r}: timestamps not in order: {times}")
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
fi
[ $fails = 0 ] && ok "a job SIGKILLed whole: every rank's last calls (5 MPI_Sendrecv, MPI_Barrier, MPI_Recv in progress) in timeline.json and the OTF2 archive, with peers, tags, bytes and lines"
[ $fails = 0 ]
