/*
 * MPI_T events (MPI 4.0) for the backend: event info, callback registration
 * and the callback itself, which runs inside MPI: no locks, no allocation,
 * no I/O, bounded work.  The entry points are the running library's
 * (events_api.c): a release without events offers none.
 */
#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpit_backend.h"
#include "../mpit_values.h"
#include "backend_internal.h"
#include "event_clock.h"
#include "events_api.h"
#include "family_quirks.h"

/* One registration: what the callback needs, fixed at subscribe time. */
typedef struct subscription {
    ev_registration_t handle;
    int index;
    int nelem;
    int elem_dtype[MPIT_EVENT_MAX_ELEMS];
    MPI_Aint elem_displ[MPIT_EVENT_MAX_ELEMS];
    size_t copy_size;             /* bytes MPI_T_event_copy writes; 0: read elements one by one */
    double ns_per_tick;           /* 1.0 for nanosecond sources */
    const _Atomic unsigned *plan; /* the sink's word: elements to read, timestamp wanted */
    mpit_event_sink_t sink;
    struct subscription *next; /* list for unsubscribe_all (setup only) */
} subscription_t;

static subscription_t *subscriptions;
static double *source_ns_per_tick;      /* by source index */
static unsigned char *source_unordered; /* by source index: 1 when its instances wait to be drained */
static int num_sources;

static int event_num(int *num) { return backend_status(ev.get_num(num)); }

#define COPY_MAX 256 /* an event buffer copied whole in the callback, on the stack */

static int event_info_displ(int index, mpit_event_info_t *info, MPI_Aint *displs);

static int event_info(int index, mpit_event_info_t *info)
{
    MPI_Aint displs[MPIT_EVENT_MAX_ELEMS];
    return event_info_displ(index, info, displs);
}

#if defined(MPI_ABI_VERSION)
/* Standard-ABI layers that take only the lowest callback safety levels, by
 * release (the first of the levels none, MPI_RESTRICTED, thread safe, async
 * signal safe).  MPICH 5.0.1's indexes its 4 callback slots by the ABI's
 * safety value (0, 3, 15, 63): the two higher ones write past them (seen on
 * a 5.0.1 build with events; Debian's 5.0.2 raises no event, so nothing
 * tells whether 5.0.2 still does).  MPICH raises at MPI_RESTRICTED and looks
 * upward: two levels are enough.  Open MPI 6.0.0rc2's ABI layer takes all
 * four (t_backends: its events exact through the ABI). */
static const struct {
    const char *label, *version; /* the release (backend_release_is) */
    size_t levels;
} abi_callback_levels[] = {
    {"MPICH Version:", "5.0.", 2},
};
#endif

/* Room for more elements than are kept: MPICH 5.0.1's standard-ABI wrapper
 * of MPI_T_event_get_info writes as many as the event has, whatever the
 * count it is given. */
#define INFO_ELEMS 64

static int event_info_displ(int index, mpit_event_info_t *info, MPI_Aint *displs)
{
    MPI_Datatype types[INFO_ELEMS];
    MPI_Aint all_displs[INFO_ELEMS];
    int name_len = MPIT_NAME_LEN, desc_len = MPIT_DESC_LEN, nelem = INFO_ELEMS;
    int verbosity, bind;
    MPI_T_enum enumtype = MPI_T_ENUM_NULL;
    MPI_Info mpi_info = MPI_INFO_NULL;
    memset(info, 0, sizeof *info);
    int err = ev.get_info(index, info->name, &name_len, &verbosity, types, all_displs, &nelem, &enumtype,
                          &mpi_info, info->desc, &desc_len, &bind);
    if (err != MPI_SUCCESS) return backend_status(err);
    if (mpi_info != MPI_INFO_NULL) PMPI_Info_free(&mpi_info);
    info->nelem = nelem < MPIT_EVENT_MAX_ELEMS ? nelem : MPIT_EVENT_MAX_ELEMS;
    for (int i = 0; i < info->nelem; i++) displs[i] = all_displs[i];
    info->bind = backend_map_bind(bind);
    info->verbosity = backend_map_verbosity(verbosity);
    for (int i = 0; i < info->nelem; i++) info->elem_dtype[i] = backend_map_dtype(types[i]);
    backend_event_data_defect(info->unreadable, sizeof info->unreadable);
    /* The optional enum names the elements; where the family's enum cannot
     * be trusted or gives none, the names it is known to mean (family_quirks.h). */
    int items = 0, named = 0;
    char ename[MPIT_ELEM_NAME_LEN];
    int elen = sizeof ename;
    if (backend_family.quirks.event_enumtype_valid && enumtype != MPI_T_ENUM_NULL &&
        PMPI_T_enum_get_info(enumtype, &items, ename, &elen) == MPI_SUCCESS) {
        for (int i = 0; i < items && i < info->nelem; i++) {
            int value, len = sizeof info->elem_names[i];
            named += PMPI_T_enum_get_item(enumtype, i, &value, info->elem_names[i], &len) == MPI_SUCCESS;
        }
    }
    for (size_t k = 0; !named && k < sizeof unnamed_elements / sizeof unnamed_elements[0]; k++)
        if (strcmp(unnamed_elements[k].event, info->name) == 0 &&
            backend_release_is(unnamed_elements[k].release_label, unnamed_elements[k].release_version)) {
            for (int i = 0; i < info->nelem && i < UNNAMED_ELEMENTS_MAX && unnamed_elements[k].elems[i]; i++)
                snprintf(info->elem_names[i], sizeof info->elem_names[i], "%s", unnamed_elements[k].elems[i]);
            break;
        }
    return MPIT_OK;
}

/* The time of an event on a clock other than the TSC: the MPI's timestamp,
 * or CLOCK_MONOTONIC now. */
static uint64_t __attribute__((noinline)) other_timestamp_ns(ev_instance_t instance, const subscription_t *s)
{
    if (backend_clock.kind != EVENT_CLOCK_MPI) return backend_clock_monotonic();
    MPI_Count ticks = 0;
    ev.get_timestamp(instance, &ticks);
    return s->ns_per_tick == 1.0 ? (uint64_t)ticks : (uint64_t)((double)ticks * s->ns_per_tick);
}

/* The event's time on the chosen clock (event_clock.h): the MPI's timestamp,
 * or a clock read now where the MPI calls back as it raises the event. */
static inline uint64_t timestamp_ns(ev_instance_t instance, const subscription_t *s)
{
    return backend_clock.kind == EVENT_CLOCK_TSC ? backend_clock_tsc() : other_timestamp_ns(instance, s);
}

/* The time on another clock, apart so that on_event keeps no frame. */
static void __attribute__((noinline)) deliver_other_time(ev_instance_t instance, const subscription_t *s)
{
    s->sink.deliver(s->sink.ctx, s->index, other_timestamp_ns(instance, s), NULL, 0);
}

/* The slower path of on_event, apart so that the common one keeps no
 * buffers on the stack: rules that read the event's elements. */
static void __attribute__((noinline))
deliver_general(ev_instance_t instance, const subscription_t *s, unsigned plan)
{
    int64_t elements[MPIT_EVENT_MAX_ELEMS];
    unsigned char buf[16], whole[COPY_MAX];
    int n = (int)(plan & MPIT_PLAN_ELEMENTS);
    if (n > s->nelem) n = s->nelem;
    /* one MPI_T_event_copy is cheaper than an MPI_T_event_read per element */
    int copied = n > 0 && s->copy_size > 0 && ev.copy(instance, whole) == MPI_SUCCESS;
    for (int i = 0; i < n; i++) {
        const unsigned char *at = buf;
        if (copied)
            at = whole + s->elem_displ[i];
        else if (s->elem_dtype[i] == MPIT_TYPE_UNKNOWN || ev.read(instance, i, buf) != MPI_SUCCESS) {
            n = i;
            break;
        }
        elements[i] = mpit_value_extract(at, s->elem_dtype[i], 1, 0).i; /* a double: its bits */
    }
    uint64_t ns = plan & MPIT_PLAN_TIME ? timestamp_ns(instance, s) : 0;
    s->sink.deliver(s->sink.ctx, s->index, ns, elements, n);
}

/* Runs inside MPI, possibly on a progress thread: no lock, allocation or
 * I/O, and only what the running rules need (the sink's plan word): the
 * elements if a rule reads them, the time if a rule times.  Without
 * elements it ends in a tail call. */
static void on_event(ev_instance_t instance, ev_registration_t reg, ev_safety_t safety, void *user_data)
{
    (void)reg;
    (void)safety;
    const subscription_t *s = user_data;
    unsigned plan = atomic_load_explicit(s->plan, memory_order_relaxed);
    if (plan == 0) {
        s->sink.deliver(s->sink.ctx, s->index, 0, NULL, 0);
    } else if (plan == MPIT_PLAN_TIME && backend_clock.kind == EVENT_CLOCK_TSC) {
        s->sink.deliver(s->sink.ctx, s->index, backend_clock_tsc(), NULL, 0);
    } else if (plan == MPIT_PLAN_TIME) {
        deliver_other_time(instance, s);
    } else {
        deliver_general(instance, s, plan);
    }
}

static void on_dropped(MPI_Count count, ev_registration_t reg, int source_index, ev_safety_t safety,
                       void *user_data)
{
    (void)reg;
    (void)source_index;
    (void)safety;
    const subscription_t *s = user_data;
    s->sink.dropped(s->sink.ctx, s->index, (uint64_t)count);
}

static void on_free(ev_registration_t reg, ev_safety_t safety, void *user_data)
{
    (void)reg;
    (void)safety;
    free(user_data);
}

static void load_sources(void)
{
    if (__atomic_load_n(&source_ns_per_tick, __ATOMIC_ACQUIRE)) return;
    int n = 0;
    if (ev.source_get_num(&n) != MPI_SUCCESS || n <= 0) return;
    /* two threads may get here at once (sets started on several threads):
     * each fills its own arrays, one publishes them, the other frees its own */
    double *ns = calloc((size_t)n, sizeof *ns);
    unsigned char *unordered = calloc((size_t)n, 1);
    for (int i = 0; ns && i < n; i++) {
        char name[MPIT_NAME_LEN], desc[MPIT_NAME_LEN];
        int nl = sizeof name, dl = sizeof desc;
        ev_order_t order;
        MPI_Count tps = 0, max_ticks;
        MPI_Info info = MPI_INFO_NULL;
        ns[i] = 1.0;
        if (ev.source_get_info(i, name, &nl, desc, &dl, &order, &tps, &max_ticks, &info) == MPI_SUCCESS) {
            if (tps > 0) ns[i] = 1e9 / (double)tps;
            if (unordered) unordered[i] = order == EV_SOURCE_UNORDERED;
            if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
        }
    }
    unsigned char *no_unordered = NULL;
    if (!ns || !__atomic_compare_exchange_n(&source_unordered, &no_unordered, unordered, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE)) {
        free(ns);
        free(unordered);
        return;
    }
    num_sources = n;
    __atomic_store_n(&source_ns_per_tick, ns, __ATOMIC_RELEASE);
}

static int event_subscribe(int index, const mpit_event_sink_t *sink)
{
    mpit_event_info_t info;
    MPI_Aint displs[MPIT_EVENT_MAX_ELEMS];
    int err = event_info_displ(index, &info, displs);
    if (err != MPIT_OK) return err;
    subscription_t *s = calloc(1, sizeof *s);
    if (!s) return MPIT_ERR_MPI;
    s->index = index;
    /* data that must not be read: no element is, whatever a sink plans */
    s->nelem = info.unreadable[0] ? 0 : info.nelem;
    memcpy(s->elem_dtype, info.elem_dtype, sizeof s->elem_dtype);
    memcpy(s->elem_displ, displs, sizeof s->elem_displ);
    /* the whole buffer fits on the callback's stack: copy it in one call */
    for (int i = 0; i < info.nelem; i++) {
        size_t width = mpit_dtype_size(info.elem_dtype[i]);
        size_t end = displs[i] >= 0 && width ? (size_t)displs[i] + width : COPY_MAX + 1;
        if (end > s->copy_size) s->copy_size = end;
    }
    if (s->copy_size > COPY_MAX) s->copy_size = 0;
    s->sink = *sink;
    s->plan = sink->plan(sink->ctx, index);
    load_sources();
    static int clock_chosen; /* subscription is setup: one thread */
    if (!clock_chosen) backend_clock_setup(backend_family.quirks.event_callbacks_synchronous);
    clock_chosen = 1;
    /* An event has no source before its first instance; MPICH and Open MPI
     * use nanosecond sources, and a single source is the common case. */
    s->ns_per_tick = num_sources == 1 && source_ns_per_tick ? source_ns_per_tick[0] : 1.0;
    /* MPI_COMM_WORLD exists only once MPI_Init has run (not under sessions) */
    int world = 0;
    if (info.bind == MPIT_BIND_COMM) PMPI_Initialized(&world);
    void *obj = world ? backend_comm_object(MPIT_COMM_WORLD) : NULL;
    if ((info.bind != MPIT_BIND_NONE && info.bind != MPIT_BIND_COMM) ||
        (info.bind == MPIT_BIND_COMM && !obj)) {
        free(s);
        return MPIT_ERR_NO_OBJECT;
    }
    err = ev.handle_alloc(index, obj, MPI_INFO_NULL, &s->handle);
    if (err != MPI_SUCCESS) {
        free(s);
        return backend_status(err);
    }
    /* The callback is async-signal safe; register it at every level so the
     * MPI finds it whatever safety it raises the event with (MPICH raises
     * at MPI_RESTRICTED and looks upward; Open MPI main never selects
     * ASYNC_SIGNAL_SAFE). */
    static const ev_safety_t levels[] = {EV_REQUIRE_NONE, EV_REQUIRE_MPI_RESTRICTED, EV_REQUIRE_THREAD_SAFE,
                                         EV_REQUIRE_ASYNC_SIGNAL_SAFE};
    size_t nlevels = sizeof levels / sizeof levels[0];
#if defined(MPI_ABI_VERSION)
    /* standard-ABI layers that take fewer levels (abi_callback_levels) */
    for (size_t i = 0; i < sizeof abi_callback_levels / sizeof abi_callback_levels[0]; i++)
        if (backend_release_is(abi_callback_levels[i].label, abi_callback_levels[i].version)) {
            nlevels = abi_callback_levels[i].levels;
            break;
        }
#endif
    int registered = 0;
    for (size_t i = 0; i < nlevels; i++)
        registered += ev.register_callback(s->handle, levels[i], MPI_INFO_NULL, s, on_event) == MPI_SUCCESS;
    ev.set_dropped_handler(s->handle, on_dropped);
    if (!registered) {
        ev.handle_free(s->handle, s, on_free);
        return MPIT_ERR_MPI;
    }
    s->next = subscriptions;
    subscriptions = s;
    return MPIT_OK;
}

static void event_unsubscribe_all(void)
{
    subscription_t *s = subscriptions;
    subscriptions = NULL;
    while (s) {
        subscription_t *next = s->next;
        ev.handle_free(s->handle, s, on_free);
        s = next;
    }
}

static uint64_t event_now_ns(void)
{
    MPI_Count ticks = 0;
    if (backend_clock.kind != EVENT_CLOCK_MPI) return backend_clock_now();
    load_sources();
    if (num_sources <= 0 || ev.source_get_timestamp(0, &ticks) != MPI_SUCCESS) return 0;
    return (uint64_t)((double)ticks * source_ns_per_tick[0]);
}

/* Open MPI 6.0 delivers an unordered source's instances when the source is
 * drained, which asking for its time does. */
static void event_flush(void)
{
    MPI_Count ticks;
    for (int i = 0; source_unordered && i < num_sources; i++)
        if (source_unordered[i]) ev.source_get_timestamp(i, &ticks);
}

void backend_events_fill(mpit_backend_t *b)
{
    if (!events_api_load()) return;
    b->event_num = event_num;
    b->event_info = event_info;
    b->event_subscribe = event_subscribe;
    b->event_unsubscribe_all = event_unsubscribe_all;
    b->event_now_ns = event_now_ns;
    b->event_flush = event_flush;
}

void backend_events_release(void)
{
    if (events_api_load()) event_unsubscribe_all();
}
