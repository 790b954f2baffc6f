/* The collection model's L and t on this machine (doc/performance.md,
 * "collecting the records at scale"): between 2 ranks,
 *   L  one-way latency of a zero-byte message (half the best round trip)
 *   t  time per zero-byte message when rank 1 sends N of them into receives
 *      rank 0 posted beforehand, as the collection sends records (best)
 * Usage: mpirun -np 2 zero_byte_rate [N] [trials]   (default 4096, 20)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 4096, trials = argc > 2 ? atoi(argv[2]) : 20, rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request *req = malloc((size_t)n * sizeof *req);
    double best_rt = 1e30, best_t = 1e30;
    for (int k = 0; k < trials; k++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < 1000; i++) {
            if (rank == 0) {
                MPI_Send(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(NULL, 0, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(NULL, 0, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        double rt = (MPI_Wtime() - t0) / 1000;
        if (rt < best_rt) best_rt = rt;
        /* n receives posted, a go, n messages in */
        if (rank == 0) {
            for (int i = 0; i < n; i++) MPI_Irecv(NULL, 0, MPI_BYTE, 1, 2 + i, MPI_COMM_WORLD, &req[i]);
            t0 = MPI_Wtime();
            MPI_Send(NULL, 0, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
            double t = (MPI_Wtime() - t0) / n;
            if (t < best_t) best_t = t;
        } else {
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++) MPI_Send(NULL, 0, MPI_BYTE, 0, 2 + i, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("L=%.3f us t=%.3f us (best of %d; %d messages)\n", 1e6 * best_rt / 2, 1e6 * best_t, trials, n);
    free(req);
    MPI_Finalize();
    return 0;
}
