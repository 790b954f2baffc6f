/* The early ring of the tool tests' programs (ring_app.c, hosts_papi_app.c):
 * every rank sends bursts of messages to its right neighbour, then a one-int
 * "go", and posts no receive before MPI_Probe has seen the go of its left
 * neighbour.  Messages of one sender on one communicator match in order, so
 * every message of the bursts, and the go, arrive unexpected on every rank,
 * whatever the timing.  A rank sends only after its right neighbour said
 * "ready" (it has then finished MPI_Init and counts); the ready's receive is
 * posted before any call that makes progress, so it is never unexpected.
 * Header-only: the programs are built by one compiler line each. */
#ifndef CTESTS_RING_H
#define CTESTS_RING_H

#include <mpi.h>
#include <stdlib.h>

enum { RING_TAG_READY = 20, RING_TAG_GO = 22, RING_TAG_DATA = 30 /* + burst index */ };

/* The "ready" handshake: each rank tells its left neighbour that it has
 * finished MPI_Init (and so counts), and returns when its right neighbour
 * has said so.  Its receive is posted before any call that makes progress,
 * so it is never unexpected once counting has begun.  Returns 1 when the
 * ready was received. */
static inline int ring_ready(void)
{
    int rank, size, ready = 1, peer_ready = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Request req[2];
    MPI_Status st[2]; /* not IGNORE: gcc flags MPICH's (MPI_Status *)1 */
    MPI_Irecv(&peer_ready, 1, MPI_INT, (rank + 1) % size, RING_TAG_READY, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&ready, 1, MPI_INT, (rank + size - 1) % size, RING_TAG_READY, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, st);
    return peer_ready;
}

typedef struct ring_burst {
    int count, bytes;
} ring_burst_t;

/* Runs the ring; received data goes to rbuf (sum over bursts of count * bytes
 * bytes), sent data comes from sbuf (as large).  Returns 1 when the ready and
 * the go were seen. */
static inline int ring_exchange(const ring_burst_t *bursts, int nbursts, const char *sbuf, char *rbuf)
{
    int rank, size, n = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int b = 0; b < nbursts; b++) n += bursts[b].count;
    MPI_Request *req = malloc(((size_t)n + 2) * sizeof *req);
    MPI_Status *st = malloc(((size_t)n + 2) * sizeof *st); /* not IGNORE: gcc flags MPICH's (MPI_Status *)1 */
    if (!req || !st) MPI_Abort(MPI_COMM_WORLD, 1);

    int peer_ready = ring_ready(), go = 1, got = 0;

    size_t at = 0;
    int k = 0;
    for (int b = 0; b < nbursts; b++)
        for (int i = 0; i < bursts[b].count; i++, at += (size_t)bursts[b].bytes)
            MPI_Isend(sbuf + at, bursts[b].bytes, MPI_CHAR, right, RING_TAG_DATA + b, MPI_COMM_WORLD,
                      &req[k++]);
    MPI_Isend(&go, 1, MPI_INT, right, RING_TAG_GO, MPI_COMM_WORLD, &req[k++]);
    /* the go is behind every data message of the left neighbour */
    MPI_Probe(left, RING_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got, 1, MPI_INT, left, RING_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    at = 0;
    for (int b = 0; b < nbursts; b++)
        for (int i = 0; i < bursts[b].count; i++, at += (size_t)bursts[b].bytes)
            MPI_Recv(rbuf + at, bursts[b].bytes, MPI_CHAR, left, RING_TAG_DATA + b, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    MPI_Waitall(k, req, st);
    free(req);
    free(st);
    return got && peer_ready;
}

#endif
