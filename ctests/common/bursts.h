/* Traffic for the sampling tests: B bursts of T messages from rank 0 to
 * rank 1, each message left unexpected at rank 1, with CPU work after each
 * burst so that a CPU-time timer (PAPI's software overflow, 10 ms of
 * ITIMER_PROF) ticks while the count stands still at k*T.
 *
 * Exact counts of unexpected messages (ranks above 1 take no part):
 *   rank 1: B*T.  Its receives for the data are posted only after the burst's
 *           marker arrived (messages from one peer match in order), and the
 *           marker's receive is posted before rank 1 asks for the burst.
 *   rank 0: 1, the first request (probed before it is received); every later
 *           request is posted for before rank 1 can send it.
 * Burst k+1 is sent only after rank 1 finished the work after burst k. */
#ifndef MPIT_BURSTS_H
#define MPIT_BURSTS_H

#include <mpi.h>
#include <time.h>

enum { BURSTS_TAG_GO = 21, BURSTS_TAG_DATA = 22, BURSTS_TAG_MARK = 23 };

static inline double bursts_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Computes until this process used `seconds` more CPU time; returns a value
 * that depends on the work, so that it cannot be left out. */
static inline double bursts_cpu_work(double seconds)
{
    double end = bursts_cpu_seconds() + seconds, x = 1.0;
    while (bursts_cpu_seconds() < end)
        for (int i = 1; i <= 10000; i++) x = x * 0.999999 + 1.0 / i;
    return x;
}

/* Runs the traffic; after_burst (may be NULL) runs on rank 1 after the work
 * following burst k (1-based).  Returns the work's checksum. */
static inline double bursts_run(int rank, int bursts, int per_burst, double work_seconds,
                                void (*after_burst)(int k))
{
    double sum = 0;
    int go = 0, mark = 0, data = 0;
    MPI_Request req;
    if (rank == 0) {
        /* the first request arrives unexpected: wait for it without a receive */
        MPI_Probe(1, BURSTS_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&go, 1, MPI_INT, 1, BURSTS_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int k = 1; k <= bursts; k++) {
            if (k > 1) MPI_Wait(&req, MPI_STATUS_IGNORE);
            if (k < bursts) MPI_Irecv(&go, 1, MPI_INT, 1, BURSTS_TAG_GO, MPI_COMM_WORLD, &req);
            for (int i = 0; i < per_burst; i++) MPI_Send(&i, 1, MPI_INT, 1, BURSTS_TAG_DATA, MPI_COMM_WORLD);
            MPI_Send(&k, 1, MPI_INT, 1, BURSTS_TAG_MARK, MPI_COMM_WORLD);
        }
    } else if (rank == 1) {
        for (int k = 1; k <= bursts; k++) {
            MPI_Irecv(&mark, 1, MPI_INT, 0, BURSTS_TAG_MARK, MPI_COMM_WORLD, &req);
            MPI_Send(&k, 1, MPI_INT, 0, BURSTS_TAG_GO, MPI_COMM_WORLD);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            for (int i = 0; i < per_burst; i++)
                MPI_Recv(&data, 1, MPI_INT, 0, BURSTS_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += bursts_cpu_work(work_seconds);
            if (after_burst) after_burst(k);
        }
    }
    return sum;
}

#endif
