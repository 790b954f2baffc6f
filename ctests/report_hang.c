/*
 * Programs that hang, for t_report_hang.sh (papi-mpit-report's snapshots of
 * a run that never reaches MPI_Finalize).  The lines the test asserts are
 * marked "site:NAME"; it finds their numbers with grep.
 *   deadlock    2 ranks: each receives from the other first (a cycle)
 *   mismatch    rank 0 sends tag 7 to rank 1 (3 times) and enters a
 *               barrier; rank 1 waits for tag 8 from rank 0
 *   collective  every rank but the last enters an allreduce on a duplicate
 *               of MPI_COMM_WORLD; the last waits for a message from rank 0
 *   usr1 DIR KEEP  runs normally: rank 0 signals itself with SIGUSR1 twice
 *               (the second once the first snapshot is in DIR; the second
 *               is kept as KEEP), then every rank exits with status 3 after
 *               MPI_Finalize; the program's own SIGUSR1 handlers, one
 *               installed before MPI_Init (sigaction), one after (signal),
 *               say on stdout how often they ran; DIR "-": no signal
 *   ring        every rank receives from the previous one first, then
 *               sends to the next (a cycle of all ranks; 2 or more)
 *   periodic    rank 0 sends 5 messages of 8 B to rank 1, then both wait
 *               (the test kills them with SIGKILL once a periodic snapshot
 *               shows those counts)
 */
#include <mpi.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t before_ran, after_ran;
static void before(int sig) { (void)sig, before_ran++; }
static void after(int sig) { (void)sig, after_ran++; }

/* waits (bounded: 30 s) for a file to exist */
static int wait_file(const char *path)
{
    struct stat st;
    for (int i = 0; i < 3000; i++) {
        if (stat(path, &st) == 0) return 0;
        struct timespec t = {0, 10000000};
        nanosleep(&t, NULL);
    }
    return -1;
}

int main(int argc, char **argv)
{
    int rank, size, buf = 0, msg[2] = {0, 0};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = before;
    sigaction(SIGUSR1, &sa, NULL);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "deadlock";
    if (strcmp(mode, "deadlock") == 0 && size >= 2 && rank < 2) {
        int other = 1 - rank;
        MPI_Recv(&buf, 1, MPI_INT, other, 10 + rank, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:deadlock */
        MPI_Send(&buf, 1, MPI_INT, other, 10 + other, MPI_COMM_WORLD);
    } else if (strcmp(mode, "ring") == 0 && size >= 2) {
        int prev = (rank + size - 1) % size, next = (rank + 1) % size;
        MPI_Recv(&buf, 1, MPI_INT, prev, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:ring */
        MPI_Send(&buf, 1, MPI_INT, next, 20, MPI_COMM_WORLD);
    } else if (strcmp(mode, "mismatch") == 0 && size >= 2) {
        if (rank == 0) {
            for (int i = 0; i < 3; i++) MPI_Send(&buf, 1, MPI_INT, 1, 7, MPI_COMM_WORLD); /* site:send7 */
            MPI_Barrier(MPI_COMM_WORLD);                                                  /* site:barrier */
        } else if (rank == 1) {
            MPI_Recv(&buf, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv8 */
        }
    } else if (strcmp(mode, "collective") == 0) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        if (rank < size - 1) {
            int in = 1, out = 0;
            MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, dup); /* site:allreduce */
        } else {
            MPI_Recv(&buf, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv5 */
        }
    } else if (strcmp(mode, "usr1") == 0 && argc > 3) {
        void (*was)(int) = signal(SIGUSR1, after);
        if (rank == 0 && strcmp(argv[2], "-")) {
            char path[4096];
            snprintf(path, sizeof path, "%s/snapshot.0.txt", argv[2]);
            raise(SIGUSR1);
            if (wait_file(path)) fprintf(stderr, "report_hang: no %s after the first SIGUSR1\n", path);
            unlink(path); /* the second one makes it again */
            raise(SIGUSR1);
            if (wait_file(path)) fprintf(stderr, "report_hang: no %s after the second SIGUSR1\n", path);
            rename(path, argv[3]);
        }
        if (rank == 0)
            printf("handler before MPI_Init: %d, after: %d, signal() returned the one before: %s\n",
                   (int)before_ran, (int)after_ran, was == before ? "yes" : "no");
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Finalize();
        return 3;
    } else if (strcmp(mode, "periodic") == 0 && size >= 2) {
        for (int i = 0; i < 5 && rank < 2; i++) {
            if (rank == 0)
                MPI_Send(msg, 2, MPI_INT, 1, 3, MPI_COMM_WORLD); /* site:send8 */
            else
                MPI_Recv(msg, 2, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        MPI_Recv(&buf, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:wait */
    }
    MPI_Finalize();
    return 0;
}
