/* What the site capture costs per call (utils/report/sites/site_frames.c), from
 * the program's own code and from inside a library k frames deep
 * (bench/sites_depth_lib.c): MPI_Send to MPI_PROC_NULL, one rank, the best
 * and the median of many short trials.  bench/report_sites_depth.sh runs it
 * without the tool and with --site-depth 1 and the default.
 *   sites_depth_cost [calls] [trials]    (default 20000, 200)
 * prints one line per k: "k=K ns_per_call=BEST median=MEDIAN mallocs=M"
 * (k=0: the program calls MPI_Send itself; mallocs: calls of malloc,
 * calloc and realloc during the timed loops, counted by
 * bench/malloc_count.c when it is preloaded, else -1).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int depth_call(int k, int n);
long long malloc_count(void) __attribute__((weak));

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int n = argc > 1 ? atoi(argv[1]) : 20000, trials = argc > 2 ? atoi(argv[2]) : 200;
    double *t = malloc(sizeof *t * (size_t)trials);
    if (!t) MPI_Abort(MPI_COMM_WORLD, 1);
    static const int ks[] = {0, 1, 2, 4, 8};
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        int k = ks[j], x = 0;
        /* a first pass outside the timing: the sites and modules are seen */
        if (k == 0)
            for (int i = 0; i < 10; i++) MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
        else
            depth_call(k, 10);
        long long m0 = malloc_count ? malloc_count() : -1;
        for (int r = 0; r < trials; r++) {
            double a = now_ns();
            if (k == 0)
                for (int i = 0; i < n; i++) MPI_Send(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
            else
                depth_call(k, n);
            t[r] = (now_ns() - a) / n;
        }
        long long m1 = malloc_count ? malloc_count() : -1;
        qsort(t, (size_t)trials, sizeof *t, by_value);
        printf("k=%d ns_per_call=%.1f median=%.1f mallocs=%lld\n", k, t[0], t[trials / 2],
               malloc_count ? m1 - m0 : -1);
    }
    free(t);
    MPI_Finalize();
    return 0;
}
