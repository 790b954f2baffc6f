/* A known pattern for papi-mpit-report's communication matrix
 * (t_report_matrix.sh): the point-to-point of common/peers.h (rank r sends
 * peers_msgs(r, p) messages of peers_bytes(r, p) bytes to each other rank p
 * and one zero-byte message to its right neighbour), one barrier (one
 * zero-byte collective message from every rank to every other) and one
 * broadcast of BCAST_BYTES from rank 0 (one message of that size to every
 * other rank, counted at the root).  With the argument "idle" it does none
 * of it: what Open MPI's printout then shows is the MPI's and the tool's
 * own.  Prints nothing. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "peers.h"

#define BCAST_BYTES 400

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
    MPI_Request *req = peers_post(rank, size, &buf, &nreq);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted */
    peers_send(rank, size, req, nreq);
    MPI_Bcast(bcast, BCAST_BYTES, MPI_BYTE, 0, MPI_COMM_WORLD);
    free(req);
    free(buf);
    MPI_Finalize();
    return 0;
}
