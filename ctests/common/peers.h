/* A point-to-point pattern with a known count per peer, for the tests of
 * the per-peer metrics.  Rank r sends peers_msgs(r, p) messages of
 * peers_bytes(r, p) bytes to every other rank p, and one zero-byte message
 * to its right neighbour; every receive is posted before any rank sends
 * (a barrier in between, whose messages carry negative tags). */
#ifndef MPIT_PEERS_H
#define MPIT_PEERS_H

#include <mpi.h>
#include <stdlib.h>

#define PEERS_TAG 41

static inline int peers_msgs(int r, int p) { return r == p ? 0 : 1 + (r + 2 * p) % 3; }
static inline int peers_bytes(int r, int p) { return 16 * (r + 1) + p; }
static inline int peers_right(int r, int size) { return (r + 1) % size; }

/* what rank r sends to peer p: messages and bytes */
static inline long long peers_expected_msgs(int r, int p, int size)
{
    return peers_msgs(r, p) + (size > 1 && p == peers_right(r, size));
}
static inline long long peers_expected_bytes(int r, int p)
{
    return (long long)peers_msgs(r, p) * peers_bytes(r, p);
}

/* Posts the receives (before the caller's barrier). */
static inline MPI_Request *peers_post(int rank, int size, char **buf, int *nreq)
{
    int n = 0, cap = 1;
    for (int p = 0; p < size; p++) cap += peers_msgs(p, rank);
    MPI_Request *req = malloc(sizeof *req * (size_t)(2 * cap + 2 * size));
    *buf = malloc((size_t)(16 * (size + 1) + size) * (size_t)cap + 1);
    char *at = *buf;
    for (int p = 0; p < size; p++)
        for (int i = 0; i < peers_msgs(p, rank); i++) {
            MPI_Irecv(at, peers_bytes(p, rank), MPI_BYTE, p, PEERS_TAG, MPI_COMM_WORLD, &req[n++]);
            at += peers_bytes(p, rank);
        }
    int left = (rank + size - 1) % size;
    if (size > 1) MPI_Irecv(NULL, 0, MPI_BYTE, left, PEERS_TAG + 1, MPI_COMM_WORLD, &req[n++]);
    *nreq = n;
    return req;
}

/* Sends this rank's share and completes every request. */
static inline void peers_send(int rank, int size, MPI_Request *req, int nreq)
{
    static char out[16 * 1024];
    for (int p = 0; p < size; p++)
        for (int i = 0; i < peers_msgs(rank, p); i++)
            MPI_Send(out, peers_bytes(rank, p), MPI_BYTE, p, PEERS_TAG, MPI_COMM_WORLD);
    if (size > 1) MPI_Send(NULL, 0, MPI_BYTE, peers_right(rank, size), PEERS_TAG + 1, MPI_COMM_WORLD);
    MPI_Status *st = malloc(sizeof *st * (size_t)nreq); /* (MPICH 4.0's header and MPI_STATUSES_IGNORE) */
    MPI_Waitall(nreq, req, st);
    free(st);
}

#endif
