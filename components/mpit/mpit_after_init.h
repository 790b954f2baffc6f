/*
 * The sets started before MPI_Init, remembered for the one catch-up step a
 * tool's MPI_Init wrapper runs right after PMPI_Init (papi_mpit_after_init,
 * papi_mpit.h), so that their first read after MPI_Init binds nothing.
 */
#ifndef MPIT_AFTER_INIT_H
#define MPIT_AFTER_INIT_H

#include "mpit_control.h"

/* At PAPI_start before MPI_Init: the set waits for the catch-up.  When every
 * cell is taken it catches up at its first call after MPI_Init instead. */
void mpit_after_init_remember(mpit_control_t *cs);
/* The set caught up, or is cleaned up: no longer waiting (any thread). */
void mpit_after_init_forget(mpit_control_t *cs);

/* How many MPI sessions the program said run (papi_mpit_after_session_init
 * less papi_mpit_before_session_finalize); the backend asks it. */
int mpit_sessions_running(void);
/* One session fewer: how many are left, or -1 when none ran. */
int mpit_sessions_leave(void);

#endif
