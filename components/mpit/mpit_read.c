/*
 * The read path of an event set: what is decided when the set starts (the
 * plan: which handles, which conversion, which delta), and what a read does
 * with it.  Runs inside signal handlers (PAPI's software overflow): no lock,
 * allocation or I/O, and one call into the backend per set.
 */
#include "mpit_read.h"

#include <stdint.h>
#include <string.h>

#include "mpit_events.h"
#include "mpit_loader.h"
#include "mpit_metrics.h"
#include "mpit_semantics.h"
#include "mpit_watermarks.h"

/* How a read turns a slot's source into its PAPI value. */
enum mpit_read_op {
    OP_NONE,        /* not bound: keeps its last value */
    OP_I64_DELTA,   /* one 64-bit integer, counted since start */
    OP_I64_NOW,     /* one 64-bit integer, its current value */
    OP_U32_DELTA,   /* one unsigned int, counted since start */
    OP_U32_NOW,     /* one unsigned int, its current value */
    OP_PVAR,        /* anything else a variable holds: arrays, doubles, scales, watermarks */
    OP_EVENT_DELTA, /* an event counter, counted since start */
    OP_EVENT        /* an event counter read as it is (levels, maxima) */
};

/* A variable's value in the slot's unit: scaled, and a double made an
 * integer where the slot is not FP64 (portable time metrics are integer ns,
 * whatever the MPI keeps: MPICH's timers are seconds in doubles). */
static mpit_value_t mpit_value_scaled(const mpit_slot_t *s, mpit_value_t x)
{
    if (s->dtype == MPIT_TYPE_DOUBLE && !s->is_float) {
        double d = x.d * (double)s->scale;
        x.i = (int64_t)(d < 0 ? d - 0.5 : d + 0.5);
    } else if (s->scale != 1) {
        if (s->is_float)
            x.d *= (double)s->scale;
        else
            x.i *= s->scale;
    }
    return x;
}

/* A watermark that follows a level off by a constant from the queue it
 * counts (Open MPI 4.1: a message that arrived inside MPI_Init, before the
 * SPCs started, is never added to the level but is subtracted when
 * received): the watermark plus (length - level), and never below the length
 * now.  The level and the length are read right after the watermark. */
static mpit_value_t mended(const mpit_slot_t *s, mpit_value_t w)
{
    int64_t part[2];
    for (int k = 0; k < 2; k++) {
        if (mpit_backend()->handle_read(s->mend[k], s->mend_raw[k]) != MPIT_OK) return w;
        part[k] = mpit_value_extract(s->mend_raw[k], s->mend_dtype[k], s->mend_count[k], -1).i;
    }
    int64_t level = part[0], length = part[1], peak = w.i + (length - level);
    w.i = peak > length ? peak : length;
    return w;
}

/* now_ns: the event clock, fetched at most once per PAPI_read. */
int mpit_read_slot(mpit_slot_t *s, mpit_value_t *v, uint64_t *now_ns)
{
    if (s->source == MPIT_SOURCE_EVENT) {
        if (s->engine_id < 0) return MPIT_ERR_NOT_FOUND;
        if (*now_ns == 0) *now_ns = mpit_events_now();
        v->i = mpit_events_read(s->engine_id, *now_ns);
        return MPIT_OK;
    }
    if (!s->handle) return MPIT_ERR_NOT_FOUND;
    int err = mpit_backend()->handle_read(s->handle, s->raw);
    if (err != MPIT_OK) return err;
    *v = mpit_value_scaled(s, mpit_value_extract(s->raw, s->dtype, s->count, s->elem));
    if (s->mend[0]) *v = mended(s, *v);
    return MPIT_OK;
}

static long long as_papi(const mpit_slot_t *s, mpit_value_t v)
{
    long long out;
    if (s->is_float)
        memcpy(&out, &v.d, sizeof out); /* PAPI_DATATYPE_FP64 */
    else
        out = v.i;
    return out;
}

static void update_value(mpit_control_t *cs, int i, mpit_value_t v)
{
    mpit_slot_t *s = &cs->slot[i];
    mpit_value_t r = v;
    switch (s->read_kind) {
    case MPIT_READ_DELTA:
        if (s->is_float)
            r.d = v.d - s->start.d;
        else
            r.i = v.i - s->start.i;
        break;
    case MPIT_READ_HIGH:
        if (s->shared_key >= 0 && s->watermark_cell >= 0) {
            mpit_watermark_offer(s->shared_key, v.i);
            int64_t max = mpit_watermark_max(s->watermark_cell);
            r.i = max == INT64_MIN ? 0 : max;
            break;
        }
        /* fall through */
    case MPIT_READ_LOW: {
        int high = s->read_kind == MPIT_READ_HIGH;
        int better = s->is_float ? (high ? v.d > s->extreme.d : v.d < s->extreme.d)
                                 : (high ? v.i > s->extreme.i : v.i < s->extreme.i);
        if (!s->have_extreme || better) s->extreme = v;
        s->have_extreme = 1;
        r = s->extreme;
        break;
    }
    default: break;
    }
    cs->values[i] = as_papi(s, r);
}

static int choose_op(const mpit_slot_t *s)
{
    if (s->source == MPIT_SOURCE_EVENT)
        return s->engine_id < 0 ? OP_NONE : s->read_kind == MPIT_READ_DELTA ? OP_EVENT_DELTA : OP_EVENT;
    if (s->source != MPIT_SOURCE_PVAR || !s->handle) return OP_NONE;
    int simple = s->count == 1 && s->elem <= 0 && s->scale == 1 && !s->is_float &&
                 s->dtype != MPIT_TYPE_DOUBLE &&
                 (s->read_kind == MPIT_READ_DELTA || s->read_kind == MPIT_READ_CURRENT);
    size_t width = mpit_dtype_size(s->dtype);
    if (simple && width == 8) return s->read_kind == MPIT_READ_DELTA ? OP_I64_DELTA : OP_I64_NOW;
    if (simple && s->dtype == MPIT_TYPE_UNSIGNED)
        return s->read_kind == MPIT_READ_DELTA ? OP_U32_DELTA : OP_U32_NOW;
    return OP_PVAR;
}

/* Counters and plain 64-bit values are read straight into counter_last:
 * the loop that makes their values then runs over two contiguous arrays. */
static void plan_pvar(mpit_control_t *cs, int i, int counter)
{
    int k = cs->num_pvars++;
    cs->pvar_handles[k] = cs->slot[i].handle;
    cs->pvar_bufs[k] = counter ? (void *)&cs->counter_last[k] : cs->slot[i].raw;
    cs->pvar_slot[k] = (unsigned char)i;
}

/* Ops whose value the tight loop makes (mpit_read_all): the variable is
 * read straight into an 8-byte slot of counter_last, zeroed at plan time.
 * An unsigned int fills its low half, so it joins only where that half is
 * the one MPI writes first (little-endian). */
#define U32_IN_SLOT (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
static int tight_delta(int op) { return op == OP_I64_DELTA || (U32_IN_SLOT && op == OP_U32_DELTA); }
static int tight_now(int op) { return op == OP_I64_NOW || (U32_IN_SLOT && op == OP_U32_NOW); }

static void plan_tight(mpit_control_t *cs, int i, int64_t start)
{
    cs->counter_start[cs->num_pvars] = start;
    cs->counter_last[cs->num_pvars] = 0;
    plan_pvar(cs, i, 1);
}

/* Counters first, then plain current values (both made by the tight loop),
 * then the other variables. */
void mpit_read_plan(mpit_control_t *cs)
{
    cs->num_pvars = 0;
    cs->needs_now = 0;
    cs->fresh = 0;
    for (int i = 0; i < cs->num; i++) {
        mpit_slot_t *s = &cs->slot[i];
        s->op = choose_op(s);
        s->needs_now = s->op >= OP_EVENT_DELTA && mpit_events_needs_now(s->engine_id);
        cs->needs_now |= s->needs_now;
        if (tight_delta(s->op)) plan_tight(cs, i, s->start.i);
    }
    cs->num_counters = cs->num_pvars;
    for (int i = 0; i < cs->num; i++)
        if (tight_now(cs->slot[i].op)) plan_tight(cs, i, 0);
    cs->num_plain = cs->num_pvars;
    for (int i = 0; i < cs->num; i++) {
        int op = cs->slot[i].op;
        if (op >= OP_I64_DELTA && op <= OP_PVAR && !tight_delta(op) && !tight_now(op)) plan_pvar(cs, i, 0);
    }
    mpit_read_unplan(cs);
    if (cs->num_pvars)
        cs->batch = mpit_backend()->batch_create(cs->pvar_handles, cs->pvar_bufs, cs->num_pvars);
    cs->batch_read = mpit_backend()->batch_read;
    if (!cs->batch)
        cs->num_pvars = cs->num_counters = cs->num_plain = 0; /* out of memory: they keep their values */
}

void mpit_read_unplan(mpit_control_t *cs)
{
    if (cs->batch && mpit_backend()) mpit_backend()->batch_free(cs->batch);
    cs->batch = NULL;
}

void mpit_read_take_starts(mpit_control_t *cs)
{
    for (int k = 0; k < cs->num_counters; k++) cs->counter_start[k] = cs->slot[cs->pvar_slot[k]].start.i;
    cs->fresh = 0;
}

/* The value of variable slot i from its freshly read buffer. */
static void apply_pvar(mpit_control_t *cs, int i)
{
    mpit_slot_t *s = &cs->slot[i];
    int64_t v;
    switch (s->op) {
    case OP_U32_DELTA:
        v = *(const unsigned *)s->raw;
        s->last.i = v;
        cs->values[i] = v - s->start.i;
        return;
    case OP_U32_NOW: cs->values[i] = s->last.i = *(const unsigned *)s->raw; return;
    default: {
        mpit_value_t x = mpit_value_scaled(s, mpit_value_extract(s->raw, s->dtype, s->count, s->elem));
        if (s->mend[0]) x = mended(s, x);
        s->last = x;
        update_value(cs, i, x);
    }
    }
}

void mpit_read_others(mpit_control_t *cs, int first, int got)
{
    for (int k = first; k < got; k++) apply_pvar(cs, cs->pvar_slot[k]);
    if (cs->num_pvars < cs->num) { /* event counters: atomics, no MPI call unless a counter needs the clock */
        uint64_t now = cs->needs_now ? mpit_events_now() : 0;
        for (int i = 0; i < cs->num; i++) {
            mpit_slot_t *s = &cs->slot[i];
            if (s->op < OP_EVENT_DELTA) continue;
            mpit_value_t v = {.i = mpit_events_read(s->engine_id, now)};
            s->last = v;
            if (s->op == OP_EVENT_DELTA)
                cs->values[i] = v.i - s->start.i;
            else
                update_value(cs, i, v);
        }
    }
}

int mpit_read_partial(mpit_control_t *cs, int rc, uint64_t failed)
{
    cs->fresh = 0;
    if (rc == MPIT_ERR_GONE) failed = ~(uint64_t)0; /* MPI tearing down: the last values of them all */
    for (int k = 0; k < cs->num_pvars; k++) {
        int i = cs->pvar_slot[k];
        if (failed >> k & 1) {
            if (!cs->read_failed && rc != MPIT_ERR_GONE) cs->read_failed = 1 + i;
            continue;
        }
        if (k < cs->num_plain)
            cs->values[i] = cs->counter_last[k] - cs->counter_start[k];
        else
            apply_pvar(cs, i);
    }
    mpit_read_others(cs, cs->num_pvars, cs->num_pvars); /* the event counters */
    return PAPI_OK;
}

int mpit_read_reset_from_last(mpit_control_t *cs)
{
    if (!cs->fresh) return 0;
    for (int k = 0; k < cs->num_counters; k++) {
        cs->counter_start[k] = cs->counter_last[k];
        cs->values[cs->pvar_slot[k]] = 0;
    }
    for (int i = 0; i < cs->num; i++) {
        mpit_slot_t *s = &cs->slot[i];
        if (s->op == OP_NONE || tight_delta(s->op)) continue;
        cs->values[i] = 0;
        switch (s->read_kind) {
        case MPIT_READ_DELTA: s->start = s->last; break;
        case MPIT_READ_HIGH:
        case MPIT_READ_LOW:
            s->have_extreme = 0;
            if (s->source == MPIT_SOURCE_EVENT)
                mpit_events_rearm(s->engine_id);
            else if (s->shared_key >= 0) {
                /* the read just offered its value to the pool: watch afresh */
                mpit_watermark_unwatch(s->watermark_cell);
                s->watermark_cell = mpit_watermark_watch(s->shared_key);
            } else if (!s->continuous) {
                mpit_backend()->handle_reset(s->handle);
            }
            break;
        default: break;
        }
    }
    return 1;
}
