"""What a call from mpi4py costs with papi-mpit-report's call sites: comm.Send
of 8 bytes to MPI.PROC_NULL (what is measured is the call's way through
mpi4py and the wrapper), one rank, the best of 60 trials of 20000 calls.

    mpirun -np 1 [papi-mpit-report -q -o out [--no-sites]] python3 bench/sites_python_cost.py

prints "ns_per_call=N".  doc/performance.md has what it gave.
"""
import time

from mpi4py import MPI

comm = MPI.COMM_WORLD
buf = bytearray(8)
best = 1e9
for r in range(60):
    t = time.perf_counter()
    for i in range(20000):
        comm.Send([buf, MPI.BYTE], dest=MPI.PROC_NULL)
    best = min(best, (time.perf_counter() - t) / 20000)
print("ns_per_call=%.0f" % (best * 1e9))
