/* The MPI wrappers of a tool, for the tests that replay how TAU, Caliper and
 * Score-P drive PAPI: each wrapped MPI_ call enters a region, calls the PMPI_
 * entry point, and leaves it, as the tools' wrappers do.  The test defines
 * replay_enter and replay_leave (where the tool reads PAPI).  Included by
 * exactly one file of a program. */
#ifndef CTESTS_REPLAY_WRAPPERS_H
#define CTESTS_REPLAY_WRAPPERS_H

#include <mpi.h>

enum replay_region { R_INIT, R_FINALIZE, R_SEND, R_RECV, R_IRECV, R_WAIT, R_BARRIER, R_COUNT };

void replay_enter(enum replay_region r);
void replay_leave(enum replay_region r);

/* REPLAY_TOOL_HOOKS 1: the wrappers also call papi_mpit.h's hooks, as a
 * tool taught them would (papi_mpit_after_init, papi_mpit_before_finalize) */
#ifndef REPLAY_TOOL_HOOKS
#define REPLAY_TOOL_HOOKS 0
#endif
#if REPLAY_TOOL_HOOKS
#include "papi_mpit.h"
#define REPLAY_AFTER_INIT()      papi_mpit_after_init()
#define REPLAY_BEFORE_FINALIZE() papi_mpit_before_finalize()
#else
#define REPLAY_AFTER_INIT()      0
#define REPLAY_BEFORE_FINALIZE() 0
#endif

int MPI_Init(int *argc, char ***argv)
{
    replay_enter(R_INIT);
    int rc = PMPI_Init(argc, argv);
    (void)REPLAY_AFTER_INIT();
    replay_leave(R_INIT);
    return rc;
}

int MPI_Finalize(void)
{
    replay_enter(R_FINALIZE);
    (void)REPLAY_BEFORE_FINALIZE();
    int rc = PMPI_Finalize();
    replay_leave(R_FINALIZE);
    return rc;
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    replay_enter(R_SEND);
    int rc = PMPI_Send(buf, count, type, dest, tag, comm);
    replay_leave(R_SEND);
    return rc;
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    replay_enter(R_RECV);
    int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
    replay_leave(R_RECV);
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    replay_enter(R_IRECV);
    int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
    replay_leave(R_IRECV);
    return rc;
}

int MPI_Wait(MPI_Request *req, MPI_Status *status)
{
    replay_enter(R_WAIT);
    int rc = PMPI_Wait(req, status);
    replay_leave(R_WAIT);
    return rc;
}

int MPI_Barrier(MPI_Comm comm)
{
    replay_enter(R_BARRIER);
    int rc = PMPI_Barrier(comm);
    replay_leave(R_BARRIER);
    return rc;
}

#endif
