/* Helper program of t_hpcrun.sh: an MPI program with no PAPI call, whose
 * rank 1 receives B bursts of T unexpected messages with CPU work after each
 * (common/bursts.h says exactly what each rank receives).
 *
 *   burst_app [-b BURSTS] [-t PER_BURST] [-w WORK_MS]
 *
 * Rank 0 prints one line to stdout when done. */
#include "bursts.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int bursts = 5, per_burst = 20, work_ms = 60, opt;
    while ((opt = getopt(argc, argv, "b:t:w:")) != -1) {
        switch (opt) {
        case 'b': bursts = atoi(optarg); break;
        case 't': per_burst = atoi(optarg); break;
        case 'w': work_ms = atoi(optarg); break;
        default: fprintf(stderr, "usage: burst_app [-b BURSTS] [-t PER_BURST] [-w WORK_MS]\n"); return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        if (rank == 0) fprintf(stderr, "burst_app needs 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    double sum = bursts_run(rank, bursts, per_burst, work_ms / 1000.0, NULL);
    if (rank == 1)
        printf("burst_app rank 1: %d bursts of %d messages received (work %.3g)\n", bursts, per_burst, sum);
    if (rank == 0) printf("burst_app rank 0: %d bursts of %d messages sent\n", bursts, per_burst);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
