/* The application of t_hl.sh: an MPI program that knows nothing of the
 * events it is measured with (PAPI_EVENTS chooses them) and marks one region
 * with PAPI's high-level API.  Run with 2 ranks.
 *
 * Region "exchange": rank 1 tells rank 0 to go; rank 0 sends U messages and a
 * marker; rank 1 leaves the region when the marker is in, so all U messages
 * wait in its unexpected queue at the region's end.  Both ranks pre-post the
 * receive they wait for in the region, so that only the U data messages are
 * ever unexpected.  In the region: rank 0 makes U+1 MPI_Send calls, rank 1
 * one; rank 1's unexpected queue grows by U and sees U unexpected messages.
 * Rank 1 receives the messages after the region; exit status 0. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>

#define U        9
#define TAG_GO   41
#define TAG_DATA 42
#define TAG_MARK 43

int main(int argc, char **argv)
{
    int rank, size, go = 1, m, x, rc;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0) fprintf(stderr, "hl_app: run with 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (rank == 0)
        MPI_Irecv(&m, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD, &req);
    else
        MPI_Irecv(&m, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, &req);

    if ((rc = PAPI_hl_region_begin("exchange")) != PAPI_OK)
        fprintf(stderr, "hl_app: rank %d: PAPI_hl_region_begin: %d\n", rank, rc);
    if (rank == 0) {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    } else {
        MPI_Send(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if ((rc = PAPI_hl_region_end("exchange")) != PAPI_OK)
        fprintf(stderr, "hl_app: rank %d: PAPI_hl_region_end: %d\n", rank, rc);

    if (rank == 1)
        for (int i = 0; i < U; i++) {
            MPI_Recv(&x, 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (x != i) fprintf(stderr, "hl_app: message %d carried %d\n", i, x);
        }
    MPI_Finalize();
    printf("hl_app rank %d done\n", rank);
    return 0;
}
