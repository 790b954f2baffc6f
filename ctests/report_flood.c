/* Helper program of t_report_sampled.sh: unexpected queues that fill to a
 * known peak and drain again before MPI_Finalize.
 *
 *   report_flood [-k K]      (default K = 100)
 *
 * A ring: rank r sends K * ((r+1) mod N) messages of 16 bytes to rank
 * (r+1) mod N, then a token; the receiver waits for the token with
 * MPI_Probe, so that everything it is sent waits in its unexpected queue at
 * once (non-overtaking: the token comes last).  Rank r's queue peaks at
 * K*r + 1 (the token too); then it receives everything, and its queue is
 * empty long before MPI_Finalize.  Nothing else is sent on MPI_COMM_WORLD.
 * The token is awaited with MPI_Iprobe, never MPI_Probe: a blocking probe
 * waits in Open MPI's posted queue (ob1 posts it like a receive), so that
 * POSTED_QUEUE_MAX would be 0 or 1 by timing; no receive is ever posted.
 *
 * Under papi-mpit-report the peak is held until the tool's sampler has read
 * it: the rank yields the CPU (no MPI call, no sleep) until the tool's count
 * of samples (papi_mpit_report_samples, found with dlsym) has grown by 2
 * since the peak, so that one whole sample began after it.  Without the
 * tool, or with sampling off (the count is -1), it does not wait.
 * Rank 0 prints one line to stdout; exit 0.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define TAG_DATA  5
#define TAG_TOKEN 6

/* Returns once a sample of the tool began after this call (at once when no
 * sampler runs); the number of samples waited for. */
static long hold_for_a_sample(void)
{
    long (*samples)(void) = (long (*)(void))dlsym(RTLD_DEFAULT, "papi_mpit_report_samples");
    long first = samples ? samples() : -1, now = first;
    if (first < 0) return 0;
    while ((now = samples()) >= 0 && now < first + 2) sched_yield();
    return now - first;
}

int main(int argc, char **argv)
{
    int k = 100, opt;
    while ((opt = getopt(argc, argv, "k:")) != -1) {
        if (opt != 'k') {
            fprintf(stderr, "usage: report_flood [-k K]\n");
            return 2;
        }
        k = atoi(optarg);
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int nsend = k * right, nrecv = k * rank;
    char sbuf[16] = {0}, rbuf[16];
    MPI_Request *req = calloc((size_t)nsend + 1, sizeof *req);
    MPI_Status *st = calloc((size_t)nsend + 1, sizeof *st); /* not IGNORE: gcc warns on MPICH's */
    if (!req || !st) MPI_Abort(MPI_COMM_WORLD, 1);
    for (int i = 0; i < nsend; i++) MPI_Isend(sbuf, 16, MPI_CHAR, right, TAG_DATA, MPI_COMM_WORLD, &req[i]);
    MPI_Isend(NULL, 0, MPI_CHAR, right, TAG_TOKEN, MPI_COMM_WORLD, &req[nsend]);
    for (int arrived = 0; !arrived;) MPI_Iprobe(left, TAG_TOKEN, MPI_COMM_WORLD, &arrived, MPI_STATUS_IGNORE);
    long waited = hold_for_a_sample(); /* the queue holds nrecv + 1 now */
    for (int i = 0; i < nrecv; i++)
        MPI_Recv(rbuf, 16, MPI_CHAR, left, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(NULL, 0, MPI_CHAR, left, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(nsend + 1, req, st);
    free(req);
    free(st);
    if (rank == 0)
        printf("report_flood: %d ranks, K %d, rank 0 held its peak for %ld samples\n", size, k, waited);
    MPI_Finalize();
    return 0;
}
