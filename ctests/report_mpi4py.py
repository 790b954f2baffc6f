"""Helper program of t_report_mpi4py.sh: known traffic from Python (Debian's
python3-mpi4py), which loads MPI with dlopen, privately.

  python3 report_mpi4py.py [sites [hang]]

- every pair of ranks exchanges messages of 0, 100, 1000, 5000 and 70000
  bytes (eager, inline and rendezvous paths): 5 messages, 76100 bytes from
  each rank to each other rank;
- rank 0 broadcasts 400 bytes;
- every rank gathers 800 bytes to root 2 (rank 0 when fewer than 3 ranks).
Rank 0 prints one line, the same whatever measures the run; each rank exits
0, or 1 when a byte it received was wrong.

With "sites", only this instead (t_report_mpi4py.sh's call sites: each
comm.send and comm.recv carries a "site:NAME" marker): rank 0 sends rank 1
a pickled 100-byte string three times from one line (send_loop) and once
from another (send_once), rank 1 receives them at recv_loop and recv_once;
rank 0 prints the pickled size.  With "sites hang", then ranks 0 and 1
each receive from the other (site:hang), which never sends: a cycle of 2
ranks, for a test that kills the job.
"""
import sys

from mpi4py import MPI

SIZES = (0, 100, 1000, 5000, 70000)
TAG = 7
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
ok = True

if sys.argv[1:2] == ["sites"]:
    obj = b"x" * 100
    if rank == 0:
        for i in range(3):
            comm.send(obj, dest=1, tag=11)  # site:send_loop
        comm.send(obj, dest=1, tag=12)  # site:send_once
        print("report_mpi4py: sites, %d-byte messages" % len(MPI.pickle.dumps(obj)))
    elif rank == 1:
        for i in range(3):
            ok &= comm.recv(source=0, tag=11) == obj  # site:recv_loop
        ok &= comm.recv(source=0, tag=12) == obj  # site:recv_once
    if sys.argv[2:] == ["hang"]:
        sys.stdout.flush()
        comm.recv(source=1 - rank, tag=99)  # site:hang
    raise SystemExit(0 if ok else 1)

# all pairs: every receive posted first, then the sends
recvs, reqs = {}, []
for peer in range(size):
    if peer == rank:
        continue
    for i, n in enumerate(SIZES):
        buf = bytearray(n)
        recvs[peer, i] = buf
        reqs.append(comm.Irecv([buf, MPI.BYTE], source=peer, tag=TAG + i))
sends = {}
for peer in range(size):
    if peer == rank:
        continue
    for i, n in enumerate(SIZES):
        sends[peer, i] = bytearray([(rank + 1) % 256]) * n
        reqs.append(comm.Isend([sends[peer, i], MPI.BYTE], dest=peer, tag=TAG + i))
MPI.Request.Waitall(reqs)
for (peer, i), buf in recvs.items():
    ok &= buf == bytearray([(peer + 1) % 256]) * SIZES[i]

bcast = bytearray(b"\x05" * 400) if rank == 0 else bytearray(400)
comm.Bcast([bcast, MPI.BYTE], root=0)
ok &= bcast == bytearray(b"\x05" * 400)

root = 2 if size > 2 else 0
mine = bytearray([rank % 256]) * 800
got = bytearray(800 * size) if rank == root else None
comm.Gather([mine, MPI.BYTE], [got, MPI.BYTE] if got is not None else None, root=root)
if rank == root:
    ok &= all(got[800 * r: 800 * (r + 1)] == bytearray([r % 256]) * 800 for r in range(size))

# no collective to agree on it (it would be traffic too): each rank's status
if rank == 0:
    print("report_mpi4py: %d ranks" % size)
raise SystemExit(0 if ok else 1)
