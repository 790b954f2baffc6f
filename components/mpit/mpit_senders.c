/*
 * Unexpected messages by sender (papi_mpit.h): the whole vector, which a
 * PAPI event set (64 mpit events at most) cannot carry.  Two sources, the
 * best the running MPI has:
 *   - the engine's GROUP rule "unexpected_by_source" (MPICH events): exact
 *     counts since start, by world rank;
 *   - Open MPI's pml_ob1_unexpected_msgq_length, one element per peer of
 *     MPI_COMM_WORLD: the largest queue length of each peer seen at a read.
 * One user at a time (the report tool), one thread.
 */
#include "papi_mpit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog.h"
#include "mpit_events.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "mpit_warn.h"
#include "papi.h"

#define BY_SOURCE_RULE "unexpected_by_source"
#define QUEUE_BY_PEER  "pml_ob1_unexpected_msgq_length"

static int kind;         /* enum papi_mpit_senders_kind while started, else 0 */
static int rule_id = -1; /* COUNT: the engine counter */
static uint64_t start_counts[PAPI_MPIT_SENDERS_MAX], start_other;
static mpit_session_t *session; /* QUEUE_MAX: the per-peer variable */
static mpit_handle_t *handle;
static int peers;
static unsigned *queue;
static long long queue_max[PAPI_MPIT_SENDERS_MAX];

static int start_counting(void)
{
    rule_id = mpit_events_find(BY_SOURCE_RULE);
    if (rule_id < 0 || mpit_events_subscribe() != 0) return -1;
    mpit_events_activate(rule_id, +1); /* the rule starts afresh */
    mpit_events_group_read(rule_id, start_counts, PAPI_MPIT_SENDERS_MAX, &start_other);
    return 0;
}

static int start_queue_watch(void)
{
    int index;
    if (mpit_backend()->pvar_index(QUEUE_BY_PEER, MPIT_CLASS_SIZE, &index) != MPIT_OK) return -1;
    if (mpit_backend()->session_create(&session) != MPIT_OK) return -1;
    if (mpit_backend()->handle_alloc(session, index, MPIT_COMM_WORLD, &handle, &peers) != MPIT_OK ||
        !(queue = calloc((size_t)(peers > 0 ? peers : 1), sizeof *queue))) {
        mpit_backend()->session_free(session);
        session = NULL;
        return -1;
    }
    mpit_backend()->handle_start(handle);
    memset(queue_max, 0, sizeof queue_max);
    return 0;
}

static int start_unguarded(void)
{
    if (kind) return PAPI_EISRUN;
    if (!mpit_backend() || mpit_backend()->mpi_state() != MPIT_MPI_RUNNING) {
        mpit_warn("senders: MPI is not running (call between MPI_Init and MPI_Finalize)");
        return PAPI_ENOINIT;
    }
    mpit_catalog_rescan(); /* sets the event engine up once MPI runs */
    if (start_counting() == 0)
        kind = PAPI_MPIT_SENDERS_COUNT;
    else if (start_queue_watch() == 0)
        kind = PAPI_MPIT_SENDERS_QUEUE_MAX;
    else if (mpit_events_unreadable()) {
        mpit_warn("senders: the running %s cannot tell the sender of an MPI_T event: %s",
                  mpit_backend()->family, mpit_events_unreadable());
        return PAPI_ECMP;
    } else if (mpit_events_ready() && mpit_events_num_types() > 0) {
        mpit_warn("senders: the running %s's queue events do not say the message's communicator (MPICH 4.1 "
                  "and later give the tag where 4.0 gave the context id), so a source rank cannot be "
                  "placed",
                  mpit_backend()->family);
        return PAPI_ECMP;
    } else {
        mpit_warn("senders: the running %s has neither MPI_T queue events by source (MPICH "
                  "--enable-mpit-events=yes) nor Open MPI's %s",
                  mpit_backend()->family, QUEUE_BY_PEER);
        return PAPI_ENOEVNT;
    }
    return PAPI_OK;
}

static int read_unguarded(long long *counts, int max, long long *other, int *which)
{
    if (!kind) return PAPI_ENOTRUN;
    if (max > PAPI_MPIT_SENDERS_MAX) max = PAPI_MPIT_SENDERS_MAX;
    if (max < 0) return PAPI_EINVAL;
    *which = kind;
    *other = 0;
    if (kind == PAPI_MPIT_SENDERS_COUNT) {
        uint64_t now[PAPI_MPIT_SENDERS_MAX], now_other;
        if (mpit_events_group_read(rule_id, now, PAPI_MPIT_SENDERS_MAX, &now_other) < 0) return PAPI_ECMP;
        uint64_t beyond = 0; /* senders past max are "other" to this caller */
        for (int i = 0; i < PAPI_MPIT_SENDERS_MAX; i++) {
            uint64_t d = now[i] - start_counts[i];
            if (i < max)
                counts[i] = (long long)d;
            else
                beyond += d;
        }
        *other = (long long)(now_other - start_other + beyond);
        return PAPI_OK;
    }
    if (mpit_backend()->mpi_state() == MPIT_MPI_RUNNING &&
        mpit_backend()->handle_read(handle, queue) == MPIT_OK)
        for (int i = 0; i < peers && i < PAPI_MPIT_SENDERS_MAX; i++)
            if ((long long)queue[i] > queue_max[i]) queue_max[i] = queue[i];
    for (int i = 0; i < max; i++) counts[i] = i < peers ? queue_max[i] : 0;
    return PAPI_OK;
}

static int stop_unguarded(void)
{
    if (!kind) return PAPI_ENOTRUN;
    if (kind == PAPI_MPIT_SENDERS_COUNT && mpit_backend()->mpi_state() == MPIT_MPI_RUNNING)
        mpit_events_activate(rule_id, -1);
    if (session && mpit_backend()->mpi_state() != MPIT_MPI_FINALIZED) mpit_backend()->session_free(session);
    session = NULL;
    handle = NULL;
    free(queue);
    queue = NULL;
    kind = 0;
    return PAPI_OK;
}

/* The entry points keep the component's rule (mpit_guard.h): a nested call
 * on the same thread is refused at once. */
int papi_mpit_senders_start(void) { GUARDED(start_unguarded()); }

int papi_mpit_senders_read(long long *counts, int max, long long *other, int *which)
{
    if (!counts || !other || !which) return PAPI_EINVAL;
    GUARDED(read_unguarded(counts, max, other, which));
}

int papi_mpit_senders_stop(void) { GUARDED(stop_unguarded()); }
