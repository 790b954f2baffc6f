#!/usr/bin/env python3
"""Checks papi-mpit-report's sender matrix after report_pairs -r -c.

    report_senders_check.py DIR NRANKS KIND

The early ring: rank r sends r+1 messages and then a token to (r+1) mod N,
which receives them only after all are queued.  So receiver (r+1) mod N has
exactly r+2 unexpected messages from rank r (the data and the token) and none
from anyone else; for Open MPI's queue_max kind the look at MPI_Pcontrol,
after the token's probe, sees the same r+2 queued.  Checks the JSON matrix,
that senders.csv holds the same numbers, that the count kind's rows add up to
UNEXPECTED_MSGS where the report has it, and the top senders in report.txt.
Prints what differs; exit status 0 when all holds.
"""
import csv
import json
import sys


def main():
    out, n, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    errors = []
    rep = json.load(open(f"{out}/report.json"))
    s = rep.get("senders")
    if not s:
        print(f"no sender matrix in report.json (note: {rep.get('senders_note')!r})")
        return 1
    if s["kind"] != kind:
        errors.append(f"kind {s['kind']}, expected {kind}")
    want = [[0] * n for _ in range(n)]
    for r in range(n):
        want[(r + 1) % n][r] = r + 2
    if s["matrix"] != want:
        errors.append(f"matrix {s['matrix']}, expected {want}")
    if s["other"] != [0] * n:
        errors.append(f"other {s['other']}, expected all 0")
    if s["columns"] != n:
        errors.append(f"columns {s['columns']}, expected {n}")

    # the CSV holds what the JSON holds
    rows = list(csv.reader(open(f"{out}/senders.csv")))
    if rows[0] != ["receiver"] + [str(c) for c in range(n)] + ["other"]:
        errors.append(f"CSV header {rows[0]}")
    body = [[int(v) for v in row] for row in rows[1:]]
    json_rows = [[r] + s["matrix"][r] + [s["other"][r]] for r in range(n)]
    if body != json_rows:
        errors.append(f"CSV {body} differs from the JSON {json_rows}")

    # counts add up to the rank's unexpected messages
    events = {e["name"]: e["values"] for e in rep["events"]}
    if kind == "count" and "mpit:::UNEXPECTED_MSGS" in events:
        sums = [sum(row) + o for row, o in zip(s["matrix"], s["other"])]
        if sums != events["mpit:::UNEXPECTED_MSGS"]:
            errors.append(f"row sums {sums} != UNEXPECTED_MSGS {events['mpit:::UNEXPECTED_MSGS']}")

    # the text names the one sender of every receiver
    text = open(f"{out}/report.txt").read()
    for r in range(n):
        recv, v = (r + 1) % n, r + 2
        line = f"  rank {recv} ({v} in all): from rank {r}: {v}\n" if kind == "count" \
            else f"  rank {recv}: from rank {r}: {v}\n"
        if line not in text:
            errors.append(f"report.txt lacks {line.strip()!r}")
    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
