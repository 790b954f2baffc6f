/*
 * The one catch-up step a tool's MPI_Init wrapper runs right after
 * PMPI_Init (papi_mpit_after_init, papi_mpit.h) for the sets started before
 * MPI_Init (mpit_waiting.h), so that their first read after MPI_Init binds
 * nothing; and the MPI sessions the program said run.
 */
#ifndef MPIT_AFTER_INIT_H
#define MPIT_AFTER_INIT_H

/* How many MPI sessions the program said run (papi_mpit_after_session_init
 * less papi_mpit_before_session_finalize); the backend asks it. */
int mpit_sessions_running(void);
/* One session fewer: how many are left, or -1 when none ran. */
int mpit_sessions_leave(void);

#endif
