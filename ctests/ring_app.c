/* Helper program of the tool tests (t_tau.sh): a plain MPI program, no PAPI
 * call, whose unexpected messages are known exactly.
 *
 *   ring_app [-m MESSAGES] [-b BYTES]
 *
 * One burst of MESSAGES messages of BYTES bytes around the early ring
 * (common/ring.h): all MESSAGES + 1 (the go) arrive unexpected on every
 * rank, whatever the timing.  The "ready" handshake keeps messages from
 * reaching a rank still in MPI_Init, where an MPI receives before its
 * counters run (Open MPI's SPCs start after MPI_Init's last fence; MPICH's
 * events reach the component only from its first call after MPI_Init).  No
 * collectives (their internal messages are unexpected or not by timing).
 * Each rank prints
 * "ring_app rank R done" to stdout.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/ring.h"

int main(int argc, char **argv)
{
    int messages = 10, bytes = 64, opt;
    while ((opt = getopt(argc, argv, "m:b:")) != -1) {
        switch (opt) {
        case 'm': messages = atoi(optarg); break;
        case 'b': bytes = atoi(optarg); break;
        default: fprintf(stderr, "usage: ring_app [-m MESSAGES] [-b BYTES]\n"); return 2;
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
    return 0;
}
