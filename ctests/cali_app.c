/* The application of t_caliper.sh: an MPI program with Caliper region
 * annotations and known unexpected-message traffic.  It makes no PAPI call:
 * Caliper's papi service reads the counters.
 *
 *   cali_app [-n N] [-b BYTES] [-e]
 *
 * Ring: every rank sends N messages of BYTES bytes and then a marker (one
 * int) to its right neighbour (region "send"), then waits with MPI_Probe
 * until the marker from its left neighbour is in, and only then receives it
 * and the N data messages (region "receive").  No receive is posted before
 * the probe returns and one sender's messages cannot overtake each other, so
 * on every rank all N + 1 messages arrive unexpected, in every run.  A rank
 * sends only after its right neighbour said "ready" (common/ring.h: it has
 * left MPI_Init, and Open MPI's SPCs, which start at its end, count), so
 * none of them arrives before the receiver counts; a rank sends
 * N * BYTES + 2 * sizeof(int) user bytes.  There is no other MPI traffic
 * between MPI_Init and MPI_Finalize (no collective).
 *
 * Caliper initialises at the first annotation ("main"): right after MPI_Init,
 * before any other MPI call, so no rank has received anything before its
 * Caliper counts; with -e, before MPI_Init.  Rank 0 prints one line. */
#include <caliper/cali.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/ring.h"

#define TAG_DATA 51
#define TAG_MARK 52

int main(int argc, char **argv)
{
    int n = 10, bytes = 64, early = 0, opt;
    while ((opt = getopt(argc, argv, "n:b:e")) != -1) {
        switch (opt) {
        case 'n': n = atoi(optarg); break;
        case 'b': bytes = atoi(optarg); break;
        case 'e': early = 1; break;
        default: fprintf(stderr, "usage: cali_app [-n N] [-b BYTES] [-e]\n"); return 2;
        }
    }
    if (early) CALI_MARK_BEGIN("main");
    MPI_Init(&argc, &argv);
    if (!early) CALI_MARK_BEGIN("main");
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char *sbuf = malloc((size_t)n * bytes + 1), *rbuf = malloc((size_t)n * bytes + 1);
    MPI_Request *req = malloc(((size_t)n + 1) * sizeof *req);
    /* not MPI_STATUSES_IGNORE: gcc 12 reads MPICH's (MPI_Status *)1 as an empty array */
    MPI_Status *st = malloc(((size_t)n + 1) * sizeof *st);
    for (int i = 0; i < n * bytes; i++) sbuf[i] = (char)(rank + i);
    int mark = rank, got = -1, errors = 0;
    if (!ring_ready()) errors++;

    CALI_MARK_BEGIN("send");
    /* nonblocking: nobody receives before everybody has sent */
    for (int i = 0; i < n; i++)
        MPI_Isend(sbuf + (size_t)i * bytes, bytes, MPI_CHAR, right, TAG_DATA, MPI_COMM_WORLD, &req[i]);
    MPI_Isend(&mark, 1, MPI_INT, right, TAG_MARK, MPI_COMM_WORLD, &req[n]);
    CALI_MARK_END("send");

    CALI_MARK_BEGIN("receive");
    MPI_Probe(left, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got, 1, MPI_INT, left, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++)
        MPI_Recv(rbuf + (size_t)i * bytes, bytes, MPI_CHAR, left, TAG_DATA, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Waitall(n + 1, req, st);
    CALI_MARK_END("receive");

    if (got != left) errors++;
    for (int i = 0; i < n * bytes; i++)
        if (rbuf[i] != (char)(left + i)) errors++;
    if (errors) fprintf(stderr, "cali_app: rank %d received wrong data (%d errors)\n", rank, errors);
    if (rank == 0) {
        printf("cali_app: %d ranks, %d messages of %d bytes each\n", size, n, bytes);
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
    CALI_MARK_END("main");
    MPI_Finalize();
    return errors ? 1 : 0;
}
