#!/usr/bin/env python3
"""Checks papi-mpit-report's call sites (report.json, sites.csv, p2p.csv,
collectives.csv) of ctests/report_sites_app.c against what the program did.

    report_sites_check.py SOURCE DIR NPROCS THREADS(yes|no) FAMILY

The sites' line numbers come from the "site:NAME" markers in SOURCE; calls,
messages, bytes, peers, sizes, the point-to-point matrix and the collectives
by root are exact.  Times are checked for order and sums only: each site's
time is the sum of its ranks', the largest rank's is at least the mean, and
none is negative.  Prints "ok: ..." and "FAIL: ..." lines; exits 1 on any
failure.
"""
import csv
import json
import os
import re
import sys

src, outdir, nprocs, threads, family = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "yes", sys.argv[5]
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


# a marker ends the call's statement; the call's line is where the
# statement starts (clang-format may break a long call over lines)
text = open(src, encoding="utf-8").read().split("\n")
lines = {}
for n, t in enumerate(text, 1):
    m = re.search(r"site:(\w+)", t)
    if m:
        k = n
        while k > 1 and not re.search(r"\bMPI_[A-Z][a-z_]*\(", text[k - 1]):
            k -= 1
        lines[m.group(1)] = k

doc = json.load(open(os.path.join(outdir, "report.json"), encoding="utf-8"))
sites = doc["call_sites"]["sites"]
base = os.path.basename(src)
by_line = {}
for s in sites:
    if os.path.basename(s["file"]) == base:
        by_line.setdefault(s["line"], []).append(s)

# name: call, calls, messages sent, bytes sent, received, bytes received,
# {(rank, peer): (msgs, bytes)} (None: not checked)
T = THREADS = 9
want = {
    "send_a": ("MPI_Send", 7, 7, 700, 0, 0, {(0, 1): (7, 700)}),
    "recv_a": ("MPI_Recv", 7, 0, 0, 7, 700, {(1, 0): (7, 700)}),
    "go_send": ("MPI_Send", 1, 1, 4, 0, 0, {(0, 1): (1, 4)}),
    "go_recv": ("MPI_Recv", 1, 0, 0, 1, 4, {(1, 0): (1, 4)}),
    "isend_b": ("MPI_Isend", 3, 3, 24000, 0, 0, {(1, 0): (3, 24000)}),
    "waitall_b": ("MPI_Waitall", 1, 0, 0, 0, 0, {}),
    "irecv_b": ("MPI_Irecv", 3, 0, 0, 3, 24000, {(0, 1): (3, 24000)}),
    "wait_b": ("MPI_Wait", 3, 0, 0, 0, 0, {}),
    "psend_c": ("MPI_Send_init", 1, 5, 320, 0, 0, {(2, 3): (5, 320)}),
    "start_c": ("MPI_Start", 5, 0, 0, 0, 0, {}),
    "pwait_c": ("MPI_Wait", 5, 0, 0, 0, 0, {}),
    "precv_c": ("MPI_Recv_init", 1, 0, 0, 5, 320, {(3, 2): (5, 320)}),
    "start_d": ("MPI_Start", 5, 0, 0, 0, 0, {}),
    "pwait_d": ("MPI_Wait", 5, 0, 0, 0, 0, {}),
    "ring": ("MPI_Sendrecv", nprocs, nprocs, 64 * nprocs, nprocs, 64 * nprocs, None),
    "sub_send": ("MPI_Send", 1, 1, 12, 0, 0, {(0, 2): (1, 12)}),
    "sub_recv": ("MPI_Recv", 1, 0, 0, 1, 12, {(2, 0): (1, 12)}),
    "bcast": ("MPI_Bcast", nprocs, 0, 40, 0, 0, {}),
    "allreduce": ("MPI_Allreduce", nprocs, 0, 24 * nprocs, 0, 0, {}),
    "reduce": ("MPI_Reduce", nprocs, 0, 8 * nprocs, 0, 0, {}),
}
if threads:
    want["thread_send"] = ("MPI_Send", 2 * T, 2 * T, 16 * T, 0, 0, {(0, 1): (2 * T, 16 * T)})
    want["thread_recv"] = ("MPI_Recv", 2 * T, 0, 0, 2 * T, 16 * T, {(1, 0): (2 * T, 16 * T)})

for name, (call, calls, mo, bo, mi, bi, pairs) in want.items():
    line = lines[name]
    got = [s for s in by_line.get(line, []) if s["call"] == call]
    if len(got) != 1:
        check(False, f"{name}: one {call} site at {base}:{line}, got {[(s['call'], s['line']) for s in by_line.get(line, [])]}")
        continue
    s = got[0]
    have = (s["calls"], s["messages_sent"], s["bytes_sent"], s["messages_received"], s["bytes_received"])
    check(have == (calls, mo, bo, mi, bi),
          f"{name}: {call} at {base}:{line} calls, msgs/bytes sent, received {have}, want {(calls, mo, bo, mi, bi)}")
    if pairs is not None:
        gp = {(p["rank"], p["peer"]): (p["messages"], p["bytes"]) for p in s["pairs"]}
        check(gp == pairs, f"{name}: pairs (rank, peer): (msgs, bytes) {gp}, want {pairs}")
    # times: a sum over ranks, ordered
    check(sum(s["rank_time_ns"]) == s["time_ns"] and s["time_per_rank"]["max_ns"] >= s["time_per_rank"]["mean_ns"] >= 0
          and min(s["rank_time_ns"]) >= 0 and sum(s["rank_calls"]) == s["calls"],
          f"{name}: time {s['time_ns']} ns is the sum of its ranks', max >= mean >= 0, calls the ranks' sum")

# sizes: 100-byte messages in [64, 128), 8000-byte ones in [4096, 8192)
s = [x for x in by_line[lines["send_a"]] if x["call"] == "MPI_Send"][0]
check(s["sizes"] == [{"from": 64, "below": 128, "count": 7}], f"send_a sizes {s['sizes']}")
s = [x for x in by_line[lines["irecv_b"]] if x["call"] == "MPI_Irecv"][0]
check(s["sizes"] == [{"from": 4096, "below": 8192, "count": 3}], f"irecv_b sizes {s['sizes']}")

# the program's point-to-point matrix: every send, by sender and receiver
cells = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in doc["program_matrix"]["cells"]}
m = {}


def add(a, b, n, by):
    k = m.get((a, b), (0, 0))
    m[(a, b)] = (k[0] + n, k[1] + by)


add(0, 1, 7, 700)
add(0, 1, 1, 4)
add(1, 0, 3, 24000)
add(2, 3, 5, 320)
for r in range(nprocs):
    add(r, (r + 1) % nprocs, 1, 64)
add(0, 2, 1, 12)
if threads:
    add(0, 1, 2 * T, 16 * T)
check(cells == m, f"program matrix {sorted(cells.items())}, want {sorted(m.items())}")
check(doc["program_matrix"]["to_other"] == 0, "program matrix: nothing to other")
# per-site sums equal the matrix's totals
sent = sum(x["bytes_sent"] for x in sites if x["call"] in ("MPI_Send", "MPI_Isend", "MPI_Send_init", "MPI_Sendrecv"))
check(sent == sum(v[1] for v in cells.values()), f"point-to-point bytes over sites {sent} = over the matrix")
with open(os.path.join(outdir, "p2p.csv"), newline="") as f:
    rows = {(int(r["sender"]), int(r["receiver"])): (int(r["messages"]), int(r["bytes"])) for r in csv.DictReader(f)}
check(rows == cells, "p2p.csv = report.json's program matrix")

# collectives by call and root
colls = {(c["call"], c["root"]): (c["calls"], c["bytes"]) for c in doc["collectives"]["by_call_and_root"]}
for k, v in {("MPI_Bcast", 1): (nprocs, 40), ("MPI_Allreduce", None): (nprocs, 24 * nprocs),
             ("MPI_Reduce", 0): (nprocs, 8 * nprocs)}.items():
    check(colls.get(k) == v, f"collectives {k}: {colls.get(k)}, want {v}")
with open(os.path.join(outdir, "sites.csv"), newline="") as f:
    n = sum(1 for _ in csv.DictReader(f))
check(n == len(sites), f"sites.csv has the {len(sites)} sites of report.json")
check(doc["call_sites"]["not_recorded"] == {"calls": 0, "collectives": 0, "requests": 0}, "nothing overflowed")

# receives that found their message waiting: where the MPI raises MPI_T
# events for it (MPICH --enable-mpit-events): recv_a's seven, and over all
# sites and outside the program's calls, every unexpected message the
# ranks counted (the messages are all received before MPI_Finalize)
cs = doc["call_sites"]
if cs["found_waiting_ranks"]:
    s = [x for x in by_line[lines["recv_a"]] if x["call"] == "MPI_Recv"][0]
    check(s["found_waiting"] == 7, f"recv_a found {s['found_waiting']} of its 7 messages waiting, want 7")
    found = sum(x["found_waiting"] for x in sites) + cs["found_waiting_outside_calls"]
    ev = {e["name"]: e for e in doc["events"]}
    if "mpit:::UNEXPECTED_MSGS" in ev:
        total = sum(v for v in ev["mpit:::UNEXPECTED_MSGS"]["values"] if v is not None)
        check(found == total, f"found waiting at sites ({found - cs['found_waiting_outside_calls']}) and outside calls "
              f"({cs['found_waiting_outside_calls']}) = the ranks' UNEXPECTED_MSGS ({total})")
else:
    check(all(x["found_waiting"] is None for x in sites), "no MPI_T events for it: found_waiting null at every site")

# the findings name a site by file:line
txt = open(os.path.join(outdir, "report.txt"), encoding="utf-8").read()
check(txt.startswith("findings:\n") and f"{base}:" in txt.split("\n\n")[0],
      "report.txt opens with findings naming file:line")
html = open(os.path.join(outdir, "report.html"), encoding="utf-8").read()
check('id="sites-table"' in html and f"{base}:{lines['send_a']}" in html, "report.html has the sortable site table")
sys.exit(1 if fails else 0)
