/* Traffic with a known count of unexpected messages, for the tests that
 * replay a tool's PAPI calls: rank 0 sends n messages to rank 1, which has
 * not asked for them yet, then a marker rank 1 has asked for.  Rank 1 posts
 * the marker's receive before it lets rank 0 go, so on rank 1 exactly the n
 * data messages arrive unexpected (messages of one sender match in order).
 * flood_peak runs between the marker and the draining receives: the n
 * messages all wait in the unexpected queue then.  Other ranks take no part.
 * Header-only. */
#ifndef CTESTS_FLOOD_H
#define CTESTS_FLOOD_H

#include <mpi.h>

enum { FLOOD_TAG_GO = 41, FLOOD_TAG_DATA = 42, FLOOD_TAG_MARK = 43, FLOOD_MAX = 64 };

static inline void flood(int rank, int n, void (*flood_peak)(void))
{
    int go = 0, mark = 0, data[FLOOD_MAX];
    MPI_Request r;
    if (n > FLOOD_MAX) n = FLOOD_MAX;
    if (rank == 1) {
        MPI_Irecv(&mark, 1, MPI_INT, 0, FLOOD_TAG_MARK, MPI_COMM_WORLD, &r);
        MPI_Send(&go, 1, MPI_INT, 0, FLOOD_TAG_GO, MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        if (flood_peak) flood_peak();
        for (int i = 0; i < n; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, FLOOD_TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, FLOOD_TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++) MPI_Send(&i, 1, MPI_INT, 1, FLOOD_TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 1, FLOOD_TAG_MARK, MPI_COMM_WORLD);
    }
}

#endif
