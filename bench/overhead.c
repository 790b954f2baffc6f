/* What papi-mpit-report costs a compute-bound program with frequent small
 * collectives: ITERS rounds of WORK units of arithmetic (a dependent
 * multiply-add chain: the same instructions whatever the machine's load)
 * each followed by an MPI_Allreduce of one double.  bench/report_overhead.sh
 * picks WORK so that a round is about 10 ms and runs it with and without the
 * tool.
 *   overhead calibrate MS     prints the WORK of a round of about MS ms (best of 5)
 *   overhead ITERS WORK       rank 0 prints "loop_s=.. cpu_s=.. round_ms=..":
 *                             the rounds' wall time, the process CPU time over
 *                             them (every thread, the tool's included) and the
 *                             median round, each the largest over ranks.  On a
 *                             loaded machine the median round is the steady
 *                             figure: a round in which another program took the
 *                             core is an outlier there, not in the sum.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* WORK units of 1000 dependent multiply-adds.  The result goes through a
 * volatile, so that the compiler cannot move the work past the clock. */
static volatile double sink;
static double compute(long work, double x)
{
    for (long i = 0; i < work; i++)
        for (int j = 0; j < 1000; j++) x = x * 0.999999 + 1e-6;
    sink = x;
    return sink;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "calibrate") == 0) { /* no MPI */
        double ms = atof(argv[2]), best = 1e30, x = 1;
        long work = 1000;
        for (int k = 0; k < 5; k++) {
            double t = now(CLOCK_MONOTONIC);
            x = compute(work, x);
            t = now(CLOCK_MONOTONIC) - t;
            if (t < best) best = t;
        }
        printf("%ld\n", (long)(work * ms / 1e3 / best));
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: %s calibrate MS | %s ITERS WORK\n", argv[0], argv[0]);
        return 2;
    }
    long iters = atol(argv[1]), work = atol(argv[2]);
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double x = 1 + rank, sum = 0, *round = malloc((size_t)(iters > 0 ? iters : 1) * sizeof *round);
    if (!round || iters < 1) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = now(CLOCK_MONOTONIC), c = now(CLOCK_PROCESS_CPUTIME_ID), r = t;
    for (long i = 0; i < iters; i++) {
        x = compute(work, x);
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double e = now(CLOCK_MONOTONIC);
        round[i] = e - r;
        r = e;
    }
    double fig[3] = {now(CLOCK_MONOTONIC) - t, now(CLOCK_PROCESS_CPUTIME_ID) - c, 0}, worst[3];
    qsort(round, (size_t)iters, sizeof *round, by_value);
    fig[2] = round[iters / 2];
    MPI_Reduce(fig, worst, 3, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("loop_s=%.6f cpu_s=%.6f round_ms=%.4f sum=%g\n", worst[0], worst[1], 1e3 * worst[2], sum);
    free(round);
    MPI_Finalize();
    return 0;
}
