#!/usr/bin/env python3
"""Checks the figures mpiP users look for in papi-mpit-report's output of
ctests/report_mpip_app.c (what it does is said there).

    report_mpip_check.py SOURCE DIR NPROCS COMPUTE_NS

- the communicator and datatype calls as sites, with exact calls per rank
  at their marked lines;
- per site and rank: the longest and shortest single call, min <= mean <=
  max, min == max == the time where the rank made one call;
- rank 0's MPI_Sendrecv lasted at least rank 1's measured compute time
  (COMPUTE_NS), and is the longest call of its site;
- each rank's MPI time share in (0, 1], equal to its sites' time over its
  elapsed time as report.json writes them, the same in ranks.csv, and a
  row of the table in report.txt.
Prints "ok: ..." and "FAIL: ..." lines; exits 1 on any failure.
"""
import csv
import json
import math
import os
import re
import sys

src, outdir, nprocs, compute_ns = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    fails += not cond


# the call's line is where the statement holding the marker starts
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
at = {}
for s in sites:
    if os.path.basename(s["file"]) == base:
        at.setdefault(s["line"], []).append(s)

# name: call, calls on each rank (None: every rank)
every = [1] * nprocs
want = {
    "split": ("MPI_Comm_split", [3] * nprocs),
    "dup": ("MPI_Comm_dup", [2] * nprocs),
    "comm_free": ("MPI_Comm_free", [5] * nprocs),
    "contiguous": ("MPI_Type_contiguous", every),
    "vector": ("MPI_Type_vector", every),
    "commit": ("MPI_Type_commit", [2] * nprocs),
    "type_free": ("MPI_Type_free", [2] * nprocs),
    "long_sendrecv": ("MPI_Sendrecv", [1] + [0] * (nprocs - 1)),
    "go_recv": ("MPI_Recv", [0, 1] + [0] * (nprocs - 2)),
    "answer_send": ("MPI_Send", [0, 1] + [0] * (nprocs - 2)),
}
for name, (call, calls) in want.items():
    got = at.get(lines[name], [])
    check(len(got) == 1 and got[0]["call"] == call and got[0]["rank_calls"] == calls,
          f"{name} (line {lines[name]}): {call} with calls per rank {calls}; got "
          f"{[(g['call'], g['rank_calls']) for g in got]}")

# every site, every rank: the single calls' extremes against the mean
bad = []
for s in sites:
    for r in range(nprocs):
        c, t, hi, lo = s["rank_calls"][r], s["rank_time_ns"][r], s["rank_max_call_ns"][r], s["rank_min_call_ns"][r]
        if c == 0:
            if hi is not None or lo is not None:
                bad.append((s["call"], s["line"], r, "no call, yet", hi, lo))
            continue
        if not (0 <= lo and lo * c <= t <= hi * c and hi <= t):
            bad.append((s["call"], s["line"], r, c, t, lo, hi))
        if c == 1 and not (lo == hi == t):
            bad.append((s["call"], s["line"], r, "one call", t, lo, hi))
    ranks = [r for r in range(nprocs) if s["rank_calls"][r]]
    cn = s["call_ns"]
    if ranks and (cn["max"] != max(s["rank_max_call_ns"][r] for r in ranks)
                  or cn["min"] != min(s["rank_min_call_ns"][r] for r in ranks)
                  or s["rank_max_call_ns"][cn["max_rank"]] != cn["max"]
                  or s["rank_min_call_ns"][cn["min_rank"]] != cn["min"]):
        bad.append((s["call"], s["line"], "call_ns", cn))
    cp = s["calls_per_rank"]
    if (cp["min"], cp["max"]) != (min(s["rank_calls"]), max(s["rank_calls"])) or \
            not math.isclose(cp["mean"], sum(s["rank_calls"]) / nprocs, rel_tol=1e-9):
        bad.append((s["call"], s["line"], "calls_per_rank", cp))
check(not bad, f"{len(sites)} sites: min <= mean <= max per rank, min == max == time for one call, the "
               f"extremes over ranks{': ' + repr(bad[:5]) if bad else ''}")

ls = at.get(lines["long_sendrecv"], [{}])[0]
if ls:
    check(ls["rank_max_call_ns"][0] >= compute_ns and ls["call_ns"]["max_rank"] == 0,
          f"rank 0's MPI_Sendrecv lasted {ls['rank_max_call_ns'][0]} ns >= rank 1's compute {compute_ns} ns")

# the MPI time share, per rank
el, mpi_s, share = doc["rank_elapsed_s"], doc["rank_mpi_s"], doc["rank_mpi_share"]
bad = []
for r in range(nprocs):
    site_s = sum(s["rank_time_ns"][r] for s in sites) / 1e9
    if not (0 < share[r] <= 1) or not math.isclose(share[r], mpi_s[r] / el[r], rel_tol=1e-6) or \
            not math.isclose(mpi_s[r], site_s, rel_tol=1e-9, abs_tol=1e-9):
        bad.append((r, share[r], mpi_s[r], site_s, el[r]))
check(not bad, f"MPI time share per rank {share}: in (0, 1], = sites' time / elapsed{': ' + repr(bad) if bad else ''}")
ms = doc["mpi_share"]
check(ms["min"] == min(share) and ms["max"] == max(share) and share[ms["min_rank"]] == ms["min"]
      and share[ms["max_rank"]] == ms["max"] and math.isclose(ms["mean"], sum(share) / nprocs, rel_tol=1e-9),
      f"mpi_share {ms}")
check(share[0] >= ls["rank_max_call_ns"][0] / 1e9 / el[0] if ls else False,
      "rank 0's share holds its long MPI_Sendrecv")

with open(os.path.join(outdir, "ranks.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
check(len(rows) == nprocs and all(math.isclose(float(rows[r]["mpi_share"]), share[r], rel_tol=1e-6)
                                  for r in range(nprocs)), "ranks.csv's mpi_share is report.json's")
txt = open(os.path.join(outdir, "report.txt"), encoding="utf-8").read()
check(re.search(r"^MPI time share\s+%\s+[\d.]+\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+", txt, re.M) is not None,
      "report.txt's table has the MPI time share row")
html = open(os.path.join(outdir, "report.html"), encoding="utf-8").read()
check('id="mpi-share"' in html and "longest call" in html, "report.html: the MPI share and the longest calls")
sys.exit(1 if fails else 0)
