/* Helper program of the tool tests (t_tau.sh): a plain MPI program, no PAPI
 * call, whose unexpected messages are known exactly.
 *
 *   ring_app [-m MESSAGES] [-b BYTES] [-t]
 *
 * One burst of MESSAGES messages of BYTES bytes around the early ring
 * (common/ring.h): all MESSAGES + 1 (the go) arrive unexpected on every
 * rank, whatever the timing.  The "ready" handshake keeps messages from
 * reaching a rank still in MPI_Init, where an MPI receives before its
 * counters run (Open MPI's SPCs start after MPI_Init's last fence; MPICH's
 * events reach the component only from its first call after MPI_Init).  No
 * collectives (their internal messages are unexpected or not by timing).
 * Each rank prints
 * "ring_app rank R done" to stdout.  -t: after MPI_Finalize, a thread is
 * started and joined (a tool that measures threads makes it a location of
 * its own then, when MPI is gone), and prints "ring_app rank R thread done".
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/ring.h"

static void *late_thread(void *arg)
{
    volatile long *sum = arg;
    for (long i = 0; i < 1000000; i++) *sum += i;
    return NULL;
}

int main(int argc, char **argv)
{
    int messages = 10, bytes = 64, thread_after = 0, opt;
    while ((opt = getopt(argc, argv, "m:b:t")) != -1) {
        switch (opt) {
        case 'm': messages = atoi(optarg); break;
        case 'b': bytes = atoi(optarg); break;
        case 't': thread_after = 1; break;
        default: fprintf(stderr, "usage: ring_app [-m MESSAGES] [-b BYTES] [-t]\n"); return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size;
    size_t n = (size_t)messages * (size_t)bytes + 1;
    char *sbuf = malloc(n), *rbuf = malloc(n);
    if (!sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < n; i++) sbuf[i] = (char)(rank + (int)i);
    ring_burst_t burst = {messages, bytes};
    int ok = ring_exchange(&burst, 1, sbuf, rbuf);

    long sum = 0;
    for (size_t i = 0; i + 1 < n; i++) sum += (unsigned char)rbuf[i];
    printf("ring_app rank %d done: %d messages of %d bytes from rank %d, go %d, checksum %ld\n", rank,
           messages, bytes, left, ok, sum);
    fflush(stdout);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    if (thread_after) {
        pthread_t t;
        volatile long late = 0;
        if (pthread_create(&t, NULL, late_thread, (void *)&late) != 0 || pthread_join(t, NULL) != 0) return 1;
        printf("ring_app rank %d thread done\n", rank);
    }
    return 0;
}
