/*
 * A small library that makes MPI calls for its caller, for
 * t_report_sites_lib.sh: its calls carry "lib:NAME" markers (the check
 * reads their lines from this file).  Built the way libraries are shipped
 * (-O2, no frame pointer), but with no sibling calls, so that each of its
 * functions keeps its frame: lib_send calls MPI_Send (one frame between
 * the program and the MPI), lib_bcast calls inner_bcast, which calls
 * MPI_Bcast (two frames).
 */
#include <mpi.h>

#include "report_sites_lib.h"

int lib_send(const char *buf, int n, int peer)
{
    int rc = MPI_Send(buf, n, MPI_CHAR, peer, 5, MPI_COMM_WORLD); /* lib:send */
    return rc == MPI_SUCCESS ? 0 : -1;
}

__attribute__((noinline, noipa)) static int inner_bcast(int *v, int root)
{
    int rc = MPI_Bcast(v, 1, MPI_INT, root, MPI_COMM_WORLD); /* lib:bcast */
    return rc == MPI_SUCCESS ? 0 : -1;
}

int lib_bcast(int *v, int root)
{
    int rc = inner_bcast(v, root);
    return rc == 0 ? 0 : -1;
}
