/* bench/report_tau_scale.sh: the TAU export (site_tau.c) of a synthetic
 * job of N ranks, timed alone.  The job is what rank 0 holds at
 * MPI_Finalize after a ring: every rank's records read through the same
 * reader as a run's (sites_job_line): three sites (an Isend to the right
 * neighbour, a Recv from the left one, a Barrier), each rank's row of the
 * program's matrix one cell.
 *   report_tau_scale N DIR   prints "N cells wall user system" (seconds,
 *   sites_write_tau only)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "report.h"
#include "site_fn.h"
#include "site_job.h"
#include "site_report.h"

static int fn_of(const char *name)
{
    for (int i = 0; i < SITES_NFN; i++)
        if (!strcmp(sites_fn[i].name, name)) return i;
    return 0;
}

static double seconds(const struct timeval *t) { return (double)t->tv_sec + (double)t->tv_usec / 1e6; }

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s N DIR\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    report_job_t job;
    sites_job_t j;
    if (n < 2 || report_job_init(&job, n)) return 1;
    sites_job_init(&j, n);
    const int fns[3] = {fn_of("MPI_Isend"), fn_of("MPI_Recv"), fn_of("MPI_Barrier")};
    const unsigned long offs[3] = {0x1234, 0x1280, 0x12c0};
    char line[512];
    for (int r = 0; r < n; r++) {
        job.elapsed[r] = 1.5;
        for (int s = 0; s < 3; s++) {
            /* C: module, offset, fn, histogram, peers, calls:ns:msgs out:bytes out:msgs in:bytes in:found:max:min */
            snprintf(line, sizeof line,
                     "C\t/synthetic/ring\t%lx\t%d\t3:5\t%d:5:40\t5:%d:%d:%d:%d:%d:0:900:100\tx\t-\t-\t-",
                     offs[s], fns[s], s == 2 ? r : (r + (s ? n - 1 : 1)) % n, 1000 + r, s ? 0 : 5, s ? 0 : 40,
                     s == 1 ? 5 : 0, s == 1 ? 40 : 0);
            sites_job_line(&j, r, line);
        }
        snprintf(line, sizeof line, "T\t%d:5:40\t0", (r + 1) % n);
        sites_job_line(&j, r, line);
    }
    sites_job_finish(&j);
    job.extra.arg = &j;
    struct timespec a, b;
    struct rusage ua, ub;
    clock_gettime(CLOCK_MONOTONIC, &a);
    getrusage(RUSAGE_SELF, &ua);
    int rc = sites_write_tau(argv[2], &job);
    getrusage(RUSAGE_SELF, &ub);
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (rc) {
        perror("sites_write_tau");
        return 1;
    }
    printf("%d %d %.3f %.3f %.3f\n", n, j.ncells,
           (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
           seconds(&ub.ru_utime) - seconds(&ua.ru_utime), seconds(&ub.ru_stime) - seconds(&ua.ru_stime));
    return 0;
}
