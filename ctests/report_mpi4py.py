"""Helper program of t_report_mpi4py.sh: known traffic from Python (Debian's
python3-mpi4py), which loads MPI with dlopen, privately.

  python3 report_mpi4py.py

- every pair of ranks exchanges messages of 0, 100, 1000, 5000 and 70000
  bytes (eager, inline and rendezvous paths): 5 messages, 76100 bytes from
  each rank to each other rank;
- rank 0 broadcasts 400 bytes;
- every rank gathers 800 bytes to root 2 (rank 0 when fewer than 3 ranks).
Rank 0 prints one line, the same whatever measures the run; each rank exits
0, or 1 when a byte it received was wrong.
"""
from mpi4py import MPI

SIZES = (0, 100, 1000, 5000, 70000)
TAG = 7
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
ok = True

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
