/* Helper program of t_report_exact.sh: traffic whose counters are known.
 *
 *   report_pairs [-r] [-p] [-c]   (default: -r -p)
 *
 * -r  early ring: rank r sends r+1 messages of 16 bytes to rank (r+1) mod N,
 *     then a token; the receiver waits for the token with MPI_Probe (so the
 *     token, too, arrives before any receive: it is always unexpected) and
 *     only then receives.  Unexpected messages on rank r: left + 1 data
 *     messages plus the token, left = (r-1) mod N.  Nothing else is
 *     communicated in this mode, so nothing else can arrive unexpected.
 * -c  in the early ring, MPI_Pcontrol(1) once all of it is queued (after
 *     the probe): papi-mpit-report looks at Open MPI's queues there, where
 *     rank r's queue from its left neighbour holds left + 2 messages.
 * -p  every pair of ranks exchanges messages of 0, 100, 1000, 5000 and
 *     70000 bytes (eager, inline and rendezvous paths), then an allreduce.
 * -s  skewed: each rank r sends SKEW_BYTES to (r+1) mod N, and rank 0 sends
 *     rank 1 SKEW_HEAVY times as much besides: one pair stands out.
 * Rank 0 prints one line to stdout; exit 0.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG_DATA  5
#define TAG_TOKEN 6
#define TAG_PAIR  7

static void early_ring(int rank, int size, int look)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int nsend = rank + 1, nrecv = left + 1;
    char sbuf[16] = {0}, rbuf[16];
    MPI_Request *req = calloc((size_t)nsend + 1, sizeof *req);
    MPI_Status *st = calloc((size_t)nsend + 1, sizeof *st); /* not IGNORE: gcc warns on MPICH's */
    for (int i = 0; i < nsend; i++) MPI_Isend(sbuf, 16, MPI_CHAR, right, TAG_DATA, MPI_COMM_WORLD, &req[i]);
    MPI_Isend(NULL, 0, MPI_CHAR, right, TAG_TOKEN, MPI_COMM_WORLD, &req[nsend]);
    /* the token comes after the data (non-overtaking): all of it is queued */
    MPI_Probe(left, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (look) MPI_Pcontrol(1);
    for (int i = 0; i < nrecv; i++)
        MPI_Recv(rbuf, 16, MPI_CHAR, left, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(NULL, 0, MPI_CHAR, left, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(nsend + 1, req, st);
    free(req);
    free(st);
}

static void all_pairs(int rank, int size)
{
    static const int sizes[] = {0, 100, 1000, 5000, 70000};
    enum { NS = sizeof sizes / sizeof sizes[0] };
    char *sbuf = calloc(70000, 1), *rbuf = calloc((size_t)size * NS, 70000);
    MPI_Request *req = calloc((size_t)size * NS * 2, sizeof *req);
    MPI_Status *st = calloc((size_t)size * NS * 2, sizeof *st);
    int n = 0;
    for (int peer = 0; peer < size; peer++) {
        if (peer == rank) continue;
        for (int s = 0; s < NS; s++)
            MPI_Irecv(rbuf + ((size_t)peer * NS + s) * 70000, sizes[s], MPI_CHAR, peer, TAG_PAIR + s,
                      MPI_COMM_WORLD, &req[n++]);
        for (int s = 0; s < NS; s++)
            MPI_Isend(sbuf, sizes[s], MPI_CHAR, peer, TAG_PAIR + s, MPI_COMM_WORLD, &req[n++]);
    }
    MPI_Waitall(n, req, st);
    for (int peer = 0; peer < size; peer++) /* blocking ones too */
        if (peer != rank) {
            MPI_Sendrecv(sbuf, 3000, MPI_CHAR, peer, TAG_PAIR, rbuf, 3000, MPI_CHAR, peer, TAG_PAIR,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    long one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
}

#define SKEW_BYTES 1000
#define SKEW_HEAVY 8
static void skewed(int rank, int size)
{
    static char buf[SKEW_BYTES * SKEW_HEAVY];
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(buf, SKEW_BYTES, MPI_BYTE, right, 7, buf, SKEW_BYTES, MPI_BYTE, left, 7, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (rank == 0 && size > 1) MPI_Send(buf, sizeof buf, MPI_BYTE, 1, 8, MPI_COMM_WORLD);
    if (rank == 1) MPI_Recv(buf, sizeof buf, MPI_BYTE, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
    int ring = 0, pairs = 0, look = 0, skew = 0, opt;
    while ((opt = getopt(argc, argv, "rpcs")) != -1) {
        if (opt == 's')
            skew = 1;
        else if (opt == 'r')
            ring = 1;
        else if (opt == 'c')
            look = 1;
        else if (opt == 'p')
            pairs = 1;
        else {
            fprintf(stderr, "usage: report_pairs [-r] [-p] [-c] [-s]\n");
            return 2;
        }
    }
    if (!ring && !pairs && !skew) ring = pairs = 1;
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (ring) early_ring(rank, size, look);
    if (pairs) all_pairs(rank, size);
    if (skew) skewed(rank, size);
    if (rank == 0)
        printf("report_pairs: %d ranks%s%s%s\n", size, ring ? ", early ring" : "", pairs ? ", all pairs" : "",
               skew ? ", skewed" : "");
    MPI_Finalize();
    return 0;
}
