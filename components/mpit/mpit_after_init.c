/*
 * papi_mpit_after_init (papi_mpit.h): the catch-up after MPI_Init, run where
 * it belongs.  The component wraps no MPI_ name, so it cannot see MPI_Init
 * return; a tool that wraps MPI_Init can, and tells it here.  Then the
 * catalog settles (every name given before MPI_Init resolved), and every
 * set this thread started before MPI_Init binds what came with MPI_Init and
 * starts its non-continuous handles: counting starts at MPI_Init, and no
 * later PAPI_read binds or resolves anything.
 *
 * The waiting sets live in fixed cells of static memory: remembering
 * happens at PAPI_start, forgetting at catch-up or cleanup, from any thread,
 * with no lock.  Only the owner's sets are caught up here: another thread
 * may be reading its own set at this moment.
 */
#include "mpit_after_init.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "mpit_catalog.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "papi.h"
#include "papi_mpit.h"

#define WAITING_CELLS 64

typedef struct waiting_cell {
    _Atomic(mpit_control_t *) set;
    atomic_uintptr_t owner; /* pthread_self() of the thread that started it; 0: free */
} waiting_cell_t;

static waiting_cell_t cells[WAITING_CELLS];

static uintptr_t self_id(void) { return (uintptr_t)pthread_self(); }

void mpit_after_init_remember(mpit_control_t *cs)
{
    if (cs->waiting_cell) return;
    for (int i = 0; i < WAITING_CELLS; i++) {
        uintptr_t free_cell = 0;
        if (!atomic_compare_exchange_strong(&cells[i].owner, &free_cell, self_id())) continue;
        atomic_store(&cells[i].set, cs);
        cs->waiting_cell = i + 1;
        return;
    }
}

void mpit_after_init_forget(mpit_control_t *cs)
{
    int i = cs->waiting_cell - 1;
    if (i < 0) return;
    cs->waiting_cell = 0;
    mpit_control_t *mine = cs;
    /* the hook may have taken it first */
    if (atomic_compare_exchange_strong(&cells[i].set, &mine, NULL)) atomic_store(&cells[i].owner, 0);
}

static int after_init_unguarded(void)
{
    const mpit_backend_t *b = mpit_backend();
    /* never used (PAPI not initialised, or no mpit name yet): nothing waits,
     * but what MPI does is still the answer */
    if (!b) return mpit_process_mpi_running() ? PAPI_OK : PAPI_ENOINIT;
    if (b->mpi_state() != MPIT_MPI_RUNNING) return PAPI_ENOINIT;
    uintptr_t me = self_id();
    int settled = 0;
    for (int i = 0; i < WAITING_CELLS; i++) {
        if (atomic_load(&cells[i].owner) != me) continue;
        mpit_control_t *cs = atomic_exchange(&cells[i].set, NULL);
        if (!cs) continue;
        cs->waiting_cell = 0;
        atomic_store(&cells[i].owner, 0);
        if (!settled) settled = mpit_catalog_settle();
        mpit_control_catch_up(cs);
    }
    return PAPI_OK;
}

int papi_mpit_after_init(void) { GUARDED(after_init_unguarded()); }
