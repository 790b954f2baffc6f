#!/usr/bin/env python3
"""Compares a papi-mpit-report run with Open MPI's own SPC dump (helper of
t_report_exact.sh).

  report_spc_compare.py REPORT_JSON STDERR NP [--misfiled-ok]

STDERR holds the run's stderr: the dump Open MPI prints at MPI_Finalize
(--mca mpi_spc_dump_enabled true; "MPI_COMM_WORLD Rank N:" then
"OMPI_SPC_X -> V" lines, zero counters left out) and the tool's self-check
lines (PAPI_MPIT_REPORT_SELFCHECK=1).  Per rank:
- mpit:::BYTES_SENT / BYTES_RECEIVED (user point-to-point) equal the dump's
  OMPI_SPC_BYTES_SENT_USER / BYTES_RECEIVED_USER exactly, and the tool's
  start-up and collection added 0 bytes (with --misfiled-ok: the report
  plus what the self-check counted outside it equals the dump; Open MPI 5.0
  over TCP files some bytes of the tool's zero-byte collectives as user
  bytes, see t_hosts.sh);
- the dump's OMPI_SPC_UNEXPECTED equals the report's UNEXPECTED_MSGS plus what
  the self-check counted during the tool's start-up (before counting) and its
  collection (after), so everything unexpected is accounted for.
Prints one line per rank; exit 1 on the first mismatch.
"""
import json
import re
import sys


def main():
    rep_path, err_path, np = sys.argv[1], sys.argv[2], int(sys.argv[3])
    misfiled_ok = "--misfiled-ok" in sys.argv[4:]
    with open(rep_path) as f:
        ev = {e["name"]: e["values"] for e in json.load(f)["events"]}
    with open(err_path, errors="replace") as f:
        text = f.read()
    dump, rank = {}, None
    for line in text.splitlines():
        m = re.search(r"MPI_COMM_WORLD Rank (\d+):", line)
        if m:
            rank = int(m.group(1))
            dump[rank] = {}
            continue
        m = re.search(r"(OMPI_SPC_\w+) -> (\d+)", line)
        if m and rank is not None:
            dump[rank][m.group(1)] = int(m.group(2))
    selfc = {}
    for m in re.finditer(r"self-check rank (\d+) (start-up|collection):(.*)", text):
        for k, v in re.findall(r"mpit:::(\w+)=(\d+)", m.group(3)):
            selfc.setdefault((int(m.group(1)), m.group(2)), {})[k] = int(v)
    bad = 0
    if sorted(dump) != list(range(np)):
        print("FAIL: the SPC dump has ranks %s, expected 0..%d" % (sorted(dump), np - 1))
        return 1
    for name in ("mpit:::BYTES_SENT", "mpit:::BYTES_RECEIVED", "mpit:::UNEXPECTED_MSGS"):
        if name not in ev:
            print("FAIL: %s not in the report" % name)
            return 1
    for r in range(np):
        d = dump[r]
        su, co = selfc.get((r, "start-up")), selfc.get((r, "collection"))
        if su is None or co is None:
            print("FAIL: rank %d: no self-check lines" % r)
            return 1
        sent, recv, unexp = (ev["mpit:::" + k][r] for k in ("BYTES_SENT", "BYTES_RECEIVED", "UNEXPECTED_MSGS"))
        dsent = d.get("OMPI_SPC_BYTES_SENT_USER", 0)
        drecv = d.get("OMPI_SPC_BYTES_RECEIVED_USER", 0)
        dunexp = d.get("OMPI_SPC_UNEXPECTED", 0)
        tool_bytes = sum(s.get(k, 0) for s in (su, co) for k in ("BYTES_SENT", "BYTES_RECEIVED"))
        added = su.get("UNEXPECTED_MSGS", 0) + co.get("UNEXPECTED_MSGS", 0)
        print("rank %d: BYTES_SENT report %d dump %d; BYTES_RECEIVED report %d dump %d; "
              "UNEXPECTED report %d + start-up %d + collection %d, dump %d"
              % (r, sent, dsent, recv, drecv, unexp, su.get("UNEXPECTED_MSGS", 0), co.get("UNEXPECTED_MSGS", 0),
                 dunexp))
        outside_sent = su.get("BYTES_SENT", 0) + co.get("BYTES_SENT", 0)
        outside_recv = su.get("BYTES_RECEIVED", 0) + co.get("BYTES_RECEIVED", 0)
        if misfiled_ok and tool_bytes:
            print("rank %d: Open MPI filed %d bytes of the tool's own messages as user bytes" % (r, tool_bytes))
            sent, recv = sent + outside_sent, recv + outside_recv
        if sent != dsent or recv != drecv:
            print("FAIL: rank %d: user bytes differ from the SPC dump" % r)
            bad = 1
        if tool_bytes and not misfiled_ok:
            print("FAIL: rank %d: the tool's own start-up/collection moved user bytes by %d" % (r, tool_bytes))
            bad = 1
        if unexp + added != dunexp:
            print("FAIL: rank %d: %d unexpected messages not accounted for" % (r, dunexp - unexp - added))
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
