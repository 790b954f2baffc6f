/*
 * A small library that makes MPI calls for its caller, for
 * t_report_sites_lib.sh: its calls carry "lib:NAME" markers (the check
 * reads their lines from this file).  Built the way libraries are shipped
 * (-O2, no frame pointer), but with no sibling calls, so that each of its
 * functions keeps its frame: lib_send calls MPI_Send (one frame between
 * the program and the MPI), lib_bcast and lib_bcast2 call inner_bcast,
 * which calls MPI_Bcast (two frames; one call instruction reached by two
 * paths, which the tool must tell apart), lib_vla_send copies into a
 * variable-length array first (a frame whose size varies, kept with a frame
 * pointer) and sends it.
 */
#include <mpi.h>
#include <string.h>

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

int lib_bcast2(int *v, int root)
{
    int rc = inner_bcast(v, root);
    return rc == 0 ? 0 : -2;
}

int lib_vla_send(const char *buf, int n, int peer)
{
    char tmp[n];
    memcpy(tmp, buf, (size_t)n);
    int rc = MPI_Send(tmp, n, MPI_CHAR, peer, 5, MPI_COMM_WORLD); /* lib:vla_send */
    return rc == MPI_SUCCESS ? 0 : -1;
}
