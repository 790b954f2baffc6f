/* What Open MPI's monitoring costs a program: an 8-byte ping-pong (us per
 * round trip) and a 1 MiB one (MB/s), best of several trials, between ranks
 * 0 and 1.  No PAPI: the cost is the MPI's own, switched on or off by
 * pml_monitoring_enable (bench/monitoring_cost.sh runs both).
 *   mpirun -np 2 ./monitoring_cost [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TRIALS 5
#define BIG    (1 << 20)

static double pingpong(int rank, char *buf, int bytes, int iters)
{
    double best = 1e30;
    for (int t = 0; t < TRIALS; t++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI_Send(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, bytes, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        double s = (MPI_Wtime() - t0) / iters;
        if (s < best) best = s;
    }
    return best;
}

int main(int argc, char **argv)
{
    int rank, iters = argc > 1 ? atoi(argv[1]) : 20000;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    char *buf = calloc(BIG, 1);
    double small = pingpong(rank, buf, 8, iters);
    double big = pingpong(rank, buf, BIG, iters / 100 > 10 ? iters / 100 : 10);
    if (rank == 0) printf("latency_us=%.3f bandwidth_MBs=%.1f\n", small * 1e6, 2.0 * BIG / big / 1e6);
    free(buf);
    MPI_Finalize();
    return 0;
}
