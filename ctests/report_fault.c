/* Helper program of t_report_faults.sh: an MPI program that fails.
 *
 *   report_fault abort CODE   rank 1 (rank 0 with one rank) calls MPI_Abort(CODE)
 *                             while the others wait in MPI_Recv
 *   report_fault kill         rank 1 sends itself SIGKILL, the others wait in
 *                             MPI_Recv
 *   report_fault exit CODE    every rank returns CODE from main without
 *                             MPI_Finalize (after a barrier)
 *   report_fault fsize KIB    after MPI_Init (whose shared memory needs more),
 *                             files this process writes may not grow past KIB
 *                             KiB (SIGXFSZ ignored: write fails with EFBIG),
 *                             then MPI_Finalize; exits 3
 * Nothing is printed; every other outcome exits 99.
 */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) return 99;
    MPI_Init(&argc, &argv);
    int rank, size, x;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int victim = size > 1 ? 1 : 0;
    if (strcmp(argv[1], "abort") == 0 && argc > 2) {
        if (rank == victim) MPI_Abort(MPI_COMM_WORLD, atoi(argv[2]));
        MPI_Recv(&x, 1, MPI_INT, victim, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(argv[1], "kill") == 0) {
        if (rank == victim) kill(getpid(), SIGKILL);
        MPI_Recv(&x, 1, MPI_INT, victim, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (strcmp(argv[1], "exit") == 0 && argc > 2) {
        MPI_Barrier(MPI_COMM_WORLD);
        return atoi(argv[2]);
    } else if (strcmp(argv[1], "fsize") == 0 && argc > 2) {
        struct rlimit lim = {(rlim_t)atoi(argv[2]) * 1024, (rlim_t)atoi(argv[2]) * 1024};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &lim)) return 98;
        MPI_Finalize();
        return 3;
    }
    return 99;
}
