/*
 * papi_mpit_before_finalize (papi_mpit.h): what must happen before
 * MPI_Finalize and cannot happen inside it, run by a tool's MPI_Finalize
 * wrapper.  Today one thing: on Open MPI 4.1 with SPCs attached, the
 * windows the program left open are freed before MPI_Finalize ends the
 * SPCs (backend/finalize_windows.c says why).  And its twin for a
 * program of MPI sessions, papi_mpit_before_session_finalize.
 */
#include "mpit_after_init.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "papi.h"
#include "papi_mpit.h"

static int before_finalize_unguarded(void)
{
    const mpit_backend_t *b = mpit_backend();
    /* never used: it attached nothing, but MPI's state is still the answer */
    if (!b) return mpit_process_mpi_running() ? PAPI_OK : PAPI_ENOINIT;
    if (b->mpi_state() != MPIT_MPI_RUNNING) return PAPI_ENOINIT;
    if (b->free_windows_left_open) b->free_windows_left_open();
    return PAPI_OK;
}

int papi_mpit_before_finalize(void) { GUARDED(before_finalize_unguarded()); }

/* The last session ends and MPI_Init never ran: MPI ends with it, and the
 * component does what MPI_Finalize's hook does (the backend's sessions_end). */
static int before_session_finalize_unguarded(void)
{
    int left = mpit_sessions_leave();
    if (left < 0) return PAPI_ENOINIT;
    const mpit_backend_t *b = mpit_backend();
    if (left == 0 && b && b->sessions_end) b->sessions_end();
    return PAPI_OK;
}

int papi_mpit_before_session_finalize(void) { GUARDED(before_session_finalize_unguarded()); }
