/* A small MPI program with real traffic for the demo: every rank sends a
 * burst to its right neighbour before that neighbour posts the receives
 * (so the messages arrive unexpected), computes a while with the burst
 * waiting, as a late receiver does, then a ring of larger messages and a
 * few collectives.  Plain MPI: it knows nothing of PAPI. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BURST 50
#define ROUNDS 20
#define BIG 65536
#define COMPUTE_S 0.015 /* longer than the report's 10 ms sample period */

/* Work of a given length, with no MPI call (no progress) in it. */
static void compute(double seconds)
{
    double t0 = MPI_Wtime();
    volatile double x = 0;
    while (MPI_Wtime() - t0 < seconds)
        for (int i = 0; i < 1000; i++) x += 1e-9 * i;
}

int main(int argc, char **argv)
{
    int rank, size, token = 0;
    static char out[BIG], in[BIG];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    for (int round = 0; round < ROUNDS; round++) {
        /* the burst goes out first; the neighbour receives only after the
         * token has gone round, so the burst waits in its unexpected queue */
        for (int i = 0; i < BURST; i++) MPI_Send(&i, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Send(&token, 1, MPI_INT, right, 2, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&token, 1, MPI_INT, right, 2, MPI_COMM_WORLD);
        }
        compute(COMPUTE_S);
        for (int i = 0; i < BURST; i++) {
            int v;
            MPI_Recv(&v, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Sendrecv(out, BIG, MPI_CHAR, right, 3, in, BIG, MPI_CHAR, left, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        double x = rank, sum;
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0) printf("traffic: %d ranks, %d rounds of %d-message bursts done\n", size, ROUNDS, BURST);
    MPI_Finalize();
    return 0;
}
