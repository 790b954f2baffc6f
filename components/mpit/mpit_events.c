#include "mpit_events.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_engine.h"
#include "mpit_loader.h"
#include "mpit_rules.h"
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

/* Set-up and subscription call MPI, so no lock is held: the first thread
 * does them; others see "not ready yet" and carry on. */
enum { SETUP_NONE, SETUP_BUSY, SETUP_DONE };
static atomic_int setup_state;
static atomic_int subscribed;
static mpit_engine_t *engine;
static int num_types;
static mpit_event_info_t *types;
static int num_derived;
static int dropped_id = -1;
static char why[MPIT_WHY_LEN] = "MPI_T events are looked up once MPI is initialized";

const char *mpit_events_why(void) { return why; }
int mpit_events_num_types(void) { return num_types; }
int mpit_events_num_derived(void) { return num_derived; }

const char *mpit_events_type_name(int i) { return i >= 0 && i < num_types ? types[i].name : ""; }
const char *mpit_events_type_desc(int i) { return i >= 0 && i < num_types ? types[i].desc : ""; }
const char *mpit_events_unreadable(void)
{
    for (int i = 0; i < num_types; i++)
        if (types[i].unreadable[0]) return types[i].unreadable;
    return NULL;
}

const char *mpit_events_summable_element(int i, int elem)
{
    return mpit_events_ready() && i >= 0 && i < num_types ? mpit_engine_summable_element(engine, i, elem)
                                                          : NULL;
}

static int kind_of(int dtype)
{
    switch (dtype) {
    case MPIT_TYPE_INT:
    case MPIT_TYPE_LONG:
    case MPIT_TYPE_LONG_LONG:
    case MPIT_TYPE_COUNT_T: return MPIT_ELEM_SIGNED;
    case MPIT_TYPE_UNSIGNED:
    case MPIT_TYPE_UNSIGNED_LONG:
    case MPIT_TYPE_UNSIGNED_LONG_LONG: return MPIT_ELEM_UNSIGNED;
    default: return MPIT_ELEM_OTHER;
    }
}

static int setup_once(void)
{
    int n = 0;
    if (!mpit_backend()->event_num) {
        snprintf(why, sizeof why, "this %s has no MPI_T events API (MPI 4.0 events)", mpit_backend()->family);
        return 0;
    }
    if (mpit_backend()->event_num(&n) != MPIT_OK || n <= 0) {
        snprintf(why, sizeof why, "the running %s exposes no MPI_T events%s", mpit_backend()->family,
                 strcmp(mpit_backend()->family, "MPICH") == 0 ? " (MPICH needs --enable-mpit-events=yes)"
                                                              : "");
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
        if (mpit_backend()->event_info(i, &types[i]) != MPIT_OK) {
            types[i].name[0] = '\0';
            types[i].nelem = 0;
        }
        for (int e = 0; e < types[i].nelem; e++) {
            names[e] = types[i].elem_names[e];
            kinds[e] = kind_of(types[i].elem_dtype[e]);
        }
        mpit_engine_describe_event(engine, i, types[i].name, types[i].nelem, names, kinds);
        if (types[i].unreadable[0]) {
            SUBDBG("mpit: the data of event %s is never read: %s\n", types[i].name, types[i].unreadable);
            mpit_engine_forbid_reading(engine, i);
        }
    }
    num_types = n;
    num_derived = mpit_engine_bind(engine, mpit_rules, mpit_num_rules, 0);
    if (num_derived < 0) num_derived = 0;
    mpit_engine_gate(engine); /* a rule runs in the callbacks only while a set reads it */
    dropped_id = mpit_engine_find_counter(engine, MPIT_ENGINE_DROPPED);
    why[0] = '\0';
    SUBDBG("mpit: %d MPI_T event types, %d derived counters\n", n, num_derived);
    return 1;
}

int mpit_events_ready(void)
{
    return atomic_load_explicit(&setup_state, memory_order_acquire) == SETUP_DONE && engine && num_types > 0;
}

int mpit_events_setup(void)
{
    int expected = SETUP_NONE;
    const mpit_backend_t *b = mpit_backend();
    if (b && mpit_mpi_live(b->mpi_state()) &&
        atomic_compare_exchange_strong(&setup_state, &expected, SETUP_BUSY)) {
        if (!setup_once()) {
            SUBDBG("mpit: no MPI_T events: %s\n", why);
        }
        atomic_store_explicit(&setup_state, SETUP_DONE, memory_order_release);
    }
    return mpit_events_ready();
}

int mpit_events_find(const char *name)
{
    return mpit_events_ready() ? mpit_engine_find_counter(engine, name) : -1;
}

int mpit_events_counter_info(int id, mpit_counter_info_t *info)
{
    return mpit_events_ready() ? mpit_engine_counter_info(engine, id, info) : -1;
}

static const _Atomic unsigned *plan(void *ctx, int index) { return mpit_engine_event_plan(ctx, index); }

/* A watcher of every instance: its context is stored before the function
 * (release), so a callback that sees the function sees its context. */
static _Atomic mpit_events_watcher_t watcher;
static void *_Atomic watcher_ctx;

static void __attribute__((noinline))
deliver_watched(mpit_events_watcher_t w, void *ctx, int index, uint64_t ts, const int64_t *el, int n)
{
    w(atomic_load_explicit(&watcher_ctx, memory_order_relaxed), index, ts, el, n);
    mpit_engine_dispatch(ctx, index, ts, el, n);
}

/* Without a watcher (the common case) a load and a test before the engine:
 * both paths end in a tail call. */
static void deliver(void *ctx, int index, uint64_t ts, const int64_t *el, int n)
{
    mpit_events_watcher_t w = atomic_load_explicit(&watcher, memory_order_acquire);
    if (__builtin_expect(w != NULL, 0))
        deliver_watched(w, ctx, index, ts, el, n);
    else
        mpit_engine_dispatch(ctx, index, ts, el, n);
}

/* Events the MPI itself could not deliver are added to the engine's own
 * "dropped" counter when it is read. */
static _Atomic uint64_t mpi_dropped;
static void dropped(void *ctx, int index, uint64_t count)
{
    (void)ctx;
    (void)index;
    mpi_dropped += count;
}

/* What a backend status means, for the reason given to the user. */
static const char *status_text(int status)
{
    static const struct {
        int status;
        const char *text;
    } texts[] = {{MPIT_ERR_INVALID, "invalid event index"},
                 {MPIT_ERR_NOT_FOUND, "no such event"},
                 {MPIT_ERR_NO_OBJECT, "bound to an MPI object the component does not bind"},
                 {MPIT_ERR_GONE, "MPI is finalized"},
                 {MPIT_ERR_MPI, "an MPI_T error"}};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        if (texts[i].status == status) return texts[i].text;
    return "an unknown error";
}

/* -1 once the MPI refused the callbacks of some event type (why says
 * which), for every caller; types bound to objects the component does not
 * bind (windows, files) are left out, their instances never counted. */
static int subscribe_err;

int mpit_events_subscribe(void)
{
    if (!mpit_events_ready()) return -1;
    if (!mpit_mpi_live(mpit_backend()->mpi_state())) return 0;
    if (atomic_exchange(&subscribed, 1)) return subscribe_err;
    mpit_event_sink_t sink = {plan, deliver, dropped, engine};
    for (int i = 0; i < num_types; i++) {
        int status = types[i].name[0] ? mpit_backend()->event_subscribe(i, &sink) : MPIT_OK;
        if (status == MPIT_OK || status == MPIT_ERR_NO_OBJECT) continue;
        snprintf(why, sizeof why, "the MPI refused the callbacks of the MPI_T event %s (%s)", types[i].name,
                 status_text(status));
        subscribe_err = -1;
    }
    SUBDBG("mpit: MPI_T event callbacks registered%s%s\n", subscribe_err ? ": " : "",
           subscribe_err ? why : "");
    return subscribe_err;
}

int mpit_events_watch(mpit_events_watcher_t fn, void *ctx)
{
    if (!mpit_events_ready()) return -1;
    if (!fn) {
        mpit_engine_watch(engine, 0);
        atomic_store_explicit(&watcher, NULL, memory_order_release);
        return 0;
    }
    atomic_store_explicit(&watcher_ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&watcher, fn, memory_order_release);
    mpit_engine_watch(engine, 1);
    return mpit_events_subscribe();
}

const mpit_event_info_t *mpit_events_type(int i) { return i >= 0 && i < num_types ? &types[i] : NULL; }

int mpit_events_type_readable(int i) { return mpit_events_ready() && mpit_engine_event_readable(engine, i); }

uint64_t mpit_events_dropped_by_mpi(void) { return mpi_dropped; }

void mpit_events_activate(int id, int delta)
{
    if (engine) mpit_engine_activate(engine, id, delta, delta > 0 ? mpit_events_now() : 0);
}

int mpit_events_group_read(int id, uint64_t *counts, int max, uint64_t *other)
{
    return mpit_events_ready() ? mpit_engine_group_read(engine, id, counts, max, other) : -1;
}

int mpit_events_needs_now(int id) { return engine ? mpit_engine_needs_now(engine, id) : 0; }

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
    return mpit_backend() && mpit_backend()->event_now_ns && subscribed ? mpit_backend()->event_now_ns() : 0;
}

void mpit_events_flush(void)
{
    if (subscribed && mpit_backend() && mpit_backend()->event_flush) mpit_backend()->event_flush();
}

void mpit_events_forget(void) { subscribed = 0; }
