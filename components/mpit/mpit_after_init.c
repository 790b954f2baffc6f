/*
 * papi_mpit_after_init (papi_mpit.h): the catch-up after MPI_Init, run where
 * it belongs.  The component wraps no MPI_ name, so it cannot see MPI_Init
 * return; a tool that wraps MPI_Init can, and tells it here.  Then the
 * catalog settles (every name given before MPI_Init resolved), and every
 * set this thread started before MPI_Init binds what came with MPI_Init and
 * starts its non-continuous handles: counting starts at MPI_Init, and no
 * later PAPI_read binds or resolves anything.
 *
 * The waiting sets live in fixed cells (mpit_waiting.c): mpit_control.c
 * puts them in at PAPI_start and takes them out at cleanup; only the
 * owner's sets are caught up here: another thread may be reading its own
 * set at this moment.
 *
 * papi_mpit_after_session_init is the same step for a program that runs
 * MPI through MPI_Session_init alone.  No PMPI_ call says a session runs
 * (MPI_Initialized is false then, MPI_COMM_SELF unusable, and what MPICH
 * registers in MPI_T comes with MPI_Init too and stays after the last
 * session), so the program, or a tool wrapping MPI_Session_init, says it;
 * the count kept here is what the backend's mpi_state asks.
 */
#include "mpit_after_init.h"

#include <stdatomic.h>

#include "mpit_catalog.h"
#include "mpit_control.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "papi.h"
#include "papi_mpit.h"
#include "mpit_waiting.h"

/* The sets this thread started before MPI ran bind what came with it. */
static void catch_up_mine(void)
{
    int settled = 0;
    mpit_control_t *cs;
    for (int i = 0; (cs = mpit_waiting_take_mine(&i)) != NULL; i++) {
        cs->waiting_cell = 0;
        mpit_waiting_release(i);
        if (!settled) settled = mpit_catalog_settle();
        mpit_control_catch_up(cs);
    }
}

static int after_init_unguarded(void)
{
    const mpit_backend_t *b = mpit_backend();
    /* never used (PAPI not initialised, or no mpit name yet): nothing waits,
     * but what MPI does is still the answer */
    if (!b) return mpit_process_mpi_running() ? PAPI_OK : PAPI_ENOINIT;
    if (b->mpi_state() != MPIT_MPI_RUNNING) return PAPI_ENOINIT;
    catch_up_mine();
    return PAPI_OK;
}

int papi_mpit_after_init(void) { GUARDED(after_init_unguarded()); }

static atomic_int sessions;

int mpit_sessions_running(void) { return atomic_load_explicit(&sessions, memory_order_acquire); }

static int after_session_init_unguarded(void)
{
    if (!mpit_process_has_mpi()) return PAPI_ENOINIT;
    const mpit_backend_t *b = mpit_backend();
    if (b && b->mpi_state() == MPIT_MPI_FINALIZED) return PAPI_ENOINIT;
    atomic_fetch_add_explicit(&sessions, 1, memory_order_acq_rel);
    /* not loaded yet (PAPI_library_init comes later): the backend asks the
     * count once loaded (mpit.c) */
    if (b) catch_up_mine();
    return PAPI_OK;
}

int papi_mpit_after_session_init(void) { GUARDED(after_session_init_unguarded()); }

int mpit_sessions_leave(void)
{
    int n = atomic_load_explicit(&sessions, memory_order_acquire);
    do
        if (n <= 0) return -1;
    while (!atomic_compare_exchange_weak(&sessions, &n, n - 1));
    return n - 1;
}
