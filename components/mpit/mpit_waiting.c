/*
 * The waiting sets' cells (mpit_waiting.h): filled at PAPI_start, emptied
 * at catch-up or cleanup, from any thread, with no lock.  Only the owner
 * takes its sets out for the catch-up: another thread may be reading its
 * own set at this moment.
 */
#include "mpit_waiting.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define WAITING_CELLS 64

typedef struct waiting_cell {
    _Atomic(void *) set;
    atomic_uintptr_t owner; /* pthread_self() of the thread that started it; 0: free */
} waiting_cell_t;

static waiting_cell_t cells[WAITING_CELLS];

static uintptr_t self_id(void) { return (uintptr_t)pthread_self(); }

int mpit_waiting_add(void *set)
{
    for (int i = 0; i < WAITING_CELLS; i++) {
        uintptr_t free_cell = 0;
        if (!atomic_compare_exchange_strong(&cells[i].owner, &free_cell, self_id())) continue;
        atomic_store(&cells[i].set, set);
        return i + 1;
    }
    return 0;
}

void mpit_waiting_drop(int cell, void *set)
{
    int i = cell - 1;
    if (i < 0) return;
    void *mine = set;
    /* the hook may have taken it first */
    if (atomic_compare_exchange_strong(&cells[i].set, &mine, NULL)) atomic_store(&cells[i].owner, 0);
}

void *mpit_waiting_take_mine(int *i)
{
    uintptr_t me = self_id();
    for (; *i < WAITING_CELLS; (*i)++) {
        if (atomic_load(&cells[*i].owner) != me) continue;
        void *set = atomic_exchange(&cells[*i].set, NULL);
        if (set) return set;
    }
    return NULL;
}

void mpit_waiting_release(int i) { atomic_store(&cells[i].owner, 0); }
