/* The library of bench/sites_depth_cost.c: depth_call(k, n) goes k - 1
 * frames deeper inside this library, then makes n calls of MPI_Send to
 * MPI_PROC_NULL (the cheapest call an MPI has: what is measured is the
 * wrapper).  Built like a shipped library (-O2, no frame pointer) but with
 * no sibling calls, so each frame stays. */
#include <mpi.h>

__attribute__((noinline, noipa)) int depth_call(int k, int n)
{
    int x = 0, rc = 0;
    if (k > 1) return depth_call(k - 1, n) + 1;
    for (int i = 0; i < n; i++) rc |= MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    return rc;
}
