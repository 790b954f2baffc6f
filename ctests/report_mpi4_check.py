#!/usr/bin/env python3
"""Checks papi-mpit-report's call sites (report.json) of ctests/report_mpi4_app.c
against what the program did.

    report_mpi4_check.py SOURCE DIR NPROCS FAMILY [LARGE]

The sites' lines come from the "site:NAME" markers in SOURCE.  Each marked
site's call, calls, messages and bytes sent and received are exact: every
rank makes each call once; a collective's bytes are its send side
(mpi-calls.tsv), counted where a persistent one is made; the neighbor
calls' v and w forms count none (their payload needs the topology's degree,
which the wrapper does not read).  MPICH completes an MPI_Isendrecv with a
status that is not its receive's (4.0.2: count 0, source 0, tag 0), so
there its received side is not checked.  LARGE "yes": the program was
built with MPI 4.0's large-count calls (HAVE_LARGE_COUNT: MPI_Send_c ...),
checked the same way; otherwise LARGE is why not, and those sites must be
absent.  Prints "ok: ..." and "FAIL: ..." lines;
exits 1 on any failure.
"""
import json
import os
import re
import sys

src, outdir, n, family = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
large = sys.argv[5] if len(sys.argv) > 5 else "no large-count calls asked for"
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


# a marker ends the call's statement; the call's line is where it starts
text = open(src, encoding="utf-8").read().split("\n")
lines = {}
for k, t in enumerate(text, 1):
    m = re.search(r"site:(\w+)", t)
    if m:
        j = k
        while j > 1 and not re.search(r"\bMPI_[A-Z][a-z_]*\(", text[j - 1]):
            j -= 1
        lines[m.group(1)] = j

doc = json.load(open(os.path.join(outdir, "report.json"), encoding="utf-8"))
sites = doc["call_sites"]["sites"]
base = os.path.basename(src)
by_line = {}
for s in sites:
    if os.path.basename(s["file"]) == base:
        by_line.setdefault(s["line"], []).append(s)

# name: call, bytes the ranks put in (summed); collectives send no messages
coll = {
    "ialltoallw": ("MPI_Ialltoallw", 8 * n * n),  # 2 ints to each rank
    "ireduce_scatter": ("MPI_Ireduce_scatter", 24 * n * n),  # 3 doubles for each rank
    "ineighbor_allgather": ("MPI_Ineighbor_allgather", 20 * n),
    "ineighbor_allgatherv": ("MPI_Ineighbor_allgatherv", 16 * n),
    "ineighbor_alltoall": ("MPI_Ineighbor_alltoall", 12 * n),  # count x type, as MPI_Neighbor_alltoall
    "ineighbor_alltoallv": ("MPI_Ineighbor_alltoallv", 0),
    "ineighbor_alltoallw": ("MPI_Ineighbor_alltoallw", 0),
    "barrier_init": ("MPI_Barrier_init", 0),
    "bcast_init": ("MPI_Bcast_init", 24),  # the root's 6 ints
    "reduce_init": ("MPI_Reduce_init", 16 * n),
    "allreduce_init": ("MPI_Allreduce_init", 24 * n),
    "gather_init": ("MPI_Gather_init", 16 * n),
    "gatherv_init": ("MPI_Gatherv_init", 4 * n),
    "scatter_init": ("MPI_Scatter_init", 8),  # at the root only
    "scatterv_init": ("MPI_Scatterv_init", 4 * n),  # the root's one int for each rank
    "allgather_init": ("MPI_Allgather_init", 8 * n),
    "allgatherv_init": ("MPI_Allgatherv_init", 12 * n),
    "alltoall_init": ("MPI_Alltoall_init", 8 * n),
    "alltoallv_init": ("MPI_Alltoallv_init", 4 * n * n),
    "alltoallw_init": ("MPI_Alltoallw_init", 4 * n * n),
    "reduce_scatter_init": ("MPI_Reduce_scatter_init", 8 * n * n),
    "reduce_scatter_block_init": ("MPI_Reduce_scatter_block_init", 8 * n),
    "scan_init": ("MPI_Scan_init", 8 * n),
    "exscan_init": ("MPI_Exscan_init", 4 * n),
    "neighbor_allgather_init": ("MPI_Neighbor_allgather_init", 4 * n),
    "neighbor_allgatherv_init": ("MPI_Neighbor_allgatherv_init", 8 * n),
    "neighbor_alltoall_init": ("MPI_Neighbor_alltoall_init", 4 * n),
    "neighbor_alltoallv_init": ("MPI_Neighbor_alltoallv_init", 0),
    "neighbor_alltoallw_init": ("MPI_Neighbor_alltoallw_init", 0),
}
# name: call, calls, messages sent, bytes sent, received, bytes received
want = {k: (call, n, 0, b, 0, 0) for k, (call, b) in coll.items()}
want["isendrecv"] = ("MPI_Isendrecv", n, n, 40 * n, n, 40 * n)
want["isendrecv_replace"] = ("MPI_Isendrecv_replace", n, n, 16 * n, n, 16 * n)
want["disconnect"] = ("MPI_Comm_disconnect", n, 0, 0, 0, 0)
# the large-count calls: a ring each way, and collectives with MPI_Count
# counts (and MPI_Aint displacements)
large_want = {
    "isend_c": ("MPI_Isend_c", n, n, 24 * n, 0, 0),  # 6 ints to the next rank
    "recv_c": ("MPI_Recv_c", n, 0, 0, n, 24 * n),
    "send_c": ("MPI_Send_c", n, n, 16 * n, 0, 0),  # 2 doubles to the previous rank
    "irecv_c": ("MPI_Irecv_c", n, 0, 0, n, 16 * n),
    "allreduce_c": ("MPI_Allreduce_c", n, 0, 32 * n, 0, 0),
    "ibcast_c": ("MPI_Ibcast_c", n, 0, 28, 0, 0),  # the root's 7 ints
    "alltoallv_c": ("MPI_Alltoallv_c", n, 0, 4 * n * n, 0, 0),
    "allgatherv_c": ("MPI_Allgatherv_c", n, 0, 24 * n, 0, 0),
    "ialltoallw_c": ("MPI_Ialltoallw_c", n, 0, 4 * n * n, 0, 0),
}
if large == "yes":
    want.update(large_want)
else:
    print(f"skip: the large-count calls (MPI_Send_c ...): {large}")
    for k in large_want:
        lines.pop(k, None)  # not compiled (#if)
check(set(want) == set(lines), f"the program marks the {len(want)} sites checked")

for name, (call, calls, mo, bo, mi, bi) in want.items():
    line = lines.get(name)
    got = [s for s in by_line.get(line, []) if s["call"] == call]
    if len(got) != 1:
        check(False, f"{name}: one {call} site at {base}:{line}, got {[(s['call'], s['line']) for s in by_line.get(line, [])]}")
        continue
    s = got[0]
    have = (s["calls"], s["messages_sent"], s["bytes_sent"], s["messages_received"], s["bytes_received"])
    if family == "mpich" and call.startswith("MPI_Isendrecv"):
        print(f"note: {name}: MPICH's status of an MPI_Isendrecv is not its receive's: received {have[3:]} not checked")
        have, mi, bi = have[:3] + (None, None), None, None
    check(have == (calls, mo, bo, mi, bi),
          f"{name}: {call} at {base}:{line} calls, msgs/bytes sent, received {have}, want {(calls, mo, bo, mi, bi)}")
    check(sum(s["rank_calls"]) == s["calls"] and sum(s["rank_time_ns"]) == s["time_ns"] and min(s["rank_time_ns"]) >= 0,
          f"{name}: calls and time the sums of the ranks'")

# the point-to-point matrix: the ring of MPI_Isendrecv (to the next rank)
# and of MPI_Isendrecv_replace (to the previous one)
cells = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in doc["program_matrix"]["cells"]}
m = {}
ring = (((1, 40), (-1, 16)) + (((1, 24), (-1, 16)) if large == "yes" else ()))
for r in range(n):
    for peer, b in (((r + d) % n, b) for d, b in ring):
        k = m.get((r, peer), (0, 0))
        m[(r, peer)] = (k[0] + 1, k[1] + b)
check(cells == m, f"program matrix {sorted(cells.items())}, want {sorted(m.items())}")
check(doc["call_sites"]["not_recorded"] == {"calls": 0, "collectives": 0, "requests": 0}, "nothing overflowed")
sys.exit(1 if fails else 0)
