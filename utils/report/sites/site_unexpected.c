/*
 * papi-mpit-report: which call sites found their messages already waiting.
 * Where the MPI raises an MPI_T event when a posted receive matches a
 * message from the unexpected queue (MPICH's unexp_message_dequeued, the
 * ob1 events of Open MPI's proposal), that event fires in the thread
 * posting the receive, inside its call: the tool watches those events
 * through the component (papi_mpit_watch_start) and charges each to the
 * thread's call in progress (sites_found_waiting).  One watcher per
 * process: with --log the event log holds it, and this is not counted.
 */
#include <mpi.h>

#include <papi.h>
#include <stdlib.h>
#include <string.h>

#include "papi_mpit.h"
#include "site_table.h"

/* the event types meaning "a posted receive found its message waiting" */
static const char *const found_types[] = {
    "unexp_message_dequeued",   /* MPICH (--enable-mpit-events) */
    "pml_ob1_unexpected_match", /* Open MPI's ob1 events (proposed) */
    "pml_ob1_unex_remove",
};

static unsigned char *is_found; /* by type */
static int ntypes, watching;

static void on_event(void *ctx, int type, uint64_t time_ns, const int64_t *elements, int nelements)
{
    (void)ctx, (void)time_ns, (void)elements, (void)nelements;
    if (type >= 0 && type < ntypes && is_found[type]) sites_found_waiting();
}

int sites_watch_start(void)
{
    int n = 0;
    /* an MPI without events is no news here: the component keeps quiet */
    int was = papi_mpit_quiet(1), rc = papi_mpit_watch_start(on_event, NULL, &n);
    papi_mpit_quiet(was);
    if (rc != PAPI_OK) return -1;
    unsigned char *found = calloc((size_t)n + 1, 1);
    int any = 0;
    for (int t = 0; found && t < n; t++) {
        papi_mpit_event_type_t info;
        if (papi_mpit_watch_type(t, &info) != PAPI_OK) continue;
        for (size_t k = 0; k < sizeof found_types / sizeof found_types[0]; k++)
            if (strcmp(info.name, found_types[k]) == 0) found[t] = 1, any = 1;
    }
    if (!any) {
        papi_mpit_watch_stop(NULL);
        free(found);
        return -1;
    }
    /* the types before the count: the callback reads both */
    is_found = found;
    __atomic_store_n(&ntypes, n, __ATOMIC_RELEASE);
    watching = 1;
    return 0;
}

int sites_watching(void) { return watching; }

/* watching stays 1: the record says the counts were taken */
void sites_watch_stop(void)
{
    if (!watching || !ntypes) return;
    __atomic_store_n(&ntypes, 0, __ATOMIC_RELEASE);
    papi_mpit_watch_stop(NULL);
}
