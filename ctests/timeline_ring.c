/*
 * A known sequence of calls, then a ring deadlock, for the timeline of a
 * killed run (t_report_timeline.sh): each rank makes K MPI_Sendrecv (K the
 * first argument, 5 without one, at most KMAX; call i: 1 + i % 8 ints to
 * its right neighbour and from its left one, tag 10 + i), one MPI_Barrier,
 * then receives from its left neighbour (tag 99), which no rank ever sends:
 * a cycle of every rank.  The lines the test asserts
 * are marked "site:NAME".
 */
#include <mpi.h>
#include <stdlib.h>

#define KMAX 4096

int main(int argc, char **argv)
{
    int rank, size, out[8] = {0}, in[8], buf = 0;
    MPI_Init(&argc, &argv);
    int K = argc > 1 ? atoi(argv[1]) : 5;
    if (K < 0 || K > KMAX) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Comm w = MPI_COMM_WORLD;
    for (int i = 0; i < K; i++) {
        int n = 1 + i % 8, tag = 10 + i;
        /* site:sendrecv (the next line) */
        MPI_Sendrecv(out, n, MPI_INT, right, tag, in, n, MPI_INT, left, tag, w, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(w);                                             /* site:barrier */
    MPI_Recv(&buf, 1, MPI_INT, left, 99, w, MPI_STATUS_IGNORE); /* site:ring */
    MPI_Send(&buf, 1, MPI_INT, right, 99, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
