/* A known pattern for papi-mpit-report's communication matrix
 * (t_report_matrix.sh): the point-to-point of common/peers.h (rank r sends
 * peers_msgs(r, p) messages of peers_bytes(r, p) bytes to each other rank p
 * and one zero-byte message to its right neighbour), one barrier (one
 * zero-byte collective message from every rank to every other) and one
 * broadcast of BCAST_BYTES from rank 0 (one message of that size to every
 * other rank, counted at the root).  With "rma" it does only one-sided
 * operations (rma below); with "idle" it does none
 * of it: what Open MPI's printout then shows is the MPI's and the tool's
 * own.  Prints nothing. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

#define BCAST_BYTES 400

/* "rma": rank r puts 8 (r + 1) bytes into its right neighbour's window and
 * gets RMA_GET bytes from its left one, in one fence epoch */
#define RMA_GET 24
static void rma(int rank, int size)
{
    char *base, out[8 * 64] = {0}, in[RMA_GET];
    MPI_Win win;
    MPI_Win_allocate(8 * 64 + RMA_GET, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    MPI_Put(out, 8 * (rank + 1), MPI_BYTE, (rank + 1) % size, 0, 8 * (rank + 1), MPI_BYTE, win);
    MPI_Get(in, RMA_GET, MPI_BYTE, (rank + size - 1) % size, 8 * 64, RMA_GET, MPI_BYTE, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
}

int main(int argc, char **argv)
{
    int rank, size, nreq;
    char *buf, bcast[BCAST_BYTES] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1 && strcmp(argv[1], "idle") == 0) {
        MPI_Finalize();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "rma") == 0) { /* one-sided only */
        rma(rank, size);
        MPI_Finalize();
        return 0;
    }
    MPI_Request *req = peers_post(rank, size, &buf, &nreq);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
    peers_send(rank, size, req, nreq);
    MPI_Bcast(bcast, BCAST_BYTES, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
