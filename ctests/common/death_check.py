#!/usr/bin/env python3
"""Checks --merge's report of report_death.c (tests of the mapped state
files): every rank's call in progress at its death, named with its
communicator, and the exact calls each rank completed per site, the
collectives and the sends, as the files left them.
usage: death_check.py DIR MODE SRC [progress]
  MODE: block, segv or oom (the victim, the last rank: in its receive, or
  in no call); SRC: report_death.c (its site:NAME lines); progress: only
  whether every rank but the victim is in its blocking call (status 0/1,
  no output), for polling the live job."""
import json
import re
import sys

d, mode, src = sys.argv[1], sys.argv[2], sys.argv[3]
progress = len(sys.argv) > 4 and sys.argv[4] == "progress"
NP = 4
VICTIM = NP - 1
line = {}
for n, text in enumerate(open(src), 1):
    m = re.search(r"site:([a-z]+) \*/", text)
    if m:
        line[m.group(1)] = n
try:
    doc = json.load(open(d + "/report.json"))
except (OSError, ValueError) as e:
    if progress:
        sys.exit(1)
    print("FAIL: %s: report.json: %s" % (mode, e))
    sys.exit(1)
fails = []


def fail(msg):
    fails.append(msg)


hang = doc.get("hang", {})
calls = hang.get("calls", {})
labels = hang.get("sites", [])
now = {}  # rank -> list of (call, label, comm, peer, tag)
for i, r in enumerate(calls.get("rank", [])):
    now.setdefault(r, []).append((calls["call"][i], labels[calls["site"][i]], calls["comm"][i],
                                  calls["peer"][i], calls["tag"][i]))


def want_call(r):
    """what rank r is in at death: (call, site, peer, tag), or None"""
    if r == VICTIM and mode != "block":
        return None
    if r % 2 == VICTIM % 2 and r != VICTIM:
        return ("MPI_Barrier", "subbarrier", None, None)
    other = (r + 2) % 4  # the world rank of its split partner
    return ("MPI_Recv", "subrecv", other, 30)


if progress:
    for r in range(NP):
        w = want_call(r)
        if r != VICTIM and not (w and any(c[0] == w[0] and c[1] == "report_death.c:%d" % line[w[1]]
                                          for c in now.get(r, []))):
            sys.exit(1)
    sys.exit(0)

comm_of = {}
for r in range(NP):
    w, got = want_call(r), now.get(r, [])
    if w is None:
        if got:
            fail("rank %d: in %s, where it was in no call when it died" % (r, got))
        continue
    if len(got) != 1:
        fail("rank %d: %d calls in progress (%s), where it was in %s" % (r, len(got), got, w[0]))
        continue
    call, label, comm, peer, tag = got[0]
    site = "report_death.c:%d" % line[w[1]]
    if (call, label, peer, tag) != (w[0], site, w[2], w[3]):
        fail("rank %d: in %s at %s (peer %s, tag %s), where it was in %s at %s (peer %s, tag %s)"
             % (r, call, label, peer, tag, w[0], site, w[2], w[3]))
    if comm in ("?", "world", "self") or not re.match(r"^[0-9a-f]+\.[0-9]+$", comm):
        fail("rank %d: its call's communicator is %r, not the split communicator's id" % (r, comm))
    comm_of[r] = comm
# the halves' communicators: one id on both members, two ids in all
for a, b in ((0, 2), (1, 3)):
    if a in comm_of and b in comm_of and comm_of[a] != comm_of[b]:
        fail("ranks %d and %d: communicators %s and %s, where they share one" % (a, b, comm_of[a], comm_of[b]))
if len(comm_of) >= 3 and len(set(comm_of.values())) != 2:
    fail("the split communicators are not two: %s" % comm_of)

# the calls completed, per site and rank
want_sites = {
    "barrier": ("MPI_Barrier", [3] * NP),
    "split": ("MPI_Comm_split", [1] * NP),
    "allreduce": ("MPI_Allreduce", [2] * NP),
    "send": ("MPI_Send", [5] + [0] * (NP - 1)),
    "recv": ("MPI_Recv", [0, 5] + [0] * (NP - 2)),
    "subbarrier": ("MPI_Barrier", [0] * NP),
    "subrecv": ("MPI_Recv", [0] * NP),
}
sites = doc.get("call_sites", {}).get("sites", [])
for name, (call, want) in sorted(want_sites.items()):
    got = [0] * NP
    for s in sites:
        if s.get("file", "").endswith("report_death.c") and s.get("line") == line[name] and s.get("call") == call:
            got = [a + b for a, b in zip(got, s.get("rank_calls", []))]
            if name == "send" and (s.get("messages_sent"), s.get("bytes_sent")) != (5, 40):
                fail("send site: %s messages, %s bytes sent, not 5 and 40" % (s.get("messages_sent"), s.get("bytes_sent")))
            if name == "recv" and (s.get("messages_received"), s.get("bytes_received")) != (5, 40):
                fail("recv site: %s messages, %s bytes received, not 5 and 40"
                     % (s.get("messages_received"), s.get("bytes_received")))
    if got != want:
        fail("%s at report_death.c:%d: %s completed per rank, not %s" % (call, line[name], got, want))
colls = {(c["call"], c["root"]): (c["calls"], c["bytes"])
         for c in doc.get("collectives", {}).get("by_call_and_root", [])}
if colls.get(("MPI_Barrier", None), (0, 0))[0] != 3 * NP:
    fail("collectives: MPI_Barrier %s, not %d calls" % (colls.get(("MPI_Barrier", None)), 3 * NP))
if colls.get(("MPI_Allreduce", None)) != (2 * NP, 4 * 2 * NP):
    fail("collectives: MPI_Allreduce %s, not (%d calls, %d bytes)" % (colls.get(("MPI_Allreduce", None)), 2 * NP, 8 * NP))
cells = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"])
         for c in doc.get("program_matrix", {}).get("cells", [])}
if cells != {(0, 1): (5, 40)}:
    fail("program matrix: %s, not rank 0 to 1: 5 messages, 40 bytes" % cells)
fresh = doc.get("freshness", {}).get("ranks", [])
if sorted(f["rank"] for f in fresh) != list(range(NP)):
    fail("freshness: ranks %s, not 0-%d" % ([f["rank"] for f in fresh], NP - 1))
for f in fresh:
    if f["behind_s"] < 0 or (f["rank"] == VICTIM and f["from"] == "snapshot"):
        fail("freshness of rank %d: %s" % (f["rank"], f))
for msg in fails:
    print("FAIL: %s: %s" % (mode, msg))
sys.exit(1 if fails else 0)
