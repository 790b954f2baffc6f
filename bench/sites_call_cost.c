/* What a wrapped call costs, measured where the machine's load blurs it
 * least: one rank sending to itself (no other process to wait for), the
 * best of many short trials.  Each iteration is MPI_Isend (8 bytes) +
 * MPI_Recv + MPI_Wait to self: three wrapped calls, one tracked completion.
 * bench/report_sites_cost.sh runs it with no tool, the tool with
 * --no-sites, and the tool.
 *   sites_call_cost [iterations] [trials] [multiple]    (default 20000, 200)
 * ("multiple": MPI_Init_thread with MPI_THREAD_MULTIPLE, where the wrappers
 * count with atomics and keep the longest and shortest call with CAS loops)
 * prints "ns_per_iteration=BEST median=MEDIAN".
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int provided;
    if (argc > 3 && argv[3][0] == 'm')
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    else
        MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 20000, trials = argc > 2 ? atoi(argv[2]) : 200;
    double *t = malloc(sizeof *t * (size_t)trials), out = 1, in;
    if (!t) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int k = 0; k < trials; k++) {
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < n; i++) {
            MPI_Request r;
            MPI_Isend(&out, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, &r);
            MPI_Recv(&in, 1, MPI_DOUBLE, 0, 1, MPI_COMM_SELF, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
        }
        clock_gettime(CLOCK_MONOTONIC, &b);
        t[k] = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
    }
    qsort(t, (size_t)trials, sizeof *t, by_value);
    printf("ns_per_iteration=%.1f median=%.1f\n", t[0], t[trials / 2]);
    free(t);
    MPI_Finalize();
    return 0;
}
