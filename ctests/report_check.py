#!/usr/bin/env python3
"""Checks a papi-mpit-report output directory (helper of t_report*.sh).

  report_check.py DIR NP [--measured EVENT]... [--skipped EVENT]...
                  [--equal-sums EVENT_A EVENT_B] [--sum EVENT VALUE]

Always: report.json parses; ranks, hosts and every values list have NP
entries; min/mean/max/min_rank/max_rank/sum/imbalance agree with the values;
ranks.csv has a header and NP rows with the same values; report.txt names
every event.  --measured: the event has a value on every rank.  --skipped:
the event is listed as skipped on every rank.  --equal-sums: summed over
ranks, both events give the same (nonzero) total.  --sum: the total is VALUE.
Prints what it checked; exit 1 on the first failed check.
"""
import csv
import json
import math
import os
import sys


def fail(msg):
    print("FAIL report_check: " + msg)
    sys.exit(1)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        fail("usage: report_check.py DIR NP [options]")
    d, np = args[0], int(args[1])
    measured, skipped, equal, sums = [], [], [], []
    i = 2
    while i < len(args):
        a = args[i]
        if a == "--measured":
            measured.append(args[i + 1]); i += 2
        elif a == "--skipped":
            skipped.append(args[i + 1]); i += 2
        elif a == "--equal-sums":
            equal.append((args[i + 1], args[i + 2])); i += 3
        elif a == "--sum":
            sums.append((args[i + 1], int(args[i + 2]))); i += 3
        else:
            fail("unknown option " + a)

    try:
        with open(os.path.join(d, "report.json")) as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        fail("report.json: %s" % e)
    if rep.get("ranks") != np:
        fail("ranks %r, expected %d" % (rep.get("ranks"), np))
    if len(rep["hosts"]) != np or len(rep["rank_elapsed_s"]) != np:
        fail("hosts/rank_elapsed_s do not have %d entries" % np)
    events = {e["name"]: e for e in rep["events"]}
    for e in rep["events"]:
        vals = e["values"]
        if len(vals) != np:
            fail("%s: %d values, expected %d" % (e["name"], len(vals), np))
        present = [(r, v) for r, v in enumerate(vals) if v is not None]
        if e["measured_ranks"] != len(present):
            fail("%s: measured_ranks %d, values present %d" % (e["name"], e["measured_ranks"], len(present)))
        if not present:
            continue
        lo = min(present, key=lambda rv: rv[1])
        hi = max(present, key=lambda rv: rv[1])
        total = sum(v for _, v in present)
        mean = total / len(present)
        if e["min"] != lo[1] or vals[e["min_rank"]] != lo[1]:
            fail("%s: min %r at rank %r, values %r" % (e["name"], e["min"], e["min_rank"], vals))
        if e["max"] != hi[1] or vals[e["max_rank"]] != hi[1]:
            fail("%s: max %r at rank %r, values %r" % (e["name"], e["max"], e["max_rank"], vals))
        if not math.isclose(e["mean"], mean, rel_tol=1e-9, abs_tol=1e-12):
            fail("%s: mean %r, expected %r" % (e["name"], e["mean"], mean))
        if e["type"] == "integer" and e["sum"] != total:
            fail("%s: sum %r, expected %r" % (e["name"], e["sum"], total))
        if mean != 0:
            if not math.isclose(e["imbalance"], hi[1] / mean, rel_tol=1e-9):
                fail("%s: imbalance %r, expected %r" % (e["name"], e["imbalance"], hi[1] / mean))
        elif e["imbalance"] is not None:
            fail("%s: imbalance %r with mean 0" % (e["name"], e["imbalance"]))
    print("report.json: %d ranks, %d events, consistent" % (np, len(events)))

    for name in measured:
        e = events.get(name)
        if not e or e["measured_ranks"] != np:
            fail("%s not measured on all %d ranks (%s)" % (name, np, "absent" if not e else e["measured_ranks"]))
    skip = {s["name"]: s for s in rep["skipped"]}
    for name in skipped:
        if name not in skip or skip[name]["ranks"] != np:
            fail("%s not reported skipped on all ranks: %r" % (name, skip.get(name)))
        if name in events:
            fail("%s both skipped and measured" % name)
    for a, b in equal:
        if a not in events or b not in events:
            fail("--equal-sums: %s or %s not measured" % (a, b))
        sa, sb = events[a]["sum"], events[b]["sum"]
        if sa != sb or sa == 0:
            fail("sum of %s = %r, sum of %s = %r" % (a, sa, b, sb))
        print("sum of %s = sum of %s = %r" % (a, b, sa))
    for name, value in sums:
        if name not in events or events[name]["sum"] != value:
            fail("sum of %s = %r, expected %d" % (name, events.get(name, {}).get("sum"), value))
        print("sum of %s = %d as expected" % (name, value))

    with open(os.path.join(d, "ranks.csv"), newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) != np + 1 or rows[0][:3] != ["rank", "host", "elapsed_s"]:
        fail("ranks.csv: %d rows, header %r" % (len(rows), rows[0] if rows else None))
    names = rows[0][3:]
    if names[-2:] == ["mpi_s", "mpi_share"]:  # the call sites' time in MPI, not events
        names = names[:-2]
    if names != [e["name"] for e in rep["events"]]:
        fail("ranks.csv columns %r differ from the JSON events" % names)
    for r, row in enumerate(rows[1:]):
        if int(row[0]) != r:
            fail("ranks.csv row %d is rank %s" % (r + 1, row[0]))
        for name, cell in zip(names, row[3:]):
            v = events[name]["values"][r]
            if (cell == "") != (v is None) or (v is not None and float(cell) != float(v)):
                fail("ranks.csv rank %d %s = %r, JSON %r" % (r, name, cell, v))
    print("ranks.csv: %d rows agree with the JSON" % np)

    with open(os.path.join(d, "report.txt")) as f:
        text = f.read()
    if "papi-mpit-report: %d rank" % np not in text:
        fail("report.txt has no header for %d ranks" % np)
    for name in events:
        if name not in text:
            fail("report.txt does not name %s" % name)
    print("report.txt: names every event")


if __name__ == "__main__":
    main()
