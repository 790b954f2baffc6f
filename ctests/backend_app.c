/* Helper of t_backends.sh: prints which backend module the component chose
 * for this program's MPI ("backend: MODULE (FAMILY)") and, with 2 ranks,
 * how many of N messages rank 1 counted as unexpected (UNEXPECTED_MSGS;
 * "unexpected: -" where this MPI cannot count them): rank 0 sends them
 * before rank 1 posts its receives, which it does only once they are all
 * queued (an MPI_Ssend of a later tag completes after they arrived), and
 * only after rank 1 said it counts. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>

#include "papi_mpit.h"

#define N 5

int main(int argc, char **argv)
{
    int rank, size, es = PAPI_NULL, v = 0, counting = 0;
    long long unexpected = 0;
    char backend[256] = "none";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) return 1;
    PAPI_create_eventset(&es);
    papi_mpit_quiet(1);
    counting = PAPI_add_named_event(es, "mpit:::UNEXPECTED_MSGS") == PAPI_OK;
    papi_mpit_backend(backend, sizeof backend);
    /* rank 0 sends only once rank 1 counts: messages that reached rank 1
     * before its start (inside a barrier) would be outside the count */
    if (counting && rank == 1) PAPI_start(es);
    if (rank == 1) MPI_Send(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
    if (rank == 0 && size > 1) {
        MPI_Recv(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) MPI_Send(&i, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Ssend(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) MPI_Recv(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (counting && rank == 1) PAPI_stop(es, &unexpected);
    if (rank == 1) {
        if (counting)
            printf("backend: %s\nunexpected: %lld of %d\n", backend, unexpected, N);
        else
            printf("backend: %s\nunexpected: - of %d\n", backend, N);
    }
    MPI_Finalize();
    return 0;
}
