#!/usr/bin/env python3
"""Per-rank totals of Caliper's papi counters, for t_caliper.sh.

    cali_totals.py CALI_QUERY DIR NP COUNTER...

Reads every .cali file in DIR with `cali-query -q "select * format json"`
(one file per rank; the rank is each file's mpi.rank).  Caliper's papi
service reads and resets its event sets at every snapshot, so a rank's total
of a counter is the sum of papi.<COUNTER> over all records of its file.
Prints one line per rank and counter: "RANK COUNTER TOTAL".  Also checks
what shows that Caliper's MPI wrapping and the annotations were on: each
rank's trace has a begin event of MPI_Probe (event.begin#mpi.function) and of
the regions "main", "send" and "receive" (event.begin#region).  Exit 1 with FAIL lines if anything is missing.
"""
import glob
import json
import subprocess
import sys

query, outdir, np, counters = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
fails = []
totals = {}
files = sorted(glob.glob(outdir + "/*.cali"))
if len(files) != np:
    fails.append("%d .cali files in %s, expected %d (one per rank)" % (len(files), outdir, np))
for path in files:
    run = subprocess.run([query, "-q", "select * format json", path], capture_output=True, text=True)
    try:
        if run.returncode != 0:
            raise ValueError("exit %d: %s" % (run.returncode, run.stderr.strip()[-500:]))
        records = json.loads(run.stdout)
    except ValueError as e:
        fails.append("%s: cali-query: %s" % (path, e))
        continue
    ranks = {r["mpi.rank"] for r in records if "mpi.rank" in r}
    if len(ranks) != 1:
        fails.append("%s: mpi.rank values %s, expected one" % (path, sorted(ranks)))
        continue
    rank = int(ranks.pop())
    if rank in totals:
        fails.append("%s: a second file of rank %d" % (path, rank))
        continue
    totals[rank] = {c: 0 for c in counters}
    seen = {c: 0 for c in counters}
    functions, regions = set(), set()
    for r in records:
        for c in counters:
            v = r.get("papi." + c)
            if v is not None:
                totals[rank][c] += int(v)
                seen[c] += 1
        # event-trace marks each begin: {"event.begin#region":"send","path":"main",...}
        if "event.begin#mpi.function" in r:
            functions.add(r["event.begin#mpi.function"])
        if "event.begin#region" in r:
            regions.add(r["event.begin#region"])
    for c in counters:
        if seen[c] == 0:
            fails.append("rank %d: no record carries papi.%s" % (rank, c))
    if "MPI_Probe" not in functions:
        fails.append("rank %d: no begin event of MPI_Probe (MPI wrapping off?); MPI functions traced: %s"
                     % (rank, sorted(functions)))
    for region in ("main", "send", "receive"):
        if region not in regions:
            fails.append("rank %d: no begin event of region %s (regions seen: %s)" % (rank, region, sorted(regions)))
    print("# rank %d: %d records, %d MPI functions wrapped" % (rank, len(records), len(functions)))
for rank in range(np):
    if rank not in totals:
        fails.append("no .cali file of rank %d" % rank)
for rank in sorted(totals):
    for c in counters:
        print(rank, c, totals[rank][c])
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
