/*
 * Watching every MPI_T event instance (papi_mpit.h, part 4): the report
 * tool's event log.  The component's own callbacks deliver each instance to
 * the engine and then to the watcher; while a watcher is set, the callbacks
 * fetch every element a type's data may be read for, and the timestamp.
 * One watcher at a time, started and stopped from one thread.
 */
#include "papi_mpit.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "mpit_catalog.h"
#include "mpit_events.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "mpit_warn.h"
#include "papi.h"

static atomic_int watching;

/* How an element of each MPI_T datatype reaches the watcher. */
static const int elem_kind_of[MPIT_TYPE_NUM] = {
    [MPIT_TYPE_UNKNOWN] = PAPI_MPIT_ELEM_OTHER,
    [MPIT_TYPE_INT] = PAPI_MPIT_ELEM_SIGNED,
    [MPIT_TYPE_UNSIGNED] = PAPI_MPIT_ELEM_UNSIGNED,
    [MPIT_TYPE_LONG] = PAPI_MPIT_ELEM_SIGNED,
    [MPIT_TYPE_UNSIGNED_LONG] = PAPI_MPIT_ELEM_UNSIGNED,
    [MPIT_TYPE_LONG_LONG] = PAPI_MPIT_ELEM_SIGNED,
    [MPIT_TYPE_UNSIGNED_LONG_LONG] = PAPI_MPIT_ELEM_UNSIGNED,
    [MPIT_TYPE_DOUBLE] = PAPI_MPIT_ELEM_DOUBLE,
    [MPIT_TYPE_COUNT_T] = PAPI_MPIT_ELEM_SIGNED,
    [MPIT_TYPE_CHAR] = PAPI_MPIT_ELEM_SIGNED,
};

static int start_unguarded(papi_mpit_watcher_t fn, void *ctx, int *ntypes)
{
    const mpit_backend_t *b = mpit_backend();
    if (!b) {
        mpit_warn("events: the mpit component has no MPI backend in this process");
        return PAPI_ECMP;
    }
    if (b->mpi_state() != MPIT_MPI_RUNNING) {
        mpit_warn("events: MPI is not running (call between MPI_Init and MPI_Finalize)");
        return PAPI_ENOINIT;
    }
    mpit_catalog_rescan(); /* sets the event engine up once MPI runs */
    if (!mpit_events_ready()) {
        mpit_warn("events: %s", mpit_events_why());
        return PAPI_ENOEVNT;
    }
    if (atomic_exchange(&watching, 1)) return PAPI_EISRUN;
    if (mpit_events_watch(fn, ctx) != 0) {
        mpit_events_watch(NULL, NULL);
        atomic_store(&watching, 0);
        mpit_warn("events: %s", mpit_events_why());
        return PAPI_ECMP;
    }
    *ntypes = mpit_events_num_types();
    return PAPI_OK;
}

static int stop_unguarded(uint64_t *dropped)
{
    if (!atomic_load(&watching)) return PAPI_ENOTRUN;
    mpit_events_watch(NULL, NULL);
    atomic_store(&watching, 0);
    if (dropped) *dropped = mpit_events_dropped_by_mpi();
    return PAPI_OK;
}

int papi_mpit_watch_start(papi_mpit_watcher_t watcher, void *ctx, int *ntypes)
{
    if (!watcher || !ntypes) return PAPI_EINVAL;
    GUARDED(start_unguarded(watcher, ctx, ntypes));
}

int papi_mpit_watch_stop(uint64_t *dropped) { GUARDED(stop_unguarded(dropped)); }

int papi_mpit_watch_type(int type, papi_mpit_event_type_t *info)
{
    const mpit_event_info_t *t = mpit_events_type(type);
    if (!info) return PAPI_EINVAL;
    if (!t) return PAPI_ENOEVNT;
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "%s", t->name);
    info->nelem = t->nelem < PAPI_MPIT_ELEMS_MAX ? t->nelem : PAPI_MPIT_ELEMS_MAX;
    info->readable = mpit_events_type_readable(type);
    for (int e = 0; e < info->nelem; e++) {
        if (t->elem_names[e][0])
            snprintf(info->elem_name[e], sizeof info->elem_name[e], "%s", t->elem_names[e]);
        else
            snprintf(info->elem_name[e], sizeof info->elem_name[e], "%d", e);
        int d = t->elem_dtype[e];
        info->elem_kind[e] = d >= 0 && d < MPIT_TYPE_NUM ? elem_kind_of[d] : PAPI_MPIT_ELEM_OTHER;
    }
    return PAPI_OK;
}

uint64_t papi_mpit_watch_now(void) { return mpit_events_now(); }
