/*
 * A known sequence of calls, then a ring deadlock, for the timeline of a
 * killed run (t_report_timeline.sh): each rank makes K MPI_Sendrecv (call
 * i: i + 1 ints to its right neighbour and from its left one, tag 10 + i),
 * one MPI_Barrier, then receives from its left neighbour (tag 99), which
 * no rank ever sends: a cycle of every rank.  The lines the test asserts
 * are marked "site:NAME".
 */
#include <mpi.h>

#define K 5

int main(int argc, char **argv)
{
    int rank, size, out[K] = {0}, in[K], buf = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Comm w = MPI_COMM_WORLD;
    for (int i = 0; i < K; i++) {
        int n = i + 1, tag = 10 + i;
        /* site:sendrecv (the next line) */
        MPI_Sendrecv(out, n, MPI_INT, right, tag, in, n, MPI_INT, left, tag, w, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(w);                                             /* site:barrier */
    MPI_Recv(&buf, 1, MPI_INT, left, 99, w, MPI_STATUS_IGNORE); /* site:ring */
    MPI_Send(&buf, 1, MPI_INT, right, 99, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
