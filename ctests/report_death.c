/*
 * A program whose ranks die or block after a known number of calls per
 * site, for the tests of papi-mpit-report's mapped state files
 * (t_report_death_segv.sh, t_report_death_oom.sh, t_report_hang_kill.sh).
 * The lines the tests assert are marked "site:NAME"; they find their
 * numbers with grep.  4 ranks (an even number); the victim is the last.
 *   every rank:  3 MPI_Barrier on MPI_COMM_WORLD (site:barrier), one
 *                MPI_Comm_split by rank parity (site:split), 2
 *                MPI_Allreduce of one int on it (site:allreduce);
 *                rank 0 sends 5 messages of 8 B to rank 1, tag 7
 *                (site:send), which rank 1 receives (site:recv)
 *   then, the victim's half (its parity) but the victim: MPI_Barrier on
 *   the split communicator (site:subbarrier); the other half: each
 *   receives from the other member of its split communicator, tag 30
 *   (site:subrecv): a cycle of 2 ranks on a split communicator.  The victim:
 *     block        receives from the other member of its split communicator
 *                  (site:subrecv), which waits in the barrier
 *     segv GO      waits for the file GO (made by the test once every other
 *                  rank is in its call), then writes through a NULL pointer
 *     oom GO CG    the same, then moves itself into the memory cgroup CG
 *                  (its limit set by the test) and touches memory until
 *                  the kernel's OOM killer ends it
 * And apart from all that, "flood": every rank receives once from
 * MPI_PROC_NULL (site:floodrecv, its first site), then calls MPI_Barrier on
 * MPI_COMM_SELF at FLOOD_SITES distinct lines (site:flood), FLOOD_OVER more
 * than the site table has room for (SITES_MAX, 2048, holds the receive and
 * 2047 of them), then blocks at site:floodrecv receiving from the next
 * rank (tag 41): FLOOD_OVER calls of each rank not recorded.
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* waits (bounded: 120 s) for a file to exist: the test's go, not a time */
static int wait_file(const char *path)
{
    struct stat st;
    for (int i = 0; i < 12000; i++) {
        if (stat(path, &st) == 0) return 0;
        struct timespec t = {0, 10000000};
        nanosleep(&t, NULL);
    }
    return -1;
}

static void join_cgroup(const char *cg)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/cgroup.procs", cg);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f)) {
        perror(path);
        exit(2);
    }
}

#define FLOOD_OVER  37
#define FLOOD_SITES (2047 + FLOOD_OVER)
#define SELF1       MPI_Barrier(MPI_COMM_SELF);
#define SELF4       SELF1 SELF1 SELF1 SELF1
#define SELF16      SELF4 SELF4 SELF4 SELF4
#define SELF64      SELF16 SELF16 SELF16 SELF16
#define SELF256     SELF64 SELF64 SELF64 SELF64
#define SELF1024    SELF256 SELF256 SELF256 SELF256

__attribute__((noinline)) static void flood_recv(int from)
{
    int msg[2];
    MPI_Recv(msg, 2, MPI_INT, from, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:floodrecv */
}

/* one call at each of FLOOD_SITES lines: 2084 = 2 * 1024 + 32 + 4 */
static void flood(int rank, int size)
{
    _Static_assert(FLOOD_SITES == 2 * 1024 + 32 + 4, "the lines below make FLOOD_SITES calls");
    flood_recv(MPI_PROC_NULL);
    SELF1024 SELF1024 SELF16 SELF16 SELF4; /* site:flood */
    flood_recv((rank + 1) % size);
}

int main(int argc, char **argv)
{
    int rank, size, in = 1, out = 0, msg[2] = {0, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *mode = argc > 1 ? argv[1] : "block";
    if (strcmp(mode, "flood") == 0) flood(rank, size);
    int victim = size - 1;
    MPI_Comm sub;
    for (int i = 0; i < 3; i++) MPI_Barrier(MPI_COMM_WORLD);                        /* site:barrier */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &sub);                           /* site:split */
    for (int i = 0; i < 2; i++) MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, sub); /* site:allreduce */
    if (rank == 0)
        for (int i = 0; i < 5; i++) MPI_Send(msg, 2, MPI_INT, 1, 7, MPI_COMM_WORLD); /* site:send */
    if (rank == 1)
        for (int i = 0; i < 5; i++)
            MPI_Recv(msg, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv */
    if (rank % 2 == victim % 2 && rank != victim) {
        MPI_Barrier(sub); /* site:subbarrier */
    } else if (rank != victim || strcmp(mode, "block") == 0) {
        int me, other;
        MPI_Comm_rank(sub, &me);
        other = 1 - me;
        MPI_Recv(msg, 2, MPI_INT, other, 30, sub, MPI_STATUS_IGNORE); /* site:subrecv */
    } else if (argc > 2 && wait_file(argv[2]) == 0) {
        if (strcmp(mode, "segv") == 0) {
            volatile int *nowhere = NULL;
            *nowhere = 1;
        } else if (strcmp(mode, "oom") == 0 && argc > 3) {
            join_cgroup(argv[3]);
            for (;;) { /* until the OOM killer: every page touched */
                char *p = malloc(1 << 20);
                if (!p) break;
                memset(p, 1, 1 << 20);
            }
        }
    }
    fprintf(stderr, "report_death: rank %d of %d: %s did not end the run as it should\n", rank, size, mode);
    MPI_Finalize();
    return 1;
}
