/* Start-up as a program sees it: the wall and CPU time of its MPI_Init call
 * (with papi-mpit-report preloaded, the tool's start-up is inside it), and
 * where the MPI's own MPI_T_init_thread goes (bench/report_startup.sh).
 *   startup init       MPI_Init alone
 *   startup t_after    MPI_Init, then MPI_T_init_thread
 *   startup t_before   MPI_T_init_thread, then MPI_Init
 * Rank 0 prints "init_s=.. mpit_s=.. total_s=.. cpu_s=..", each the largest
 * over ranks (cpu_s: the process's CPU time over both calls, every thread).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "init";
    int before = strcmp(mode, "t_before") == 0, after = strcmp(mode, "t_after") == 0, provided, rank;
    if (!before && !after && strcmp(mode, "init") != 0) {
        fprintf(stderr, "usage: %s init|t_after|t_before\n", argv[0]);
        return 2;
    }
    double c0 = now(CLOCK_PROCESS_CPUTIME_ID), t0 = now(CLOCK_MONOTONIC), t_mpit = 0, t;
    if (before) MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    t_mpit = now(CLOCK_MONOTONIC) - t0;
    t = now(CLOCK_MONOTONIC);
    MPI_Init(&argc, &argv);
    double t_init = now(CLOCK_MONOTONIC) - t;
    if (after) {
        t = now(CLOCK_MONOTONIC);
        MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
        t_mpit = now(CLOCK_MONOTONIC) - t;
    }
    double fig[4] = {t_init, t_mpit, now(CLOCK_MONOTONIC) - t0, now(CLOCK_PROCESS_CPUTIME_ID) - c0}, worst[4];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(fig, worst, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("init_s=%.6f mpit_s=%.6f total_s=%.6f cpu_s=%.6f\n", worst[0], worst[1], worst[2], worst[3]);
    if (before || after) MPI_T_finalize();
    MPI_Finalize();
    return 0;
}
