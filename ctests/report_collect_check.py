#!/usr/bin/env python3
"""Checks report.json of bench/collection_app.c (helper of
t_report_collect.sh): every rank's figures, exactly.

  report_collect_check.py REPORT_JSON NP ROUNDS

- 64 MPI_Sendrecv sites, 16 called ROUNDS * c times on every rank for each
  c in 1..4 (site k: ROUNDS * (k % 4 + 1)); each such site's rank_calls is
  that count on every rank and its rank_time_ns has a time for every rank;
- the dense row's MPI_Send site: NP - 1 calls on every rank;
- program_matrix: every cell off the diagonal, exactly: to the right
  neighbour ROUNDS * 160 + 1 messages (8 bytes each), to any other 1
  message of 8 bytes; no cell on the diagonal.
"""
import json
import sys


def main():
    rep, np, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    with open(rep) as f:
        r = json.load(f)
    bad = []
    sites = r["call_sites"]["sites"]
    sr = [s for s in sites if s["call"] == "MPI_Sendrecv"]
    if len(sr) != 64:
        bad.append("%d MPI_Sendrecv sites, not 64" % len(sr))
    by = {}
    for s in sr:
        rc = s["rank_calls"]
        if len(rc) != np or len(set(rc)) != 1:
            bad.append("a site's rank_calls differ: %s" % rc)
            continue
        by[rc[0]] = by.get(rc[0], 0) + 1
        if len(s["rank_time_ns"]) != np or min(s["rank_time_ns"]) <= 0:
            bad.append("a site's rank_time_ns: %s" % s["rank_time_ns"])
        if s["calls"] != rc[0] * np:
            bad.append("a site's calls %d != %d" % (s["calls"], rc[0] * np))
    want = {rounds * c: 16 for c in range(1, 5)}
    if by != want:
        bad.append("sites by calls per rank %s, want %s" % (by, want))
    send = [s for s in sites if s["call"] == "MPI_Send"]
    if len(send) != 1 or send[0]["rank_calls"] != [np - 1] * np:
        bad.append("MPI_Send: %s" % [s["rank_calls"] for s in send])
    cells = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in r["program_matrix"]["cells"]}
    n = 0
    for s in range(np):
        for d in range(np):
            if s == d:
                if (s, d) in cells:
                    bad.append("a cell on the diagonal: %d" % s)
                continue
            m = rounds * 160 + 1 if d == (s + 1) % np else 1
            if cells.get((s, d)) != (m, 8 * m):
                bad.append("cell %d->%d: %s, want %s" % (s, d, cells.get((s, d)), (m, 8 * m)))
            n += 1
    if len(cells) != n:
        bad.append("%d cells, want %d" % (len(cells), n))
    for b in bad[:10]:
        print("FAIL: " + b)
    if not bad:
        print("%d ranks: 64 sites x %d ranks of calls and times, %d matrix cells exact; %s bytes collected"
              % (np, np, n, r.get("collection_bytes")))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
