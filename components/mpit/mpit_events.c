#include "mpit_events.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_rules.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const mpit_backend_t *backend;
static mpit_engine_t *engine;
static int num_types;
static mpit_event_info_t *types;
static int num_derived;
static int set_up, subscribed;
static int dropped_id = -1;
static char why[256] = "MPI_T events are looked up once MPI is initialized";

const char *mpit_events_why(void) { return why; }
int mpit_events_num_types(void) { return num_types; }
int mpit_events_num_derived(void) { return num_derived; }

const char *mpit_events_type_name(int i) { return i >= 0 && i < num_types ? types[i].name : ""; }
const char *mpit_events_type_desc(int i) { return i >= 0 && i < num_types ? types[i].desc : ""; }

static int kind_of(int dtype)
{
    switch (dtype) {
    case MPIT_TYPE_INT: case MPIT_TYPE_LONG: case MPIT_TYPE_LONG_LONG: case MPIT_TYPE_COUNT_T:
        return MPIT_ELEM_SIGNED;
    case MPIT_TYPE_UNSIGNED: case MPIT_TYPE_UNSIGNED_LONG: case MPIT_TYPE_UNSIGNED_LONG_LONG:
        return MPIT_ELEM_UNSIGNED;
    default:
        return MPIT_ELEM_OTHER;
    }
}

static int setup_locked(void)
{
    int n = 0;
    if (!backend->event_num) {
        snprintf(why, sizeof why, "this %s has no MPI_T events API (MPI 4.0 events)", backend->family);
        return 0;
    }
    if (backend->event_num(&n) != MPIT_OK || n <= 0) {
        snprintf(why, sizeof why, "the running %s exposes no MPI_T events%s", backend->family,
                 strcmp(backend->family, "MPICH") == 0 ? " (MPICH needs --enable-mpit-events=yes)" : "");
        return 0;
    }
    types = calloc((size_t)n, sizeof *types);
    engine = mpit_engine_create(n, 0);
    if (!types || !engine) {
        snprintf(why, sizeof why, "out of memory setting up MPI_T events");
        return 0;
    }
    for (int i = 0; i < n; i++) {
        const char *names[MPIT_EVENT_MAX_ELEMS];
        int kinds[MPIT_EVENT_MAX_ELEMS];
        if (backend->event_info(i, &types[i]) != MPIT_OK) {
            types[i].name[0] = '\0';
            types[i].nelem = 0;
        }
        for (int e = 0; e < types[i].nelem; e++) {
            names[e] = types[i].elem_names[e];
            kinds[e] = kind_of(types[i].elem_dtype[e]);
        }
        mpit_engine_describe_event(engine, i, types[i].name, types[i].nelem, names, kinds);
    }
    num_types = n;
    num_derived = mpit_engine_bind(engine, mpit_rules, mpit_num_rules, 0);
    if (num_derived < 0) num_derived = 0;
    dropped_id = mpit_engine_find_counter(engine, "dropped");
    why[0] = '\0';
    return 1;
}

int mpit_events_setup(const mpit_backend_t *b)
{
    pthread_mutex_lock(&lock);
    backend = b;
    if (!set_up && b->mpi_state() == MPIT_MPI_RUNNING) {
        set_up = 1;
        setup_locked();
    }
    int have = engine != NULL && num_types > 0;
    pthread_mutex_unlock(&lock);
    return have;
}

int mpit_events_find(const char *name)
{
    return engine ? mpit_engine_find_counter(engine, name) : -1;
}

int mpit_events_counter_info(int id, mpit_counter_info_t *info)
{
    return engine ? mpit_engine_counter_info(engine, id, info) : -1;
}

static int wanted(void *ctx, int index) { return mpit_engine_elements_to_read(ctx, index); }

static void deliver(void *ctx, int index, uint64_t ts, const int64_t *el, int n)
{
    mpit_engine_dispatch(ctx, index, ts, el, n);
}

/* Events the MPI itself could not deliver are added to the engine's own
 * "dropped" counter when it is read. */
static _Atomic uint64_t mpi_dropped;
static void dropped(void *ctx, int index, uint64_t count)
{
    (void)ctx; (void)index;
    mpi_dropped += count;
}

int mpit_events_subscribe(void)
{
    int err = 0;
    pthread_mutex_lock(&lock);
    if (engine && !subscribed && backend->mpi_state() == MPIT_MPI_RUNNING) {
        mpit_event_sink_t sink = {wanted, deliver, dropped, engine};
        subscribed = 1;
        for (int i = 0; i < num_types; i++)
            if (types[i].name[0] && backend->event_subscribe(i, &sink) != MPIT_OK) err = -1;
    } else if (!engine) {
        err = -1;
    }
    pthread_mutex_unlock(&lock);
    return err;
}

void mpit_events_rearm(int id)
{
    if (engine) mpit_engine_rearm(engine, id);
}

int64_t mpit_events_read(int id, uint64_t now_ns)
{
    if (!engine) return 0;
    int64_t v = mpit_engine_read(engine, id, now_ns);
    return id == dropped_id ? v + (int64_t)mpi_dropped : v;
}

uint64_t mpit_events_now(void)
{
    return backend && backend->event_now_ns && subscribed ? backend->event_now_ns() : 0;
}

void mpit_events_forget(void) { subscribed = 0; }
