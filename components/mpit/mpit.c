/*
 * PAPI component "mpit": MPI_T performance variables as PAPI native events.
 * Front end only: PAPI's vector, no MPI types.  The MPI side lives in a
 * backend module chosen at run time for the MPI the process uses.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_RIP for the overflow address */
#endif
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "papi_internal.h"
#include "papi_memory.h"
#include "papi_vector.h"
#include "extras.h"

#include "mpit_after_init.h"
#include "mpit_catalog.h"
#include "mpit_claims.h"
#include "mpit_control.h"
#include "mpit_events.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "mpit_metrics.h"
#include "mpit_read.h"
#include "mpit_semantics.h"
#include "mpit_values.h"
#include "mpit_warn.h"

papi_vector_t _mpit_vector;

/* Buffers for a qualified name and for a qualifier's text. */
#define MPIT_NAME_BUF (MPIT_MAX_NAME + 128)
#define MPIT_DESC_BUF 512

static atomic_int backend_ready; /* backend set and its modules told */
static int listing_only;         /* MPI loaded by us for a listing: nothing to count */

/* A qualifier's code (listed under its event): its full name and what it
 * does; 0, or -1 if code is not one. */
static int qualifier_of(unsigned int code, char *name, int name_len, char *what, int what_len)
{
    int q = MPIT_QUALIFIER_INDEX((int)code);
    return q >= 0 ? mpit_catalog_qualifier(MPIT_QUALIFIER_BASE((int)code), q, name, name_len, what, what_len)
                  : -1;
}

/* Why entry e cannot be added, into buf; "" when it can. */
static const char *unusable_reason(const mpit_entry_t *e, char *buf, int len)
{
    if (!e->unusable[0] && e->source == MPIT_SOURCE_PVAR && mpit_backend() &&
        mpit_backend()->pvar_unavailable && mpit_backend()->pvar_unavailable(e->info.name, buf, len))
        return buf;
    return e->unusable;
}

static void on_mpi_finalize(void)
{
    mpit_control_mpi_gone();
    mpit_events_forget();
}

static int use_backend(const mpit_backend_t *b)
{
    SUBDBG("mpit: using the %s backend\n", b->family);
    b->set_finalize_hook(on_mpi_finalize);
    if (b->set_session_count) b->set_session_count(mpit_sessions_running);
    mpit_catalog_allow_deferral(!listing_only);
    mpit_backend_use(b);
    atomic_store_explicit(&backend_ready, 1, memory_order_release);
    return PAPI_OK;
}

static const char listing_only_reason[] =
    "listing only: this process does not use MPI; mpit events can be counted only in an MPI program";

static void count_native_events(void)
{
    mpit_catalog_rescan();
    _mpit_vector.cmp_info.num_native_events = mpit_catalog_num_listed();
}

static int disable(const char *why)
{
    papi_vector_t *v = &_mpit_vector;
    v->cmp_info.disabled = PAPI_ECMP;
    snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN, "%s", why);
    return PAPI_ECMP;
}

/* Cheap: in an MPI process, loads the backend module for its MPI (MPI_T is
 * initialised on first use of the catalog).  A process without MPI stays
 * without it: the default MPI is loaded only if someone asks for the mpit
 * event list (ensure_backend). */
static int mpit_init_component(int cidx)
{
    papi_vector_t *v = &_mpit_vector;
    char why[PAPI_MAX_STR_LEN];
    v->cmp_info.CmpIdx = cidx;
    v->cmp_info.initialized = 1;
    v->cmp_info.disabled = PAPI_OK;
    v->cmp_info.disabled_reason[0] = '\0';
    mpit_backend_use(NULL);
    atomic_store(&backend_ready, 0);
    listing_only = 0;
    if (!mpit_process_has_mpi()) {
        SUBDBG("mpit: no MPI in this process: initialisation delayed until a listing\n");
        /* Delayed: nothing is loaded now; the first listing (papi_native_avail,
         * papi_component_avail) loads the default MPI to count and list the
         * events, and says why adding them fails (disabled_reason is PAPI's
         * only place for it). */
        v->cmp_info.disabled = PAPI_EDELAY_INIT;
        snprintf(v->cmp_info.disabled_reason, PAPI_MAX_STR_LEN, "%s", listing_only_reason);
        return PAPI_OK;
    }
    const mpit_backend_t *b = mpit_load_backend(0, why, sizeof why);
    if (!b) {
        SUBDBG("mpit: disabled: %s\n", why);
        return disable(why);
    }
    use_backend(b);
    /* What MPI_T has now (every listing updates it).  Not before MPI_Init:
     * Open MPI's MPI_T_init_thread then costs about 30 ms, paid only if an
     * mpit event is actually looked up. */
    if (mpit_mpi_live(b->mpi_state())) count_native_events();
    return PAPI_OK;
}

/* PAPI 7.2 has a place for "enabled, but not for everything": listing only
 * goes there too, so that papi_component_avail shows it. */
static void say_partially_disabled(papi_vector_t *v, int partially)
{
#if defined(PAPI_VERSION) && PAPI_VERSION >= PAPI_VERSION_NUMBER(7, 2, 0, 0)
    v->cmp_info.partially_disabled = partially;
    snprintf(v->cmp_info.partially_disabled_reason, sizeof v->cmp_info.partially_disabled_reason, "%s",
             partially ? listing_only_reason : "");
#else
    (void)v;
    (void)partially;
#endif
}

/* The backend, loading the default MPI first in a process without one.
 * Loading calls into MPI, so no lock is held: the first thread to get here
 * loads, and another arriving meanwhile is told the component is busy. */
static atomic_int loading;
static int ensure_backend(void)
{
    char why[PAPI_MAX_STR_LEN];
    if (atomic_load_explicit(&backend_ready, memory_order_acquire)) return PAPI_OK;
    if (_mpit_vector.cmp_info.disabled && _mpit_vector.cmp_info.disabled != PAPI_EDELAY_INIT)
        return PAPI_ECMP;
    if (atomic_exchange(&loading, 1)) return MPIT_REENTERED;
    int err = PAPI_OK;
    if (!atomic_load(&backend_ready)) {
        /* MPI may have been loaded after PAPI_library_init (mpi4py does) */
        int had_mpi = mpit_process_has_mpi();
        const mpit_backend_t *b = mpit_load_backend(!had_mpi, why, sizeof why);
        if (b) {
            listing_only = !had_mpi;
            _mpit_vector.cmp_info.disabled = PAPI_OK;
            if (had_mpi) _mpit_vector.cmp_info.disabled_reason[0] = '\0';
            say_partially_disabled(&_mpit_vector, listing_only);
            use_backend(b);
            /* papi_component_avail reads the count without listing once the
             * component is enabled: a lookup that loaded the MPI (a name of
             * a preset table, say) must leave it right */
            if (listing_only) count_native_events();
        } else {
            SUBDBG("mpit: disabled: %s\n", why);
            err = disable(why);
        }
    }
    atomic_store(&loading, 0);
    return err;
}

static int mpit_init_thread(hwd_context_t *ctx)
{
    (void)ctx;
    return PAPI_OK;
}
static int mpit_shutdown_thread(hwd_context_t *ctx)
{
    (void)ctx;
    return PAPI_OK;
}

static int mpit_shutdown_component(void)
{
    if (!mpit_guard_enter()) return MPIT_REENTERED;
    SUBDBG("mpit: shutdown\n");
    if (mpit_backend()) mpit_catalog_clear(); /* finalizes MPI_T where this MPI allows it */
    mpit_backend_use(NULL);
    atomic_store(&backend_ready, 0);
    mpit_guard_leave();
    _mpit_vector.cmp_info.initialized = 0;
    return PAPI_OK;
}

static int mpit_init_control_state(hwd_control_state_t *ctl)
{
    memset(ctl, 0, sizeof(mpit_control_t));
    return PAPI_OK;
}

/* "papi-mpit: NAME: what: why", naming the event that failed when known,
 * so that tools can tell which of several events it was. */
static void warn_event(const mpit_control_t *cs, const int *codes, const char *what, const char *why)
{
    const mpit_entry_t *e = cs->failed >= 0 ? mpit_catalog_get(codes[cs->failed]) : NULL;
    if (e)
        mpit_warn("%s: %s: %s", e->name, what, why);
    else
        mpit_warn("event set: %s: %s", what, why);
}

static int mpit_update_control_state_unguarded(hwd_control_state_t *ctl, NativeInfo_t *native, int count,
                                               hwd_context_t *ctx)
{
    (void)ctx;
    int codes[MPIT_MAX_EVENTS];
    char why[MPIT_WHY_LEN];
    if (count > MPIT_MAX_EVENTS) return PAPI_ECNFLCT;
    if (ensure_backend() != PAPI_OK) return PAPI_ECMP;
    if (listing_only && count > 0) {
        mpit_warn("cannot add event: this process does not use MPI; mpit events can be listed here but only "
                  "counted in an MPI program");
        return PAPI_ECMP;
    }
    for (int i = 0; i < count; i++) {
        codes[i] = native[i].ni_event;
        native[i].ni_position = i;
        if (MPIT_QUALIFIER_INDEX(codes[i]) >= 0) {
            /* a listed qualifier added by its code: the name it stands for */
            char name[MPIT_NAME_BUF], what[MPIT_DESC_BUF];
            int c = -1;
            if (qualifier_of((unsigned)codes[i], name, sizeof name, what, sizeof what) != 0) {
                mpit_warn("event set: cannot be added: %#x is not an mpit qualifier code",
                          (unsigned)codes[i]);
                return PAPI_ENOEVNT;
            }
            int err = mpit_catalog_lookup(name, &c, why, sizeof why);
            if (err != PAPI_OK) {
                mpit_warn("%s: cannot be added: %s", name, why);
                return err;
            }
            codes[i] = c;
        }
    }
    mpit_control_t *cs = (mpit_control_t *)ctl;
    int err = mpit_control_update(cs, codes, count, why, sizeof why);
    if (err != PAPI_OK) warn_event(cs, codes, "cannot be added", why);
    return err;
}

static int mpit_start_unguarded(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
    (void)ctx;
    char why[MPIT_WHY_LEN];
    mpit_control_t *cs = (mpit_control_t *)ctl;
    /* MPI may have ended unseen: no call reached the component between
     * MPI_Init and MPI_Finalize to arm the hook */
    if (!atomic_load(&mpit_control_gone) && mpit_backend()->mpi_state() == MPIT_MPI_FINALIZED)
        on_mpi_finalize();
    mpit_events_flush(); /* what happened before the start counts before it */
    int err = mpit_control_start(cs, why, sizeof why);
    if (err != PAPI_OK) {
        int codes[MPIT_MAX_EVENTS];
        for (int i = 0; i < cs->num; i++) codes[i] = cs->slot[i].code;
        warn_event(cs, codes, "cannot be started", why);
    }
    return err;
}

/* Hot path, also inside PAPI's overflow signal: nested in the component on
 * this thread, it returns the last values rather than wait. */
static int mpit_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **values, int flags)
{
    (void)ctx;
    (void)flags;
    mpit_control_t *cs = (mpit_control_t *)ctl;
    if (!mpit_guard_enter()) {
        *values = cs->values;
        return PAPI_OK;
    }
    /* a set started before MPI_Init whose tool did not call
     * papi_mpit_after_init: the catch-up its MPI_Init wrapper would have run */
    if (cs->bound_before_mpi) mpit_control_catch_up(cs);
    int err = mpit_read_set(cs, values);
    mpit_guard_leave();
    return err;
}

static int mpit_stop_unguarded(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
    (void)ctx;
    if (!atomic_load(&mpit_control_gone)) mpit_events_flush();
    return mpit_control_stop((mpit_control_t *)ctl);
}

static int mpit_reset_unguarded(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
    (void)ctx;
    return mpit_control_reset((mpit_control_t *)ctl);
}

static int mpit_cleanup_eventset(hwd_control_state_t *ctl)
{
    if (!mpit_guard_enter()) return MPIT_REENTERED;
    mpit_control_cleanup((mpit_control_t *)ctl);
    mpit_guard_leave();
    return PAPI_OK;
}

static int mpit_ntv_enum_events_unguarded(unsigned int *code, int modifier)
{
    int next;
    if (ensure_backend() != PAPI_OK) return PAPI_ENOEVNT;
    switch (modifier) {
    case PAPI_ENUM_FIRST:
        mpit_catalog_rescan(); /* MPI_T may have grown since the last listing */
        _mpit_vector.cmp_info.num_native_events = mpit_catalog_num_listed();
        next = mpit_catalog_next_listed(-1);
        break;
    case PAPI_ENUM_EVENTS: next = mpit_catalog_next_listed(MPIT_QUALIFIER_BASE((int)*code)); break;
    case PAPI_NTV_ENUM_UMASKS: {
        /* from an event to its first qualifier, from a qualifier to the next */
        char name[MPIT_NAME_BUF], what[MPIT_DESC_BUF], gated[MPIT_NAME_LEN + 256];
        int base = MPIT_QUALIFIER_BASE((int)*code), q = MPIT_QUALIFIER_INDEX((int)*code) + 1;
        const mpit_entry_t *e = mpit_catalog_get(base);
        if (!e || unusable_reason(e, gated, sizeof gated)[0]) return PAPI_ENOEVNT; /* nothing to refine */
        if (mpit_catalog_qualifier(base, q, name, sizeof name, what, sizeof what) != 0) return PAPI_ENOEVNT;
        *code = (unsigned)MPIT_QUALIFIER_CODE(base, q);
        return PAPI_OK;
    }
    default: return PAPI_EINVAL;
    }
    if (next < 0) return PAPI_ENOEVNT;
    *code = (unsigned)next;
    return PAPI_OK;
}

/* A failed lookup is explained on stderr only for a name that is the
 * component's or was addressed to it (mpit_claims.h); otherwise its reason is
 * only kept, for papi_mpit_why. */
static void refuse(int addressed, const char *name, const char *why)
{
    if (addressed || mpit_claims(name))
        mpit_warn("%s: %s", name, why);
    else
        mpit_note("%s: %s", name, why);
}

static int mpit_ntv_name_to_code_unguarded(const char *name, unsigned int *code)
{
    char why[MPIT_WHY_LEN];
    int c, addressed = mpit_addressed(_mpit_vector.cmp_info.name);
    /* PAPI's preset names on a CPU libpfm4 knows: no MPI loaded for them */
    if (!addressed && !mpit_may_claim(name)) {
        mpit_note("%s: not a name of the mpit component", name);
        return PAPI_ENOEVNT;
    }
    if (ensure_backend() != PAPI_OK) {
        refuse(addressed, name, _mpit_vector.cmp_info.disabled_reason);
        return PAPI_ENOEVNT;
    }
    int err = mpit_catalog_lookup(name, &c, why, sizeof why);
    if (err != PAPI_OK) {
        refuse(addressed, name, why);
        return err;
    }
    *code = (unsigned)c;
    return PAPI_OK;
}

static int mpit_ntv_code_to_name(unsigned int code, char *name, int len)
{
    char what[MPIT_DESC_BUF];
    if (MPIT_QUALIFIER_INDEX((int)code) >= 0)
        return qualifier_of(code, name, len, what, sizeof what) == 0 ? PAPI_OK : PAPI_ENOEVNT;
    const mpit_entry_t *e = mpit_catalog_get((int)code);
    if (!e) return PAPI_ENOEVNT;
    snprintf(name, len, "%s", e->name);
    return PAPI_OK;
}

static int mpit_ntv_code_to_descr(unsigned int code, char *descr, int len)
{
    if (MPIT_QUALIFIER_INDEX((int)code) >= 0) {
        /* PAPI's form for a qualifier: the event's text, then ", masks:"
         * and what the qualifier does (papi_native_avail shows the latter) */
        char name[MPIT_NAME_BUF], what[MPIT_DESC_BUF];
        const mpit_entry_t *e = mpit_catalog_get(MPIT_QUALIFIER_BASE((int)code));
        if (!e || qualifier_of(code, name, sizeof name, what, sizeof what) != 0) return PAPI_ENOEVNT;
        int room = len - (int)strlen(what) - (int)sizeof ", masks:"; /* the qualifier's text is kept whole */
        snprintf(descr, len, "%.*s, masks:%s", room > 0 ? room : 0, e->description, what);
        return PAPI_OK;
    }
    const mpit_entry_t *e = mpit_catalog_get((int)code);
    if (!e) return PAPI_ENOEVNT;
    char gated[MPIT_NAME_LEN + 256];
    const char *unusable = unusable_reason(e, gated, sizeof gated);
    if (unusable[0])
        snprintf(descr, len, "%s (cannot be added: %s)", e->description, unusable);
    else
        snprintf(descr, len, "%s", e->description);
    return PAPI_OK;
}

static int mpit_ntv_code_to_info(unsigned int code, PAPI_event_info_t *info)
{
    if (MPIT_QUALIFIER_INDEX((int)code) >= 0) {
        /* a name and a text only, as PAPI lists hardware qualifiers: what
         * the qualified event counts is known once its name is looked up */
        char what[MPIT_DESC_BUF];
        if (qualifier_of(code, info->symbol, sizeof info->symbol, what, sizeof what) != 0)
            return PAPI_ENOEVNT;
        mpit_ntv_code_to_descr(code, info->long_descr, sizeof info->long_descr);
        snprintf(info->short_descr, sizeof info->short_descr, "%.63s", what);
        return PAPI_OK;
    }
    const mpit_entry_t *e = mpit_catalog_get((int)code);
    if (!e) return PAPI_ENOEVNT;
    snprintf(info->symbol, sizeof info->symbol, "%s", e->name);
    mpit_ntv_code_to_descr(code, info->long_descr, sizeof info->long_descr);
    snprintf(info->short_descr, sizeof info->short_descr, "%.63s", e->description);
    snprintf(info->units, sizeof info->units, "%s", e->units ? e->units : "");
    const mpit_semantics_t *sem = mpit_read_semantics(e->read_kind);
    info->data_type = e->is_float ? PAPI_DATATYPE_FP64 : PAPI_DATATYPE_INT64;
    info->value_type = sem->value_type;
    info->timescope = sem->timescope;
    info->location = PAPI_LOCATION_CORE; /* per process */
    info->update_type = PAPI_UPDATETYPE_ARBITRARY;
    return PAPI_OK;
}

static int mpit_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native, int count,
                                     hwd_context_t *ctx)
{
    GUARDED(mpit_update_control_state_unguarded(ctl, native, count, ctx));
}
static int mpit_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
    GUARDED(mpit_start_unguarded(ctx, ctl));
}
static int mpit_stop(hwd_context_t *ctx, hwd_control_state_t *ctl) { GUARDED(mpit_stop_unguarded(ctx, ctl)); }
static int mpit_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
    GUARDED(mpit_reset_unguarded(ctx, ctl));
}
static int mpit_ntv_enum_events(unsigned int *code, int modifier)
{
    GUARDED(mpit_ntv_enum_events_unguarded(code, modifier));
}
static int mpit_ntv_name_to_code(const char *name, unsigned int *code)
{
    GUARDED(mpit_ntv_name_to_code_unguarded(name, code));
}

/* The interrupted thread's stack pointer; where the machine is not known
 * here, this handler's own frame (the same stack unless the tool set an
 * alternate signal stack). */
static const void *mpit_interrupted_sp(void *uc)
{
#if defined(__x86_64__)
    return (const void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    return (const void *)((ucontext_t *)uc)->uc_mcontext.sp;
#else
    (void)uc;
    return __builtin_frame_address(0);
#endif
}

/* PAPI's software overflow (PAPI_overflow on a component without
 * interrupts, as hpcrun calls it) runs this from its interval timer's
 * signal: PAPI reads the running set and calls the user's handler for each
 * event that advanced by its threshold.  No lock here: the read below is the
 * component's own, safe in a signal handler. */
static void mpit_dispatch_timer(int signal, hwd_siginfo_t *info, void *uc)
{
    (void)signal;
    _papi_hwi_context_t hw_context;
    ThreadInfo_t *thread = _papi_hwi_lookup_thread(0);
    if (!thread) return;
    hw_context.si = info;
    hw_context.ucontext = (hwd_ucontext_t *)uc;
    vptr_t address = GET_OVERFLOW_ADDRESS(hw_context);
    /* a tick inside MPI_Finalize before the component heard of it, where
     * the release already freed what a read touches: no read, no sample */
    const mpit_backend_t *b = mpit_backend();
    if (b && b->in_finalize_window && b->in_finalize_window(address, mpit_interrupted_sp(uc))) return;
    mpit_guard_signal_begin();
    _papi_hwi_dispatch_overflow_signal(&hw_context, address, NULL, 0, 0, &thread,
                                       _mpit_vector.cmp_info.CmpIdx);
    mpit_guard_signal_end();
}

static int mpit_set_domain(hwd_control_state_t *ctl, int domain)
{
    (void)ctl;
    (void)domain;
    return PAPI_OK;
}

static int mpit_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
    (void)ctx;
    (void)code;
    (void)option;
    return PAPI_OK;
}

papi_vector_t _mpit_vector = {
    .cmp_info =
        {
            .name = "mpit",
            .short_name = "mpit",
            .description = "MPI_T variables, events and portable metrics of the running MPI library",
            .version = "0.1",
            .num_mpx_cntrs = MPIT_MAX_EVENTS,
            .num_cntrs = MPIT_MAX_EVENTS,
            .default_domain = PAPI_DOM_USER,
            .available_domains = PAPI_DOM_USER,
            .default_granularity = PAPI_GRN_THR,
            .available_granularities = PAPI_GRN_THR,
            .hardware_intr_sig = PAPI_INT_SIGNAL,
        },
    .size =
        {
            .context = 1,
            .control_state = sizeof(mpit_control_t),
            .reg_value = 1,
            .reg_alloc = 1,
        },
    .init_component = mpit_init_component,
    .init_thread = mpit_init_thread,
    .init_control_state = mpit_init_control_state,
    .shutdown_component = mpit_shutdown_component,
    .shutdown_thread = mpit_shutdown_thread,
    .cleanup_eventset = mpit_cleanup_eventset,
    .update_control_state = mpit_update_control_state,
    .start = mpit_start,
    .stop = mpit_stop,
    .read = mpit_read,
    .reset = mpit_reset,
    .ntv_enum_events = mpit_ntv_enum_events,
    .ntv_name_to_code = mpit_ntv_name_to_code,
    .ntv_code_to_name = mpit_ntv_code_to_name,
    .ntv_code_to_descr = mpit_ntv_code_to_descr,
    .ntv_code_to_info = mpit_ntv_code_to_info,
    .set_domain = mpit_set_domain,
    .ctl = mpit_ctl,
    .dispatch_timer = mpit_dispatch_timer,
};
