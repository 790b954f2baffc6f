/*
 * Reading the engine's counters, lock-free and concurrently with dispatch:
 * their values (mpit_engine_read), restarts of extrema, descriptions, and
 * the ids of counters by name or by event type and element.
 */
#include <stdatomic.h>
#include <string.h>
#include "mpit_engine_internal.h"

#define READ_TRIES 1024 /* snapshot attempts of a LEVEL integral */

/* ------------------------------------------------------------------ read */

static int64_t level_time(rstate_t *r, uint64_t now)
{
    for (int i = 0; i < READ_TRIES; i++) {
        uint64_t e1 = atomic_load(&r->wend);
        int64_t d = atomic_load(&r->depth);
        uint64_t si = atomic_load(&r->sum_ins);
        uint64_t sr = atomic_load(&r->sum_rem);
        if (atomic_load(&r->wbeg) == e1) {
            int64_t v = (int64_t)(sr - si + (uint64_t)d * now);
            if (v < 0) v = 0; /* now earlier than a queued item's insert */
            atomic_store_explicit(&r->last_time, (uint64_t)v, memory_order_relaxed);
            return v;
        }
    }
    /* Writers never paused: the last consistent value rather than a torn one. */
    return (int64_t)atomic_load_explicit(&r->last_time, memory_order_relaxed);
}

static int64_t unbias(uint64_t v, int is_signed)
{
    if (v == 0) return 0; /* nothing seen */
    return is_signed ? (int64_t)(v ^ BIAS) : (int64_t)v;
}

/* Events of reference ref since the rule started (COUNT, LEVEL by count). */
static uint64_t events_since(rstate_t *r, int ref)
{
    uint64_t base = atomic_load_explicit(&r->base[ref], memory_order_relaxed);
    return atomic_load_explicit(r->src[ref], memory_order_relaxed) - base;
}

static int64_t field_read(rstate_t *r, int f, uint64_t now)
{
    uint64_t n = r->src[0] ? events_since(r, 0) : atomic_load_explicit(&r->n, memory_order_relaxed);
    uint64_t v;

    switch (f) {
    case F_VALUE:
        if (r->row->kind == MPIT_RULE_MAX)
            return unbias(atomic_load_explicit(&r->max, memory_order_relaxed), r->val_signed);
        if (r->row->kind == MPIT_RULE_SUM)
            return (int64_t)atomic_load_explicit(&r->sum, memory_order_relaxed);
        return (int64_t)n;
    case F_ARRIVALS:
    case F_COUNT:
    case F_INSERTS: return (int64_t)n;
    case F_OOS:
    case F_TOTAL: return (int64_t)atomic_load_explicit(&r->sum, memory_order_relaxed);
    case F_MIN:
        v = atomic_load_explicit(&r->min, memory_order_relaxed);
        return v == UINT64_MAX ? 0 : (int64_t)v;
    case F_MAX: return (int64_t)atomic_load_explicit(&r->max, memory_order_relaxed);
    case F_MEAN: return n ? (int64_t)(atomic_load_explicit(&r->sum, memory_order_relaxed) / n) : 0;
    case F_UNMATCHED: return (int64_t)atomic_load(&r->unmatched);
    case F_REMOVES: return (int64_t)(r->src[1] ? events_since(r, 1) : atomic_load(&r->removes));
    case F_DEPTH: {
        int64_t d = atomic_load(&r->depth);
        return d > 0 ? d : 0;
    }
    case F_HWM: return (int64_t)atomic_load(&r->hwm);
    case F_TIME: return level_time(r, now);
    case F_LMEAN: return n ? level_time(r, now) / (int64_t)n : 0;
    }
    return 0;
}

static int raw_decode(const mpit_engine_t *e, int id, int *ev, int *what, int *elem)
{
    int off;

    if (id < RAW_BASE) return -1;
    off = id - RAW_BASE;
    *ev = off / RAW_STRIDE;
    off %= RAW_STRIDE;
    if (*ev >= e->nev || !e->ev[*ev].described) return -1;
    if (off == 0) {
        *what = MPIT_RAW_COUNT;
        *elem = -1;
        return 0;
    }
    *what = (off - 1) % 2 ? MPIT_RAW_MAX : MPIT_RAW_SUM;
    *elem = (off - 1) / 2;
    return *elem < e->ev[*ev].nelem ? 0 : -1;
}

int64_t mpit_engine_read(mpit_engine_t *e, int id, uint64_t now)
{
    int ev, what, elem;

    if (!e) return 0;
    if (raw_decode(e, id, &ev, &what, &elem) == 0) {
        evstate_t *E = &e->ev[ev];
        if (what == MPIT_RAW_COUNT) return (int64_t)atomic_load_explicit(&E->count, memory_order_relaxed);
        if (what == MPIT_RAW_SUM) return (int64_t)atomic_load_explicit(&E->esum[elem], memory_order_relaxed);
        return unbias(atomic_load_explicit(&E->emax[elem], memory_order_relaxed),
                      E->kind[elem] == MPIT_ELEM_SIGNED);
    }
    if (id < 0 || id >= e->nctr) return 0;
    if (e->ctr[id].field == F_DROPPED)
        return (int64_t)atomic_load_explicit(&e->dropped, memory_order_relaxed);
    return field_read(e->ctr[id].r, e->ctr[id].field, now);
}

int mpit_engine_needs_now(const mpit_engine_t *e, int id)
{
    if (!e || id < 0 || id >= e->nctr) return 0;
    return e->ctr[id].field == F_TIME || e->ctr[id].field == F_LMEAN;
}

int mpit_engine_group_read(const mpit_engine_t *e, int id, uint64_t *counts, int max, uint64_t *other)
{
    if (!e || id < 0 || id >= e->nctr || !e->ctr[id].r || !e->ctr[id].r->groups) return -1;
    rstate_t *r = e->ctr[id].r;
    if (max > MPIT_GROUP_SLOTS) max = MPIT_GROUP_SLOTS;
    for (int i = 0; i < max; i++) counts[i] = atomic_load_explicit(&r->groups[i], memory_order_relaxed);
    uint64_t beyond = 0; /* slots the caller did not ask for are "other" to it */
    for (int i = max; i < MPIT_GROUP_SLOTS; i++)
        beyond += atomic_load_explicit(&r->groups[i], memory_order_relaxed);
    *other = atomic_load_explicit(&r->unmatched, memory_order_relaxed) + beyond;
    return max;
}

int mpit_engine_rearm(mpit_engine_t *e, int id)
{
    int ev, what, elem;
    rstate_t *r;

    if (!e) return -1;
    if (raw_decode(e, id, &ev, &what, &elem) == 0) {
        if (what != MPIT_RAW_MAX) return -1;
        atomic_store(&e->ev[ev].emax[elem], 0);
        return 0;
    }
    if (id < 0 || id >= e->nctr || !(r = e->ctr[id].r)) return -1;
    switch (e->ctr[id].field) {
    case F_HWM: {
        int64_t d = atomic_load(&r->depth);
        atomic_store(&r->hwm, d > 0 ? (uint64_t)d : 0);
        return 0;
    }
    case F_MIN: atomic_store(&r->min, UINT64_MAX); return 0;
    case F_MAX: atomic_store(&r->max, 0); return 0;
    case F_VALUE:
        if (r->row->kind != MPIT_RULE_MAX) return -1;
        atomic_store(&r->max, 0);
        return 0;
    }
    return -1;
}

int mpit_engine_counter_info(const mpit_engine_t *e, int id, mpit_counter_info_t *info)
{
    static const char *raw_desc[] = {
        "Occurrences of the event type",
        "Sum of the element over events since it was first requested",
        "Largest value of the element since it was first requested",
    };
    int ev, what, elem;

    if (!e || !info) return -1;
    if (raw_decode(e, id, &ev, &what, &elem) == 0) {
        info->name = e->ev[ev].raw_name[what == MPIT_RAW_COUNT ? 0
                                        : what == MPIT_RAW_SUM ? 1 + 2 * elem
                                                               : 2 + 2 * elem];
        info->desc = raw_desc[what];
        info->units = what == MPIT_RAW_COUNT ? "events" : "element units";
        info->value_kind = what == MPIT_RAW_MAX ? MPIT_VALUE_ABSOLUTE : MPIT_VALUE_RUNNING;
        return 0;
    }
    if (id < 0 || id >= e->nctr) return -1;
    info->name = e->ctr[id].name;
    info->desc = e->ctr[id].desc;
    info->units = e->ctr[id].units;
    info->value_kind = e->ctr[id].vkind;
    return 0;
}

int mpit_engine_raw_counter(mpit_engine_t *e, int ev, int what, int elem)
{
    evstate_t *E;

    if (!e || ev < 0 || ev >= e->nev || !e->ev[ev].described) return -1;
    E = &e->ev[ev];
    if (what == MPIT_RAW_COUNT) return RAW_BASE + ev * RAW_STRIDE;
    if ((what != MPIT_RAW_SUM && what != MPIT_RAW_MAX) || elem < 0 || elem >= E->nelem ||
        E->kind[elem] == MPIT_ELEM_OTHER || E->noread)
        return -1;
    atomic_fetch_or(&E->track, 1ull << elem);
    engine_refresh_plan(e, ev);
    return RAW_BASE + ev * RAW_STRIDE + (what == MPIT_RAW_SUM ? 1 : 2) + 2 * elem;
}

const char *mpit_engine_summable_element(const mpit_engine_t *e, int ev, int elem)
{
    const evstate_t *E;

    if (!e || ev < 0 || ev >= e->nev || !e->ev[ev].described) return NULL;
    E = &e->ev[ev];
    if (elem < 0 || elem >= E->nelem || E->kind[elem] == MPIT_ELEM_OTHER || E->noread) return NULL;
    return E->elem[elem];
}

/* An element named by its position ("0", "1", ...) whatever its name: the
 * name an MPI gives it may change between versions, its place does not. */
static int element_position(const char *text)
{
    int k = 0;
    if (!*text) return -1;
    for (; *text; text++) {
        if (*text < '0' || *text > '9' || k > MAX_ELEMS) return -1;
        k = k * 10 + (*text - '0');
    }
    return k;
}

int mpit_engine_find_counter(mpit_engine_t *e, const char *name)
{
    const char *q;

    if (!e || !name) return -1;
    for (int i = 0; i < e->nctr; i++)
        if (!strcmp(e->ctr[i].name, name)) return i;
    q = strstr(name, ":sum=");
    if (!q) q = strstr(name, ":max=");
    for (int i = 0; i < e->nev; i++) {
        evstate_t *E = &e->ev[i];
        if (!E->described) continue;
        if (!q && !strcmp(E->name, name)) return mpit_engine_raw_counter(e, i, MPIT_RAW_COUNT, -1);
        if (q && strlen(E->name) == (size_t)(q - name) && !strncmp(E->name, name, (size_t)(q - name)))
            for (int k = 0; k < E->nelem; k++)
                if (!strcmp(E->elem[k], q + 5) || element_position(q + 5) == k)
                    return mpit_engine_raw_counter(e, i, q[1] == 's' ? MPIT_RAW_SUM : MPIT_RAW_MAX, k);
    }
    return -1;
}
