/*
 * A program whose MPI calls are made by a library (report_sites_lib.c), for
 * t_report_sites_lib.sh: the program's lines that call the library carry
 * "site:NAME" markers.  2 ranks or more:
 * - rank 0 sends rank 1 three 10-byte messages through lib_send from one
 *   line (send_loop), one 20-byte message from another (send_once), and
 *   two 5-byte messages through lib_vla_send (vla_send);
 * - rank 1 receives the six itself (recv);
 * - every rank takes part in six broadcasts of one int from rank 0, in
 *   turn through lib_bcast (bcast) and lib_bcast2 (bcast2), which make the
 *   call from the same line of the library.
 */
#include <mpi.h>
#include <stdio.h>

#include "report_sites_lib.h"

int main(int argc, char **argv)
{
    int rank, size, v = 0;
    char a[20] = {0};

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 0; i < 3; i++) lib_send(a, 10, 1);    /* site:send_loop */
        lib_send(a, 20, 1);                                /* site:send_once */
        for (int i = 0; i < 2; i++) lib_vla_send(a, 5, 1); /* site:vla_send */
        v = 42;
    }
    if (rank == 1)
        for (int i = 0; i < 6; i++)
            MPI_Recv(a, 20, MPI_CHAR, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv */
    for (int i = 0; i < 3; i++) {
        lib_bcast(&v, 0);  /* site:bcast */
        lib_bcast2(&v, 0); /* site:bcast2 */
    }
    if (rank == 0) printf("report_sites_libapp: %d ranks, %d\n", size, v);
    MPI_Finalize();
    return v == 42 ? 0 : 1;
}
