#include "mpit_control.h"

#include <float.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog.h"
#include "mpit_events.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "mpit_metrics.h"
#include "mpit_read.h"
#include "mpit_semantics.h"
#include "mpit_waiting.h"
#include "mpit_warn.h"
#include "mpit_watermarks.h"
#include "papi.h"
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

atomic_int mpit_control_gone;

void mpit_control_mpi_gone(void) { atomic_store_explicit(&mpit_control_gone, 1, memory_order_release); }

static int gone(void) { return atomic_load_explicit(&mpit_control_gone, memory_order_acquire); }

static void unbind_mend(mpit_slot_t *s)
{
    for (int k = 0; k < 2; k++) {
        free(s->mend_raw[k]);
        s->mend_raw[k] = NULL;
        s->mend[k] = NULL; /* freed with the session */
    }
}

static void unbind(mpit_control_t *cs)
{
    mpit_read_unplan(cs);
    cs->num_pvars = cs->num_counters = cs->num_plain = 0;
    for (int i = 0; i < cs->num; i++) {
        if (cs->slot[i].activated && !gone()) mpit_events_activate(cs->slot[i].engine_id, -1);
        cs->slot[i].activated = 0;
        mpit_watermark_unwatch(cs->slot[i].watermark_cell);
        cs->slot[i].watermark_cell = -1;
        free(cs->slot[i].raw);
        cs->slot[i].raw = NULL;
        cs->slot[i].handle = NULL; /* freed with the session */
        unbind_mend(&cs->slot[i]);
    }
    if (cs->session && mpit_backend()) mpit_backend()->session_free(cs->session);
    cs->session = NULL;
    cs->bound = 0;
}

/* Checks an entry can be measured at all; 0 or a PAPI error with why. */
static int check_entry(int code, char *why, int why_len)
{
    const mpit_entry_t *e = mpit_catalog_get(code);
    if (!e) {
        snprintf(why, why_len, "unknown mpit event code %d", code);
        return PAPI_ENOEVNT;
    }
    if (e->unusable[0]) {
        snprintf(why, why_len, "%s", e->unusable);
        return PAPI_ENOSUPP;
    }
    /* asked each time: a component may be selected in MPI_Init */
    if (e->source == MPIT_SOURCE_PVAR && mpit_backend()->pvar_unavailable &&
        mpit_backend()->pvar_unavailable(e->info.name, why, (size_t)why_len))
        return PAPI_ECMP;
    return PAPI_OK;
}

/* The level and the length a mended watermark is read with. */
static int bind_mend(mpit_control_t *cs, mpit_slot_t *s, const mpit_entry_t *e, char *why, int why_len)
{
    for (int k = 0; k < 2; k++) {
        const mpit_entry_t *v = mpit_catalog_get(e->mend_code[k]);
        int index;
        if (!v || mpit_backend()->pvar_index(v->info.name, v->info.cls, &index) != MPIT_OK ||
            mpit_backend()->handle_alloc(cs->session, index, MPIT_COMM_WORLD, &s->mend[k],
                                         &s->mend_count[k]) != MPIT_OK) {
            snprintf(why, why_len, "the MPI refused a handle for %s, which %s is read with",
                     v ? v->info.name : "a variable", e->name);
            return PAPI_ESYS;
        }
        mpit_backend()->handle_start(s->mend[k]);
        if (s->mend_count[k] < 1) s->mend_count[k] = 1;
        s->mend_dtype[k] = v->info.dtype;
        size_t width = mpit_dtype_size(v->info.dtype);
        s->mend_raw[k] = calloc((size_t)s->mend_count[k], width ? width : 8);
        if (!s->mend_raw[k]) return PAPI_ENOMEM;
    }
    return PAPI_OK;
}

/* An MPI may bind a variable to an object it keeps no data for, and fail
 * every read of it (Open MPI's coll monitoring keeps data for
 * MPI_COMM_WORLD only): tried once at bind, so that it is refused when
 * added, like a hardware counter that cannot be opened, rather than fail
 * reads.  A handle that is not continuous is read started (unstarted, Open
 * MPI returns a cached value without asking the variable). */
static int readable(mpit_slot_t *s)
{
    const mpit_backend_t *b = mpit_backend();
    if (!s->continuous) b->handle_start(s->handle);
    int ok = b->handle_read(s->handle, s->raw) == MPIT_OK;
    if (!s->continuous) b->handle_stop(s->handle);
    return ok;
}

/* Binds one slot to its source.  Returns PAPI_OK (with *waits set when the
 * slot can be bound only once MPI runs) or a PAPI error with why. */
static int bind_slot(mpit_control_t *cs, mpit_slot_t *s, int state, int *waits, char *why, int why_len)
{
    *waits = 0;
    int err = mpit_catalog_resolve(s->code, why, why_len);
    if (err != PAPI_OK && state == MPIT_MPI_NOT_STARTED) return *waits = 1, PAPI_OK;
    if (err != PAPI_OK) return err;
    const mpit_entry_t *e = mpit_catalog_get(s->code);
    if (e->source == MPIT_SOURCE_PVAR && !cs->session && state == MPIT_MPI_NOT_STARTED)
        return *waits = 1, PAPI_OK; /* MPI_T deferred until MPI runs */
    if ((err = check_entry(s->code, why, why_len)) != PAPI_OK) return err;
    s->source = e->source;
    s->read_kind = e->read_kind;
    s->is_float = e->is_float;
    s->scale = e->scale > 0 ? e->scale : 1;
    s->engine_id = e->engine_id;
    if (e->source == MPIT_SOURCE_EVENT) {
        if (mpit_events_subscribe() != 0) {
            snprintf(why, why_len, "registering MPI_T event callbacks failed: %s", mpit_events_why());
            return PAPI_ESYS;
        }
        if (s->engine_id >= 0) {
            mpit_events_activate(s->engine_id, +1); /* its rule runs from now on */
            s->activated = 1;
            SUBDBG("mpit: %s bound to event counter %d, activated\n", e->name, s->engine_id);
        }
        return PAPI_OK;
    }
    int index;
    if (mpit_backend()->pvar_index(e->info.name, e->info.cls, &index) != MPIT_OK) {
        if (state == MPIT_MPI_NOT_STARTED) return *waits = 1, PAPI_OK;
        snprintf(why, why_len, "MPI_T no longer has the variable %s", e->info.name);
        return PAPI_ENOEVNT;
    }
    if (mpit_backend()->pvar_collecting && !mpit_backend()->pvar_collecting(e->info.name)) {
        snprintf(why, why_len,
                 "%s is not collected: Open MPI counts an SPC only when it is attached before MPI_Init "
                 "(add the event before MPI_Init, or set OMPI_MCA_mpi_spc_attach=all)",
                 e->info.name);
        return PAPI_ECMP;
    }
    if (!cs->session) {
        snprintf(why, why_len, "the MPI refused an MPI_T session (MPI_T_pvar_session_create failed)");
        return PAPI_ESYS;
    }
    err = mpit_backend()->handle_alloc(cs->session, index, e->parsed.comm, &s->handle, &s->count);
    if (err == MPIT_ERR_NO_OBJECT && state == MPIT_MPI_NOT_STARTED) return *waits = 1, PAPI_OK;
    if (err == MPIT_ERR_NO_OBJECT && mpit_backend()->mpi_state() == MPIT_MPI_SESSION) {
        snprintf(why, why_len,
                 "%s is bound to a communicator, and MPI_COMM_%s exists only once MPI_Init has run: this "
                 "program runs MPI through MPI_Session_init alone",
                 e->name, e->parsed.comm == MPIT_COMM_SELF ? "SELF" : "WORLD");
        return PAPI_ECMP;
    }
    if (err != MPIT_OK) {
        snprintf(why, why_len, "the MPI refused a handle for %s (MPI_T_pvar_handle_alloc failed)", e->name);
        return PAPI_ESYS;
    }
    if (s->count < 1) s->count = 1;
    if (e->parsed.elem >= s->count) {
        if (e->parsed.peer >= 0)
            snprintf(why, why_len, "%s: MPI_COMM_WORLD has %d ranks (0 to %d); :peer=%d is out of range",
                     e->parsed.base, s->count, s->count - 1, e->parsed.peer);
        else
            snprintf(why, why_len, "%s has %d elements; :elem=%d is out of range", e->info.name, s->count,
                     e->parsed.elem);
        s->handle = NULL;
        return PAPI_EINVAL;
    }
    SUBDBG("mpit: %s bound to pvar index %d (comm=%s, %d elements)\n", e->name, index,
           e->parsed.comm == MPIT_COMM_SELF ? "self" : "world", s->count);
    s->dtype = e->info.dtype;
    s->elem = e->parsed.elem;
    s->continuous = e->info.continuous;
    /* A continuous high-water mark can only be shared by reading it, and an
     * MPI may reset it on every read: all readers pool what they see. */
    s->shared_key = s->read_kind == MPIT_READ_HIGH && s->continuous && !s->is_float ? index : -1;
    size_t width = mpit_dtype_size(s->dtype);
    s->raw = calloc((size_t)s->count, width ? width : 8);
    if (!s->raw) return PAPI_ENOMEM;
    if (!readable(s)) {
        snprintf(why, why_len,
                 "the MPI binds %s to MPI_COMM_%s but cannot read it there (MPI_T_pvar_read failed)%s",
                 e->name, e->parsed.comm == MPIT_COMM_SELF ? "SELF" : "WORLD",
                 e->parsed.comm == MPIT_COMM_SELF ? "; the variable without :comm=self may be read" : "");
        s->handle = NULL;
        return PAPI_ECMP;
    }
    return e->mended ? bind_mend(cs, s, e, why, why_len) : PAPI_OK;
}

/* Allocates the session and binds every slot.  Slots that cannot be bound
 * before MPI_Init stay unbound until MPI runs.  tolerant (the first read after
 * MPI_Init of a set started before it, where no error can be returned): a
 * slot that cannot be bound is said on stderr and reads 0; the others count. */
static int bind(mpit_control_t *cs, int tolerant, char *why, int why_len)
{
    int state = mpit_backend()->mpi_state();
    if (state == MPIT_MPI_FINALIZED) {
        snprintf(why, why_len, "MPI is finalized; MPI_T variables can no longer be read");
        return PAPI_ENOTRUN;
    }
    unbind(cs);
    int mpit_deferred = mpit_catalog_mpit_deferred(); /* no session: every slot waits */
    if (!mpit_deferred && !mpit_catalog_settle()) mpit_catalog_rescan();
    if (!mpit_deferred && mpit_backend()->session_create(&cs->session) != MPIT_OK) {
        snprintf(why, why_len, "MPI_T_pvar_session_create failed");
        return PAPI_ESYS;
    }
    int deferred = 0;
    for (int i = 0; i < cs->num; i++) {
        mpit_slot_t *s = &cs->slot[i];
        int waits;
        int err = bind_slot(cs, s, state, &waits, why, why_len);
        if (waits) {
            SUBDBG("mpit: %s waits for MPI_Init to be bound\n", mpit_catalog_get(s->code)->name);
        }
        if (waits)
            deferred = 1;
        else if (err != PAPI_OK && !tolerant) {
            cs->failed = i;
            return err;
        } else if (err != PAPI_OK) {
            mpit_warn("%s: %s; it reads 0", mpit_catalog_get(s->code)->name, why);
            free(s->raw);
            s->raw = NULL;
            unbind_mend(s);
            s->handle = NULL;
            s->source = MPIT_SOURCE_NONE;
        }
    }
    cs->bound = 1;
    cs->bound_before_mpi = deferred || state == MPIT_MPI_NOT_STARTED;
    return PAPI_OK;
}

int mpit_control_update(mpit_control_t *cs, const int *codes, int num, char *why, int why_len)
{
    if (num > MPIT_MAX_EVENTS) {
        snprintf(why, why_len, "an mpit event set holds at most %d events", MPIT_MAX_EVENTS);
        return PAPI_ECNFLCT;
    }
    unbind(cs);
    memset(cs->slot, 0, sizeof cs->slot);
    cs->num = num;
    cs->failed = -1;
    cs->read_failed = 0;
    for (int i = 0; i < num; i++) {
        cs->slot[i].code = codes[i];
        cs->slot[i].shared_key = -1;
        cs->slot[i].watermark_cell = -1;
        int err = check_entry(codes[i], why, why_len);
        if (err != PAPI_OK) {
            cs->failed = i;
            return err;
        }
    }
    /* Like opening a hardware counter at add time: a variable MPI cannot
     * bind is reported by PAPI_add_event, not later by PAPI_start. */
    if (num > 0 && mpit_mpi_live(mpit_backend()->mpi_state())) {
        int err = bind(cs, 0, why, why_len);
        if (err != PAPI_OK) {
            unbind(cs);
            return err;
        }
    }
    return PAPI_OK;
}

/* An MPI timer's absolute value is no elapsed time (MPICH's reads about
 * -1.8e9 s when it appears with MPI_Init): a timer counts from its first
 * read after MPI_Init, never from 0. */
static int counts_from_first_read(const mpit_slot_t *s)
{
    return s->dtype == MPIT_TYPE_DOUBLE && s->read_kind == MPIT_READ_DELTA;
}

/* Establishes the reference point of slot i (start, reset, and a slot bound
 * late).  from_zero: the slot's source did not exist when the set started
 * (it came with MPI_Init), so all it has counted since is counted. */
static void reference_slot(mpit_control_t *cs, int i, int from_zero, uint64_t *now)
{
    mpit_slot_t *s = &cs->slot[i];
    mpit_value_t v = {0};
    cs->values[i] = 0;
    s->have_extreme = 0;
    if (from_zero) {
        s->start = v;
        if (counts_from_first_read(s) && s->handle) mpit_read_slot(s, &s->start, now);
        if (s->shared_key >= 0) s->watermark_cell = mpit_watermark_watch(s->shared_key);
        return;
    }
    if (s->source == MPIT_SOURCE_EVENT && s->engine_id >= 0) {
        /* engine high-water marks restart from the current depth */
        if (s->read_kind != MPIT_READ_DELTA)
            mpit_events_rearm(s->engine_id);
        else if (mpit_read_slot(s, &v, now) == MPIT_OK)
            s->start = v;
        return;
    }
    if (!s->handle) return;
    if (s->read_kind == MPIT_READ_HIGH || s->read_kind == MPIT_READ_LOW) {
        /* A watermark that can be reset counts from now; a continuous one
         * is read once so that an MPI that resets on read starts afresh. */
        if (!s->continuous)
            mpit_backend()->handle_reset(s->handle);
        else if (mpit_read_slot(s, &v, now) == MPIT_OK && s->shared_key >= 0) {
            mpit_watermark_unwatch(s->watermark_cell);
            mpit_watermark_offer(s->shared_key, v.i); /* others' maximum, not ours */
            s->watermark_cell = mpit_watermark_watch(s->shared_key);
        }
        return;
    }
    if (mpit_read_slot(s, &v, now) == MPIT_OK) s->start = v;
}

static void take_reference(mpit_control_t *cs)
{
    uint64_t now = 0;
    for (int i = 0; i < cs->num; i++) reference_slot(cs, i, 0, &now);
}

int mpit_control_start(mpit_control_t *cs, char *why, int why_len)
{
    cs->failed = -1;
    if (gone()) {
        /* A tool's thread born after MPI_Finalize (Score-P makes it a
         * location and starts its set, and ends the run on any error) must
         * be able to start.  MPI counts nothing once finalized and holds no
         * queue: from here on every event of the set reads 0, the truth. */
        static atomic_int said;
        if (!atomic_exchange(&said, 1))
            mpit_warn(
                "an event set started after MPI_Finalize: MPI counts nothing any more, its events read 0");
        memset(cs->values, 0, sizeof cs->values);
        cs->running = 1;
        return PAPI_OK;
    }
    if (!cs->bound || (cs->bound_before_mpi && mpit_mpi_live(mpit_backend()->mpi_state()))) {
        int err = bind(cs, 0, why, why_len);
        if (err != PAPI_OK) {
            unbind(cs);
            return err;
        }
    }
    for (int i = 0; i < cs->num; i++)
        if (cs->slot[i].handle) mpit_backend()->handle_start(cs->slot[i].handle);
    take_reference(cs);
    SUBDBG("mpit: set of %d events started%s\n", cs->num, cs->bound_before_mpi ? " before MPI_Init" : "");
    mpit_read_plan(cs);
    cs->running = 1;
    /* it waits for papi_mpit_after_init; when every cell is taken it catches
     * up at its first call after MPI_Init instead */
    if (cs->bound_before_mpi && !cs->waiting_cell) cs->waiting_cell = mpit_waiting_add(cs);
    return PAPI_OK;
}

/* A slot bound before MPI_Init whose variable MPI_Init replaced (Open MPI
 * closes and reopens components): bind it again, keeping what it counted. */
static int rebind_stale(mpit_control_t *cs, int i, char *why, int why_len)
{
    mpit_slot_t *s = &cs->slot[i];
    mpit_value_t carried = {0};
    if (s->read_kind == MPIT_READ_DELTA) {
        if (s->is_float)
            memcpy(&carried.d, &cs->values[i], sizeof carried.d);
        else
            carried.i = cs->values[i];
    }
    free(s->raw);
    s->raw = NULL;
    s->handle = NULL; /* freed with the session */
    unbind_mend(s);
    int waits;
    int err = bind_slot(cs, s, MPIT_MPI_RUNNING, &waits, why, why_len);
    if (err != PAPI_OK) return err;
    uint64_t now = 0;
    mpit_value_t v;
    mpit_backend()->handle_start(s->handle);
    if (mpit_read_slot(s, &v, &now) != MPIT_OK) return PAPI_ESYS;
    if (s->is_float)
        s->start.d = v.d - carried.d;
    else
        s->start.i = v.i - carried.i;
    return PAPI_OK;
}

/* The set caught up, or is cleaned up: no longer waiting (any thread). */
static void forget_waiting(mpit_control_t *cs)
{
    int cell = cs->waiting_cell;
    cs->waiting_cell = 0;
    mpit_waiting_drop(cell, cs);
}

/* Slow path, once: the set was started before MPI_Init and MPI now runs.
 * What was bound keeps counting from PAPI_start; variables and events that
 * came with MPI_Init count from their appearance. */
static void catch_up_after_init(mpit_control_t *cs)
{
    char why[MPIT_WHY_LEN];
    uint64_t now = 0;
    if (!mpit_mpi_live(mpit_backend()->mpi_state())) return;
    cs->bound_before_mpi = 0; /* once */
    forget_waiting(cs);
    mpit_catalog_settle();
    if (!cs->session && mpit_backend()->session_create(&cs->session) != MPIT_OK)
        cs->session = NULL; /* the variables below then say why they read 0 */
    for (int i = 0; i < cs->num; i++) {
        mpit_slot_t *s = &cs->slot[i];
        int err = PAPI_OK;
        if (s->source == MPIT_SOURCE_EVENT) continue;
        if (s->source == MPIT_SOURCE_PVAR && s->handle) {
            mpit_value_t v;
            /* bound before MPI_Init: what MPI_Init chose (a component, a
             * release's defect) may make it unreadable now */
            err = check_entry(s->code, why, sizeof why);
            if (err == PAPI_OK && mpit_read_slot(s, &v, &now) == MPIT_OK) {
                if (counts_from_first_read(s)) s->start = v;
                continue;
            }
            if (err == PAPI_OK) err = rebind_stale(cs, i, why, sizeof why);
        } else {
            int waits;
            err = bind_slot(cs, s, MPIT_MPI_RUNNING, &waits, why, sizeof why);
            if (err == PAPI_OK) {
                if (s->handle) mpit_backend()->handle_start(s->handle);
                reference_slot(cs, i, 1, &now);
            }
        }
        if (err != PAPI_OK) {
            /* refused, as PAPI_add_event would have refused it once MPI
             * ran, on stderr: no read can say it (PAPI_stop reads first, and
             * a set whose read fails can never be stopped); the others count */
            mpit_warn("%s: cannot count after MPI_Init: %s; it reads 0", mpit_catalog_get(s->code)->name,
                      why);
            free(s->raw);
            s->raw = NULL;
            unbind_mend(s);
            s->handle = NULL;
            s->source = MPIT_SOURCE_NONE;
        }
    }
    mpit_read_plan(cs);
}

/* The first call of any kind after MPI_Init binds what came with it; never
 * from a signal handler (binding allocates and calls MPI). */
static void catch_up(mpit_control_t *cs)
{
    if (cs->bound_before_mpi && cs->running && !gone() && !mpit_guard_in_signal()) catch_up_after_init(cs);
}

void mpit_control_catch_up(mpit_control_t *cs)
{
    if (cs->bound_before_mpi) catch_up(cs);
}

/* A read that failed for one variable said so by its code only (no I/O
 * in a read): the next call outside the read names it. */
static void say_read_failed(mpit_control_t *cs)
{
    if (!cs->read_failed) return;
    const mpit_entry_t *e = mpit_catalog_get(cs->slot[cs->read_failed - 1].code);
    mpit_warn("%s: MPI_T_pvar_read failed: it kept its last value; the other events of the set were read",
              e ? e->name : "an event");
    cs->read_failed = 0;
}

int mpit_control_stop(mpit_control_t *cs)
{
    catch_up(cs);
    say_read_failed(cs);
    cs->running = 0;
    cs->fresh = 0;
    if (gone()) return PAPI_OK;
    for (int i = 0; i < cs->num; i++)
        if (cs->slot[i].handle) mpit_backend()->handle_stop(cs->slot[i].handle);
    return PAPI_OK;
}

int mpit_control_reset(mpit_control_t *cs)
{
    if (gone()) {
        memset(cs->values, 0, sizeof cs->values);
        return PAPI_OK;
    }
    catch_up(cs);
    say_read_failed(cs);
    /* after a read (TAU's read + reset, PAPI_accum): from that read's values,
     * with no call into MPI */
    if (!mpit_read_reset_from_last(cs)) {
        take_reference(cs);
        mpit_read_take_starts(cs);
    }
    cs->fresh = 0;
    return PAPI_OK;
}

void mpit_control_cleanup(mpit_control_t *cs)
{
    say_read_failed(cs);
    forget_waiting(cs);
    unbind(cs); /* the backend frees no MPI_T state once MPI is finalized */
    cs->num = 0;
}
