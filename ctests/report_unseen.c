/*
 * A program whose MPI calls the report tool's wrappers do not see, as a
 * binding or library that calls the MPI's internals would make them
 * (t_report_unseen.sh): it calls the PMPI_ names, which no tool wraps.
 * Rank 0 sends rank 1 three messages of 16 bytes through PMPI_Send, and
 * with the argument "some", one more through MPI_Send (which the tool
 * sees: 16 of 64 bytes).  With "most", one through PMPI_Send and nine
 * through MPI_Send (16 of 160 bytes unseen: 10 %); with "nearly", one and
 * ten (16 of 176: 9 %); with "calls", one empty message through PMPI_Send
 * and nine through MPI_Send (every byte seen, 9 of the 10 MPI_Send calls
 * Open MPI's OMPI_SPC_SEND counts).  Any number of ranks from 2; the others wait at
 * the barrier.
 */
#include <mpi.h>

#include <string.h>

int main(int argc, char **argv)
{
    int rank = 0, buf[4] = {0, 1, 2, 3};
    const char *mode = argc > 1 ? argv[1] : "";
    int hidden = 3, seen = 0, hidden_ints = 4;
    if (strcmp(mode, "some") == 0) seen = 1;
    if (strcmp(mode, "most") == 0) hidden = 1, seen = 9;
    if (strcmp(mode, "nearly") == 0) hidden = 1, seen = 10;
    if (strcmp(mode, "calls") == 0) hidden = 1, seen = 9, hidden_ints = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < hidden; i++) {
        if (rank == 0) PMPI_Send(buf, hidden_ints, MPI_INT, 1, 5, MPI_COMM_WORLD);
        if (rank == 1) PMPI_Recv(buf, hidden_ints, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < seen; i++) {
        if (rank == 0) MPI_Send(buf, 4, MPI_INT, 1, 6, MPI_COMM_WORLD);
        if (rank == 1) MPI_Recv(buf, 4, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    PMPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
