/*
 * A program whose MPI calls the report tool's wrappers do not see, as a
 * binding or library that calls the MPI's internals would make them
 * (t_report_unseen.sh): it calls the PMPI_ names, which no tool wraps.
 * Rank 0 sends rank 1 three messages of 16 bytes through PMPI_Send, and
 * with the argument "some", one more through MPI_Send (which the tool
 * sees: 16 of 64 bytes).  Any number of ranks from 2; the others wait at
 * the barrier.
 */
#include <mpi.h>

#include <string.h>

int main(int argc, char **argv)
{
    int rank = 0, buf[4] = {0, 1, 2, 3};
    int some = argc > 1 && strcmp(argv[1], "some") == 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 3; i++) {
        if (rank == 0) PMPI_Send(buf, 4, MPI_INT, 1, 5, MPI_COMM_WORLD);
        if (rank == 1) PMPI_Recv(buf, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (some && rank == 0) MPI_Send(buf, 4, MPI_INT, 1, 6, MPI_COMM_WORLD);
    if (some && rank == 1) MPI_Recv(buf, 4, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    PMPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
