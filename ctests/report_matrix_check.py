#!/usr/bin/env python3
"""Checks papi-mpit-report's communication matrix after report_matrix_app.

    report_matrix_check.py DIR NRANKS KINDS [ABSENT:WORDS ...] [--prof PREFIX STDERR [--idle PREFIX STDERR]]

KINDS: the kinds that must be present, comma-separated (p2p, coll); each
must equal the program's pattern exactly, in report.json and matrix.csv:
  p2p  rank r sends peers_msgs(r, p) messages of peers_bytes(r, p) bytes to
       each other rank p, and one zero-byte message to (r+1) mod N
       (ctests/common/peers.h, mirrored below);
  coll one barrier (1 zero-byte message from every rank to every other) and
       one broadcast of 400 bytes from rank 0 (1 message of 400 bytes from
       rank 0 to every other rank).
  rma_put, rma_get ("report_matrix_app rma"): rank r puts 8 (r + 1) bytes to
       (r+1) mod N and gets 24 bytes from (r-1) mod N (its sender); no
       message counts (null).
The one-sided kinds not named must be empty where present.
ABSENT:WORDS: that kind must be absent, its reason containing WORDS.
report.txt must have the kind's line with its totals.

--prof PREFIX STDERR: Open MPI's own printout of the run (PREFIX.<rank>.prof,
pml_monitoring_enable_output=3), which covers the whole run, must equal the
matrix plus what the tool itself sent outside the counting window, as the
self-check lines in STDERR say ("self-check rank R outside the matrix KIND:
peer:msgs:bytes ..."): per pair, "E" lines for p2p and "C" lines for coll,
messages and bytes exactly; and the tool's own point-to-point messages carry
no byte, so the p2p bytes equal the printout's alone.
--idle PREFIX STDERR: the same of a run of "report_matrix_app idle" (no
traffic of its own): what its printout shows beyond the tool's own traffic is
the MPI's own, outside anything the tool reads (Open MPI 4.1 built with SPCs
runs three 4-byte collectives in MPI_Init); it is added to the expectation,
and said on stdout.
Prints what differs; exit status 0 when all holds.
"""
import csv
import json
import re
import sys

BCAST = 400


def peers_msgs(r, p):
    return 0 if r == p else 1 + (r + 2 * p) % 3


def peers_bytes(r, p):
    return 16 * (r + 1) + p


def expected(kind, n):
    """{(sender, receiver): (msgs, bytes)} of the program's pattern"""
    want = {}
    if kind == "rma_put":
        return {(r, (r + 1) % n): (None, 8 * (r + 1)) for r in range(n)}
    if kind == "rma_get":
        return {((r - 1) % n, r): (None, 24) for r in range(n)}
    for r in range(n):
        for p in range(n):
            if r == p:
                continue
            if kind == "p2p":
                m = peers_msgs(r, p) + (p == (r + 1) % n)
                b = peers_msgs(r, p) * peers_bytes(r, p)
            elif kind == "coll":
                m, b = (2, BCAST) if r == 0 else (1, 0)
            else:
                continue
            want[(r, p)] = (m, b)
    return want


def prof_pairs(prefix, n, letter):
    """{(sender, receiver): (msgs, bytes)} of the printout's lines of a letter;
    R (one-sided gets) is written by the reader: the sender is its peer, and
    no message count is compared for S and R"""
    got = {}
    for r in range(n):
        for line in open(f"{prefix}.{r}.prof"):
            f = line.rstrip("\n").split("\t")
            if f[0] == letter and len(f) >= 5:
                pair = (int(f[2]), int(f[1])) if letter == "R" else (int(f[1]), int(f[2]))
                msgs = None if letter in "SR" else int(f[4].split()[0])
                got[pair] = (msgs, int(f[3].split()[0]))
    return got


def outside(stderr, kind):
    got = {}
    pat = re.compile(r"self-check rank (\d+) outside the matrix (\w+):(.*)")
    for line in open(stderr, errors="replace"):
        m = pat.search(line)
        if m and m.group(2) == kind:
            for cell in m.group(3).split():
                p, msgs, b = (int(x) for x in cell.split(":"))
                got[(int(m.group(1)), p)] = (msgs, b)
    return got


def main():
    args = sys.argv[1:]
    prof = idle = None
    if "--prof" in args:
        i = args.index("--prof")
        prof = args[i + 1 : i + 3]
        del args[i : i + 3]
    if "--idle" in args:
        i = args.index("--idle")
        idle = args[i + 1 : i + 3]
        del args[i : i + 3]
    out, n, kinds = args[0], int(args[1]), [k for k in args[2].split(",") if k]
    absent = dict(a.split(":", 1) for a in args[3:])
    errors = []
    rep = json.load(open(f"{out}/report.json"))
    mx = rep.get("matrix")
    if not mx:
        print(f"no matrix in report.json (note: {rep.get('matrix_note')!r})")
        return 1
    rows = list(csv.reader(open(f"{out}/matrix.csv")))
    if rows[0] != ["kind", "sender", "receiver", "messages", "bytes"]:
        errors.append(f"matrix.csv header {rows[0]}")
    text = open(f"{out}/report.txt").read()
    got = {}
    for kind in mx["kinds"]:
        entries = mx["entries"][kind]
        got[kind] = {(s, r): (m, b) for s, r, m, b in entries}
        from_csv = [[kind, str(s), str(r), "" if m is None else str(m), str(b)] for s, r, m, b in entries]
        if [row for row in rows[1:] if row[0] == kind] != from_csv:
            errors.append(f"{kind}: matrix.csv differs from report.json")
    for kind in kinds:
        if kind not in got:
            errors.append(f"{kind}: absent ({mx['absent'].get(kind)!r})")
            continue
        want = expected(kind, n)
        if got[kind] != want:
            diff = sorted(set(want.items()) ^ set(got[kind].items()))
            errors.append(f"{kind}: differs from the pattern at (pair, (msgs, bytes)): {diff[:8]}")
        msgs = "" if kind.startswith("rma") else f"{sum(m for m, _ in want.values())} messages, "
        byts = sum(b for _, b in want.values())
        if not re.search(rf"\n  {kind} +{msgs}{byts} bytes, {len(want)} pairs; busiest ", text):
            errors.append(f"{kind}: no line '{kind} {msgs}{byts} bytes' in report.txt")
    for kind in ("rma_put", "rma_get"):
        if kind not in kinds and got.get(kind):
            errors.append(f"{kind}: traffic where the program has none: {got[kind]}")
    for kind, words in absent.items():
        if kind in got:
            errors.append(f"{kind}: present, expected absent")
        elif words not in mx["absent"].get(kind, ""):
            errors.append(f"{kind}: reason {mx['absent'].get(kind)!r} lacks {words!r}")
        elif not re.search(rf"\n  {kind} +none \(.*{re.escape(words)}", text):
            errors.append(f"{kind}: report.txt does not say why it is absent")
    if prof:
        for kind, letter in (("p2p", "E"), ("coll", "C"), ("rma_put", "S"), ("rma_get", "R")):
            if kind not in kinds:
                continue
            theirs, tool = prof_pairs(prof[0], n, letter), outside(prof[1], kind)
            base = {}
            if idle:  # the MPI's own: the idle run's printout less the tool's own there
                ip, it = prof_pairs(idle[0], n, letter), outside(idle[1], kind)
                for pair in set(ip) | set(it):
                    d = tuple((a or 0) - (b or 0) for a, b in zip(ip.get(pair, (0, 0)), it.get(pair, (0, 0))))
                    if d != (0, 0):
                        base[pair] = d
                kinds_of = sorted(set(base.values()))
                print(f"{kind}: the MPI's own outside the tool, per pair (msgs, bytes): "
                      f"{kinds_of if base else 'none'}{f' on {len(base)} pairs' if base else ''}")
            if not tool and not kind.startswith("rma"):
                errors.append(f"{kind}: no self-check line of the tool's own traffic")
            if kind == "p2p" and any(b for _, b in tool.values()):
                errors.append(f"p2p: the tool's own messages carry bytes: {tool}")
            for pair in sorted(set(theirs) | set(got[kind]) | set(tool) | set(base)):
                m0, b0 = got[kind].get(pair, (0, 0))
                m1, b1 = tool.get(pair, (0, 0))
                m2, b2 = base.get(pair, (0, 0))
                sum_ = (None if kind.startswith("rma") else (m0 or 0) + m1 + m2, b0 + b1 + b2)
                if theirs.get(pair, (None if kind.startswith("rma") else 0, 0)) != sum_:
                    errors.append(
                        f"{kind} {pair}: Open MPI printed (msgs, bytes) {theirs.get(pair, (0, 0))}, "
                        f"matrix {(m0, b0)} + tool {(m1, b1)} + the MPI's own {(m2, b2)}"
                    )
    for e in errors:
        print("error:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
