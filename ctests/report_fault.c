/* Helper program of t_report_faults.sh: an MPI program that fails.
 *
 *   report_fault abort CODE   rank 1 (rank 0 with one rank) calls MPI_Abort(CODE)
 *                             while the others wait in MPI_Recv
 *   report_fault kill         rank 1 sends itself SIGKILL, the others wait in
 *                             MPI_Recv
 *   report_fault exit CODE    every rank returns CODE from main without
 *                             MPI_Finalize (after a barrier)
 *   report_fault spawn        rank 0 of the job starts 2 children (this
 *                             program, "child") with MPI_Comm_spawn, sends each
 *                             its rank, gets it back plus 100, and all
 *                             disconnect (MPI_Comm_disconnect), then
 *                             MPI_Finalize; exits 0 (Open MPI 4.1's coll
 *                             monitoring crashes in the disconnect)
 *   report_fault fsize KIB    after MPI_Init (whose shared memory needs more),
 *                             files this process writes may not grow past KIB
 *                             KiB (SIGXFSZ ignored: write fails with EFBIG),
 *                             then MPI_Finalize; exits 3
 *   report_fault chdir DIR    every rank changes its working directory to DIR
 *                             after MPI_Init, then MPI_Finalize; exits 0
 *   report_fault window       every rank allocates a window, uses it (fences)
 *                             and leaves it to MPI_Finalize to free; exits 0
 *                             (Open MPI 4.1 with SPCs attached crashed there;
 *                             MPICH's MPI_Finalize fails on it by itself)
 * Nothing is printed; every other outcome exits 99.
 */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define CHILDREN 2

/* The parent's side: 0, or 98 when a child answered wrong. */
static int spawn_children(const char *self)
{
    MPI_Comm inter;
    char *args[] = {"child", NULL};
    int errs[CHILDREN], bad = 0;
    MPI_Comm_spawn(self, args, CHILDREN, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errs);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        for (int c = 0; c < CHILDREN; c++) {
            int v = c, back = -1;
            MPI_Send(&v, 1, MPI_INT, c, 0, inter);
            MPI_Recv(&back, 1, MPI_INT, c, 0, inter, MPI_STATUS_IGNORE);
            bad |= back != c + 100;
        }
    MPI_Comm_disconnect(&inter);
    return bad ? 98 : 0;
}

/* A child's side: answers the parent's rank 0, disconnects. */
static int child(void)
{
    MPI_Comm parent;
    int v = -1;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) return 97;
    MPI_Recv(&v, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
    v += 100;
    MPI_Send(&v, 1, MPI_INT, 0, 0, parent);
    MPI_Comm_disconnect(&parent);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) return 99;
    MPI_Init(&argc, &argv);
    if (strcmp(argv[1], "child") == 0) return child();
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
    } else if (strcmp(argv[1], "spawn") == 0) {
        int rc = spawn_children(argv[0]);
        MPI_Finalize();
        return rc;
    } else if (strcmp(argv[1], "window") == 0) {
        MPI_Win win; /* left open */
        int *base;
        MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_fence(0, win);
        MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
        MPI_Win_fence(0, win);
        MPI_Finalize();
        return 0;
    } else if (strcmp(argv[1], "chdir") == 0 && argc > 2) {
        if (chdir(argv[2])) return 98;
        MPI_Finalize();
        return 0;
    } else if (strcmp(argv[1], "fsize") == 0 && argc > 2) {
        struct rlimit lim = {(rlim_t)atoi(argv[2]) * 1024, (rlim_t)atoi(argv[2]) * 1024};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &lim)) return 98;
        MPI_Finalize();
        return 3;
    }
    return 99;
}
