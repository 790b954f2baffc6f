/*
 * Event rule engine: see mpit_engine.h for the interface and phases,
 * mpit_rules.h for the rows. Semantics of each rule kind are documented at
 * its hot-path code below.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpit_engine.h"

#define DEFAULT_SLOTS    4096
#define MAX_SLOTS        (1 << 24)
#define PROBE            32   /* slots looked at per key operation: bounded work */
#define MAX_ELEMS        64   /* per event type: the tracking mask is 64 bits */
#define MPIT_ROW_WHY_LEN 256  /* why a rule row is (un)available */
#define READ_TRIES       1024 /* snapshot attempts of a LEVEL integral */
#define RAW_BASE         (1 << 28)
#define RAW_STRIDE       (1 + 2 * MAX_ELEMS)

/* Key table words. A digest never takes the two reserved values. */
#define KEY_EMPTY 0u
#define KEY_BUSY  1u
#define KEY_MIX   0x9E3779B97F4A7C15ull
#define BIAS      (1ull << 63) /* signed maxima are stored biased: one unsigned compare */
#define SEQ_INIT  (1ull << 63) /* SEQUENCE state word: baseline seen */

typedef _Atomic uint64_t au64;

typedef struct slot {
    au64 key; /* KEY_EMPTY, KEY_BUSY (being changed) or a digest */
    au64 val; /* begin/insert timestamp, or SEQUENCE state word */
} slot_t;

/* State of one active rule. Which fields a kind uses is listed at its code. */
typedef struct rstate {
    const mpit_rule_t *row;
    int keyed, val_signed, seq_bits;
    au64 n, sum, min, max, unmatched, removes, hwm, sum_ins, sum_rem;
    au64 wbeg, wend, last_time;
    /* COUNT and LEVEL by count: what they count is the event types' own
     * count (evstate count) since the rule started: src[ref] - base[ref],
     * no work per event (src NULL for other kinds) */
    au64 *src[2];
    au64 base[2];
    _Atomic int64_t depth;
    _Atomic int active; /* gated engines: counters of this rule being read */
    au64 *groups;       /* GROUP: MPIT_GROUP_SLOTS counts by value; other in unmatched */
    au64 t0;            /* gated engines: when the rule became active */
    slot_t *slots;
    uint64_t mask;
    int probe;
} rstate_t;

enum op { OP_NONE, OP_SUM, OP_MAX, OP_BEGIN, OP_END, OP_INSERT, OP_REMOVE, OP_ARRIVE, OP_GROUP };

typedef struct action {
    int op, need, nk, nval;       /* nval: GROUP's value and scope elements */
    int idx[MPIT_RULE_MAX_ELEMS]; /* keys, or the value; SEQUENCE: keys then sequence */
    rstate_t *r;
} action_t;

typedef struct evstate {
    char *name;
    int described, nelem, noread, need, nact;
    char **elem; /* element names ("<i>" when unnamed) */
    int *kind;
    char **raw_name;       /* RAW_STRIDE names: event, then :sum= and :max= per element */
    au64 count, track;     /* track: elements whose sum/max are kept */
    _Atomic unsigned plan; /* for the callback: elements to read | PLAN_TIME */
    au64 running;          /* bit i: action i runs (its rule is active, or the engine is not gated) */
    uint64_t bare;         /* bit i: action i is a LEVEL by count (dispatch's fast path) */
    au64 *esum, *emax;
    action_t *act;
} evstate_t;

enum field {
    F_DROPPED,
    F_VALUE,
    F_OOS,
    F_ARRIVALS,
    F_COUNT,
    F_TOTAL,
    F_MIN,
    F_MAX,
    F_MEAN,
    F_UNMATCHED,
    F_INSERTS,
    F_REMOVES,
    F_DEPTH,
    F_HWM,
    F_TIME,
    F_LMEAN
};

typedef struct counter {
    char *name, *desc;
    const char *units;
    int vkind, field;
    rstate_t *r;
} counter_t;

struct mpit_engine {
    int nev, slots, bound, nrows, nctr;
    int gated;           /* rules run only while active (mpit_engine_gate) */
    atomic_int watching; /* a watcher wants every element and timestamp */
    evstate_t *ev;
    const mpit_rule_t *rows;
    int *row_active;
    char **row_why;
    rstate_t **rs;
    counter_t *ctr;
    au64 t0, dropped;
};

/* ------------------------------------------------------------------ util */

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static char *joinstr(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *d = malloc(n);
    if (d) snprintf(d, n, "%s%s%s", a, b, c);
    return d;
}

static uint64_t mix64(uint64_t z)
{
    z ^= z >> 30;
    z *= 0xbf58476d1ce4e5b9ull;
    z ^= z >> 27;
    z *= 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void atomic_max_u64(au64 *p, uint64_t v)
{
    uint64_t cur = atomic_load_explicit(p, memory_order_relaxed);
    while (cur < v &&
           !atomic_compare_exchange_weak_explicit(p, &cur, v, memory_order_relaxed, memory_order_relaxed))
        ;
}

static void atomic_min_u64(au64 *p, uint64_t v)
{
    uint64_t cur = atomic_load_explicit(p, memory_order_relaxed);
    while (cur > v &&
           !atomic_compare_exchange_weak_explicit(p, &cur, v, memory_order_relaxed, memory_order_relaxed))
        ;
}

static void drop(mpit_engine_t *e) { atomic_fetch_add_explicit(&e->dropped, 1, memory_order_relaxed); }

/* ------------------------------------------------------------- key tables
 * Digest of the key elements. Exact (injective) for one element, and for two
 * that each fit in 32 bits, like (context id, source); longer keys are
 * hashed, a collision needing ~2^32 keys live at once. The XOR keeps common
 * keys such as (0, 0) off the reserved words. */
static uint64_t key_of(const int64_t *el, const int *idx, int nk)
{
    uint64_t d;
    int64_t a, b;

    if (nk == 1) {
        d = (uint64_t)el[idx[0]];
    } else if (nk == 2 && (a = el[idx[0]]) >= INT32_MIN && a <= (int64_t)UINT32_MAX &&
               (b = el[idx[1]]) >= INT32_MIN && b <= (int64_t)UINT32_MAX) {
        d = ((uint64_t)(uint32_t)a << 32) | (uint32_t)b;
    } else {
        d = 0;
        for (int i = 0; i < nk; i++) d = mix64(d ^ (uint64_t)el[idx[i]] ^ KEY_MIX);
    }
    d ^= KEY_MIX;
    return d <= KEY_BUSY ? d + 2 : d;
}

/* Begin side of PAIR / keyed LEVEL: take the slot already holding key (the
 * earlier begin was never ended: *replaced, *old = its value) or an empty
 * one, leaving it BUSY so no end can see it before slot_publish. Linear
 * probing over a fixed window; NULL when the window is full. */
static slot_t *slot_claim(rstate_t *r, uint64_t key, int *replaced, uint64_t *old)
{
    uint64_t pos = mix64(key);

    for (int i = 0; i < r->probe; i++) {
        slot_t *s = &r->slots[(pos + (uint64_t)i) & r->mask];
        uint64_t k = key;
        if (atomic_load_explicit(&s->key, memory_order_relaxed) == key &&
            atomic_compare_exchange_strong_explicit(&s->key, &k, KEY_BUSY, memory_order_acquire,
                                                    memory_order_relaxed)) {
            *replaced = 1;
            *old = atomic_load_explicit(&s->val, memory_order_relaxed);
            return s;
        }
    }
    for (int i = 0; i < r->probe; i++) {
        slot_t *s = &r->slots[(pos + (uint64_t)i) & r->mask];
        uint64_t k = KEY_EMPTY;
        if (atomic_load_explicit(&s->key, memory_order_relaxed) == KEY_EMPTY &&
            atomic_compare_exchange_strong_explicit(&s->key, &k, KEY_BUSY, memory_order_acquire,
                                                    memory_order_relaxed)) {
            *replaced = 0;
            return s;
        }
    }
    return NULL;
}

static void slot_publish(slot_t *s, uint64_t key, uint64_t val)
{
    atomic_store_explicit(&s->val, val, memory_order_relaxed);
    atomic_store_explicit(&s->key, key, memory_order_release);
}

/* End side: remove key and return its value. Scans the whole window, since
 * removals leave holes and there are no tombstones. */
static int slot_take(rstate_t *r, uint64_t key, uint64_t *val)
{
    uint64_t pos = mix64(key);

    for (int i = 0; i < r->probe; i++) {
        slot_t *s = &r->slots[(pos + (uint64_t)i) & r->mask];
        uint64_t k = key;
        if (atomic_load_explicit(&s->key, memory_order_relaxed) == key &&
            atomic_compare_exchange_strong_explicit(&s->key, &k, KEY_BUSY, memory_order_acquire,
                                                    memory_order_relaxed)) {
            *val = atomic_load_explicit(&s->val, memory_order_relaxed);
            atomic_store_explicit(&s->key, KEY_EMPTY, memory_order_release);
            return 1;
        }
    }
    return 0;
}

/* SEQUENCE slots are never freed, so every thread walks the same probe
 * sequence to the first slot that is this key or empty: two threads seeing
 * a new stream at once end in the same slot. */
static slot_t *seq_slot(rstate_t *r, uint64_t key)
{
    uint64_t pos = mix64(key);

    for (int i = 0; i < r->probe; i++) {
        slot_t *s = &r->slots[(pos + (uint64_t)i) & r->mask];
        uint64_t k = atomic_load_explicit(&s->key, memory_order_acquire);
        if (k == KEY_EMPTY && atomic_compare_exchange_strong_explicit(&s->key, &k, key, memory_order_acq_rel,
                                                                      memory_order_acquire))
            return s;
        if (k == key) return s;
    }
    return NULL;
}

/* ------------------------------------------------------------- hot path */

/* PAIR: n = pairs, sum = total ns, min/max ns, unmatched = ends without a
 * begin plus begins overwritten by a later begin of the same key (a retired
 * token reused: the earlier begin never ended). A negative duration counts 0. */
static void pair_begin(mpit_engine_t *e, rstate_t *r, uint64_t key, uint64_t ts)
{
    int replaced;
    uint64_t old;
    slot_t *s = slot_claim(r, key, &replaced, &old);

    if (!s) {
        drop(e);
        return;
    }
    if (replaced) atomic_fetch_add_explicit(&r->unmatched, 1, memory_order_relaxed);
    slot_publish(s, key, ts);
}

static void pair_end(rstate_t *r, uint64_t key, uint64_t ts)
{
    uint64_t t1, d;

    if (!slot_take(r, key, &t1)) {
        atomic_fetch_add_explicit(&r->unmatched, 1, memory_order_relaxed);
        return;
    }
    d = ts >= t1 ? ts - t1 : 0;
    atomic_fetch_add_explicit(&r->n, 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&r->sum, d, memory_order_relaxed);
    atomic_min_u64(&r->min, d);
    atomic_max_u64(&r->max, d);
}

/*
 * LEVEL: n = inserts, removes, depth, hwm = high-water mark of depth,
 * sum_ins / sum_rem = sums of insert / remove timestamps (mod 2^64).
 * The residence time up to now is the integral of depth over time:
 *     time(now) = sum_rem - sum_ins + depth * now
 * i.e. (remove - insert) for each item gone and (now - insert) for each item
 * still queued. Only atomic adds on the hot path; a reader needs the three
 * words from one instant, so every update is bracketed by wbeg++ ... wend++
 * (seq_cst) and the reader retries until it saw no update in flight.
 *
 * By count (no keys; MPICH, whose remove event cannot be read): a removal
 * with depth <= 0 takes an item that was queued before t0: it is counted as
 * inserted at t0 (sum_ins += t0, depth unchanged) and in `unmatched`.
 * Keyed: an item counts only if its insert was seen; a removal of an unknown
 * key changes nothing but `unmatched`; an insert of a key already queued
 * removes the earlier item at that time (counted in removes and unmatched).
 * Keyed rules also keep min/max of each item's wait (remove - insert).
 */
static inline void lv_in(rstate_t *r, uint64_t ts, int by_count)
{
    int64_t d = atomic_fetch_add(&r->depth, 1) + 1;
    if (d > 0) atomic_max_u64(&r->hwm, (uint64_t)d);
    atomic_fetch_add(&r->sum_ins, ts);
    if (!by_count) atomic_fetch_add(&r->n, 1); /* by count: the insert event's count */
}

/* A removal by count from an empty queue: the item was queued before t0. */
static inline void lv_out_before_t0(mpit_engine_t *e, rstate_t *r)
{
    atomic_fetch_add(&r->depth, 1);
    atomic_fetch_add(&r->sum_ins, atomic_load_explicit(e->gated ? &r->t0 : &e->t0, memory_order_relaxed));
    atomic_fetch_add(&r->unmatched, 1);
}

static inline void lv_out(mpit_engine_t *e, rstate_t *r, uint64_t ts, int by_count)
{
    int64_t old = atomic_fetch_sub(&r->depth, 1);
    if (by_count && __builtin_expect(old <= 0, 0)) lv_out_before_t0(e, r);
    atomic_fetch_add(&r->sum_rem, ts);
    if (!by_count) atomic_fetch_add(&r->removes, 1); /* by count: the remove event's count */
}

/* By count: inline in dispatch (why: MPICH's queue, two of every message's
 * events, pays no call). */
static inline void level_insert_count(rstate_t *r, uint64_t ts)
{
    atomic_fetch_add(&r->wbeg, 1);
    lv_in(r, ts, 1);
    atomic_fetch_add(&r->wend, 1);
}

static inline void level_remove_count(mpit_engine_t *e, rstate_t *r, uint64_t ts)
{
    atomic_fetch_add(&r->wbeg, 1);
    lv_out(e, r, ts, 1);
    atomic_fetch_add(&r->wend, 1);
}

static void level_insert_keyed(mpit_engine_t *e, rstate_t *r, uint64_t key, uint64_t ts)
{
    int replaced = 0;
    uint64_t old;
    slot_t *s = slot_claim(r, key, &replaced, &old);

    if (!s) {
        drop(e);
        return;
    }
    atomic_fetch_add(&r->wbeg, 1);
    if (replaced) {
        lv_out(e, r, ts, 0);
        atomic_fetch_add(&r->unmatched, 1);
    }
    lv_in(r, ts, 0);
    atomic_fetch_add(&r->wend, 1);
    slot_publish(s, key, ts); /* after depth++: a removal never sees depth 0 */
}

static void level_remove_keyed(mpit_engine_t *e, rstate_t *r, uint64_t key, uint64_t ts)
{
    uint64_t t1;

    if (!slot_take(r, key, &t1)) {
        atomic_fetch_add(&r->unmatched, 1);
        return;
    }
    atomic_fetch_add(&r->wbeg, 1);
    lv_out(e, r, ts, 0);
    atomic_fetch_add(&r->wend, 1);
    uint64_t w = ts >= t1 ? ts - t1 : 0;
    atomic_min_u64(&r->min, w);
    atomic_max_u64(&r->max, w);
}

/*
 * SEQUENCE, as ob1 counts OUT_OF_SEQUENCE: per stream (e.g. communicator,
 * source) the next expected sequence number; an arrival whose number is not
 * the expected one is out of sequence when it arrives. When the expected one
 * arrives, the numbers after it that already arrived are consumed too, so
 * the messages filling a gap are in sequence. Numbers are seq_bits wide and
 * wrap.
 * State word (one CAS): bit 63 baseline seen, low seq_bits = expected,
 * between them W = 63 - seq_bits bits: bit i = "expected+1+i already arrived".
 * The first arrival of a stream sets the baseline (we may attach mid-stream).
 * diff = seq - expected (mod 2^seq_bits):
 *   0             in sequence, advance;
 *   1..W          out of sequence, remembered;
 *   W+1..half     out of sequence beyond what we can remember: counted, also
 *                 in dropped, and the stream re-baselined after it;
 *   above half    behind expected (a gap filler after a re-baseline, or from
 *                 before we attached): in sequence, no change.
 * n = arrivals, sum = out-of-sequence arrivals.
 */
static void seq_arrive(mpit_engine_t *e, rstate_t *r, uint64_t key, int64_t seqv)
{
    const int bits = r->seq_bits, w = 63 - bits;
    const uint64_t mask = (1ull << bits) - 1, wmask = (1ull << w) - 1;
    const uint64_t seq = (uint64_t)seqv & mask;
    slot_t *s = seq_slot(r, key);
    uint64_t old, nw;
    int oos = 0, over = 0;

    atomic_fetch_add_explicit(&r->n, 1, memory_order_relaxed);
    if (!s) {
        drop(e);
        return;
    }
    old = atomic_load_explicit(&s->val, memory_order_relaxed);
    do {
        oos = over = 0;
        if (!(old & SEQ_INIT)) {
            nw = SEQ_INIT | ((seq + 1) & mask);
        } else {
            uint64_t exp = old & mask, bm = (old >> bits) & wmask;
            uint64_t diff = (seq - exp) & mask;
            if (diff == 0) {
                exp = (exp + 1) & mask;
                while (bm & 1) { /* bounded by W */
                    bm >>= 1;
                    exp = (exp + 1) & mask;
                }
                nw = SEQ_INIT | ((bm >> 1) << bits) | exp;
            } else if (diff > mask / 2) {
                return;
            } else if (diff <= (uint64_t)w) {
                oos = 1;
                nw = old | (1ull << (bits + (int)diff - 1));
            } else {
                oos = over = 1;
                nw = SEQ_INIT | ((seq + 1) & mask);
            }
        }
    } while (!atomic_compare_exchange_weak_explicit(&s->val, &old, nw, memory_order_relaxed,
                                                    memory_order_relaxed));
    if (oos) atomic_fetch_add_explicit(&r->sum, 1, memory_order_relaxed);
    if (over) drop(e);
}

/* GROUP: n = occurrences, groups[v] = those with value v, unmatched = those
 * whose value or scope has no slot (never lost from n). */
static void group_count(rstate_t *r, const action_t *a, const int64_t *el)
{
    int64_t v = el[a->idx[0]];
    int in_scope = a->nval < 2 || (el[a->idx[1]] >= 0 && el[a->idx[1]] <= r->row->scope_max);
    atomic_fetch_add_explicit(&r->n, 1, memory_order_relaxed);
    if (in_scope && v >= 0 && v < MPIT_GROUP_SLOTS)
        atomic_fetch_add_explicit(&r->groups[v], 1, memory_order_relaxed);
    else
        atomic_fetch_add_explicit(&r->unmatched, 1, memory_order_relaxed);
}

/* The actions that need a key (dispatch_general only). */
static void run_keyed(mpit_engine_t *e, const action_t *a, uint64_t ts, const int64_t *el)
{
    rstate_t *r = a->r;
    uint64_t key = key_of(el, a->idx, a->nk);

    switch (a->op) {
    case OP_BEGIN: pair_begin(e, r, key, ts); break;
    case OP_END: pair_end(r, key, ts); break;
    case OP_INSERT: level_insert_keyed(e, r, key, ts); break;
    case OP_REMOVE: level_remove_keyed(e, r, key, ts); break;
    case OP_ARRIVE: seq_arrive(e, r, key, el[a->idx[a->nk]]); break;
    }
}

static inline __attribute__((always_inline)) void run_action(mpit_engine_t *e, const action_t *a, uint64_t ts,
                                                             const int64_t *el)
{
    rstate_t *r = a->r;

    switch (a->op) {
    case OP_SUM:
        atomic_fetch_add_explicit(&r->n, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&r->sum, (uint64_t)el[a->idx[0]], memory_order_relaxed);
        return;
    case OP_MAX: atomic_max_u64(&r->max, (uint64_t)el[a->idx[0]] ^ (r->val_signed ? BIAS : 0)); return;
    case OP_GROUP: group_count(r, a, el); return;
    case OP_INSERT:
        if (a->nk) break;
        level_insert_count(r, ts);
        return;
    case OP_REMOVE:
        if (a->nk) break;
        level_remove_count(e, r, ts);
        return;
    }
    run_keyed(e, a, ts, el);
}

/* Sums and maxima of the tracked elements (mpit:::event.<name>:sum=, :max=). */
static void __attribute__((noinline)) track_elements(evstate_t *E, const int64_t *el, int n)
{
    uint64_t m = atomic_load_explicit(&E->track, memory_order_relaxed);
    for (int i = 0; m && i < n; i++, m >>= 1) {
        if (!(m & 1)) continue;
        atomic_fetch_add_explicit(&E->esum[i], (uint64_t)el[i], memory_order_relaxed);
        atomic_max_u64(&E->emax[i], (uint64_t)el[i] ^ (E->kind[i] == MPIT_ELEM_SIGNED ? BIAS : 0));
    }
}

/* Elements, keys, sums: every kind of action. */
static void __attribute__((noinline))
dispatch_general(mpit_engine_t *e, evstate_t *E, uint64_t run, uint64_t ts, const int64_t *el, int n)
{
    if (!el || n < 0 || E->noread)
        n = 0;
    else if (n > E->nelem)
        n = E->nelem;
    if (n && atomic_load_explicit(&E->track, memory_order_relaxed)) track_elements(E, el, n);
    for (; run; run &= run - 1) {
        const action_t *a = &E->act[__builtin_ctzll(run)];
        if (a->need > n)
            drop(e);
        else
            run_action(e, a, ts, el);
    }
}

void mpit_engine_dispatch(mpit_engine_t *e, int id, uint64_t ts, const int64_t *el, int n)
{
    evstate_t *E;

    if (__builtin_expect(!e || !e->bound || (unsigned)id >= (unsigned)e->nev || !e->ev[id].described, 0)) {
        if (e) drop(e);
        return;
    }
    E = &e->ev[id];
    /* ts is 0 when no running rule times this event (the callback's plan);
     * an ungated engine bound without t0 takes the first timestamp */
    if (__builtin_expect(ts && !e->gated, 0) && atomic_load_explicit(&e->t0, memory_order_relaxed) == 0) {
        uint64_t zero = 0;
        atomic_compare_exchange_strong(&e->t0, &zero, ts);
    }
    atomic_fetch_add_explicit(&E->count, 1, memory_order_relaxed);
    /* the actions whose rules run: on a gated engine those some set reads,
     * else all (refresh_plan keeps the mask) */
    uint64_t run = atomic_load_explicit(&E->running, memory_order_relaxed);
    if (el || (run & ~E->bare)) {
        dispatch_general(e, E, run, ts, el, n);
        return;
    }
    /* Only queues by count (MPICH): no element, no call, so no register
     * to save. */
    for (; run; run &= run - 1) {
        const action_t *a = &E->act[__builtin_ctzll(run)];
        if (a->op == OP_INSERT)
            level_insert_count(a->r, ts);
        else
            level_remove_count(e, a->r, ts);
    }
}

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

/* ----------------------------------------------------------------- setup */

mpit_engine_t *mpit_engine_create(int num_event_types, int table_slots)
{
    mpit_engine_t *e;
    int slots = DEFAULT_SLOTS;

    if (num_event_types < 0 || num_event_types > (INT32_MAX - RAW_BASE) / RAW_STRIDE || table_slots < 0 ||
        table_slots > MAX_SLOTS)
        return NULL;
    if (table_slots > 0)
        for (slots = 1; slots < table_slots; slots <<= 1)
            ;
    e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->nev = num_event_types;
    e->slots = slots;
    e->ev = calloc(num_event_types ? (size_t)num_event_types : 1, sizeof *e->ev);
    if (!e->ev) {
        free(e);
        return NULL;
    }
    return e;
}

static void free_event(evstate_t *E)
{
    if (E->raw_name)
        for (int i = 0; i < RAW_STRIDE; i++) free(E->raw_name[i]);
    if (E->elem)
        for (int i = 0; i < E->nelem; i++) free(E->elem[i]);
    free(E->raw_name);
    free(E->elem);
    free(E->name);
    free(E->kind);
    free((void *)E->esum);
    free((void *)E->emax);
    free(E->act);
    memset(E, 0, sizeof *E);
}

void mpit_engine_destroy(mpit_engine_t *e)
{
    if (!e) return;
    for (int i = 0; i < e->nev; i++) free_event(&e->ev[i]);
    for (int i = 0; i < e->nrows; i++) {
        if (e->rs && e->rs[i]) {
            free(e->rs[i]->slots);
            free(e->rs[i]->groups);
            free(e->rs[i]);
        }
        if (e->row_why) free(e->row_why[i]);
    }
    for (int i = 0; i < e->nctr; i++) {
        free(e->ctr[i].name);
        free(e->ctr[i].desc);
    }
    free(e->ctr);
    free(e->rs);
    free(e->row_why);
    free(e->row_active);
    free(e->ev);
    free(e);
}

void mpit_engine_forbid_reading(mpit_engine_t *e, int id)
{
    if (e && !e->bound && id >= 0 && id < e->nev) e->ev[id].noread = 1;
}

int mpit_engine_describe_event(mpit_engine_t *e, int id, const char *name, int nelem,
                               const char *const *elem_names, const int *elem_kinds)
{
    evstate_t *E;
    char num[24];
    int ok = 1;

    if (!e || e->bound || id < 0 || id >= e->nev || !name || !*name || nelem < 0 || nelem > MAX_ELEMS ||
        (nelem && !elem_kinds))
        return -1;
    E = &e->ev[id];
    free_event(E);
    E->nelem = nelem;
    E->name = dupstr(name);
    E->elem = calloc((size_t)nelem + 1, sizeof *E->elem);
    E->kind = calloc((size_t)nelem + 1, sizeof *E->kind);
    E->esum = calloc((size_t)nelem + 1, sizeof *E->esum);
    E->emax = calloc((size_t)nelem + 1, sizeof *E->emax);
    E->raw_name = calloc(RAW_STRIDE, sizeof *E->raw_name);
    if (!E->name || !E->elem || !E->kind || !E->esum || !E->emax || !E->raw_name) {
        free_event(E);
        return -1;
    }
    E->raw_name[0] = dupstr(name);
    ok = E->raw_name[0] != NULL;
    for (int i = 0; i < nelem; i++) {
        const char *en = elem_names ? elem_names[i] : NULL;
        if (!en || !*en) {
            snprintf(num, sizeof num, "%d", i);
            en = num;
        }
        E->kind[i] = elem_kinds[i];
        if (E->kind[i] != MPIT_ELEM_SIGNED && E->kind[i] != MPIT_ELEM_UNSIGNED) E->kind[i] = MPIT_ELEM_OTHER;
        E->elem[i] = dupstr(en);
        E->raw_name[1 + 2 * i] = joinstr(name, ":sum=", en);
        E->raw_name[2 + 2 * i] = joinstr(name, ":max=", en);
        ok = ok && E->elem[i] && E->raw_name[1 + 2 * i] && E->raw_name[2 + 2 * i];
    }
    if (!ok) {
        free_event(E);
        return -1;
    }
    E->described = 1;
    return 0;
}

/* Drops the "ompi." / "ompi_" prefix Open MPI versions differ in. */
static const char *canon(const char *s, size_t *len)
{
    if (*len > 5 && (!strncmp(s, "ompi.", 5) || !strncmp(s, "ompi_", 5))) {
        s += 5;
        *len -= 5;
    }
    return s;
}

/* Does one of the '|' alternatives in pat name `actual`? */
static int alt_match(const char *pat, const char *actual, int is_event)
{
    size_t alen = strlen(actual);
    const char *a = is_event ? canon(actual, &alen) : actual;

    while (pat && *pat) {
        const char *bar = strchr(pat, '|');
        size_t plen = bar ? (size_t)(bar - pat) : strlen(pat);
        const char *p = is_event ? canon(pat, &plen) : pat;
        if (plen == alen && !strncmp(p, a, plen)) return 1;
        pat = bar ? bar + 1 : NULL;
    }
    return 0;
}

static int find_event(const mpit_engine_t *e, const char *pat)
{
    for (int i = 0; i < e->nev; i++)
        if (e->ev[i].described && alt_match(pat, e->ev[i].name, 1)) return i;
    return -1;
}

static int find_elem(const evstate_t *E, const char *pat)
{
    for (int i = 0; i < E->nelem; i++) {
        char pos[24];
        snprintf(pos, sizeof pos, "#%d", i);
        if (alt_match(pat, E->elem[i], 0) || alt_match(pat, pos, 0)) return i;
    }
    return -1;
}

/* Counter suffixes of each kind. ns: units are "ns"; ev: units "events";
 * else the row's units. */
typedef struct sfx {
    const char *sfx;
    int field, vkind, ns, ev;
    const char *what;
} sfx_t;

#define RUN MPIT_VALUE_RUNNING
#define ABS MPIT_VALUE_ABSOLUTE

static const sfx_t sfx_count[] = {{"", F_VALUE, RUN, 0, 0, "occurrences"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_sum[] = {{"", F_VALUE, RUN, 0, 0, "sum"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_max[] = {{"", F_VALUE, ABS, 0, 0, "largest value"}, {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_group[] = {
    {"", F_VALUE, RUN, 0, 0, "occurrences (by value through the component's sender interface)"},
    {"other", F_UNMATCHED, RUN, 0, 0, "occurrences whose value or scope has no slot of its own"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_seq[] = {
    {"", F_OOS, RUN, 0, 0, "arrivals whose sequence number was not the next expected"},
    {"arrivals", F_ARRIVALS, RUN, 0, 0, "arrivals checked"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_pair[] = {
    {"count", F_COUNT, RUN, 0, 0, "matched begin/end pairs"},
    {"total", F_TOTAL, RUN, 1, 0, "total duration"},
    {"min", F_MIN, ABS, 1, 0, "shortest duration"},
    {"max", F_MAX, ABS, 1, 0, "longest duration"},
    {"mean", F_MEAN, ABS, 1, 0, "mean duration (total/count)"},
    {"unmatched", F_UNMATCHED, RUN, 0, 1, "ends without a begin, begins never ended"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_common[] = {
    {"inserts", F_INSERTS, RUN, 0, 0, "items inserted"},
    {"removes", F_REMOVES, RUN, 0, 0, "items removed"},
    {"depth", F_DEPTH, ABS, 0, 0, "current depth"},
    {"max", F_HWM, ABS, 0, 0, "high-water mark of depth"},
    {"time", F_TIME, RUN, 1, 0, "total residence time (integral of depth over time)"},
    {"mean", F_LMEAN, ABS, 1, 0, "residence time per inserted item (time/inserts)"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_count[] = {
    {"unmatched", F_UNMATCHED, RUN, 0, 1,
     "removals from an empty queue (items queued before start, counted from start)"},
    {NULL, 0, 0, 0, 0, NULL}};
static const sfx_t sfx_level_keyed[] = {
    {"wait_min", F_MIN, ABS, 1, 0, "shortest wait of an item (remove - insert)"},
    {"wait_max", F_MAX, ABS, 1, 0, "longest wait of an item (remove - insert)"},
    {"unmatched", F_UNMATCHED, RUN, 0, 1, "removals of items whose insert was not seen"},
    {NULL, 0, 0, 0, 0, NULL}};

/* A row resolved against the running MPI. */
typedef struct resolved {
    int nref, ev[2], nk[2], idx[2][MPIT_RULE_MAX_ELEMS];
} resolved_t;

static int nelems_of(const mpit_rule_ref_t *ref)
{
    int n = 0;
    while (n < MPIT_RULE_MAX_ELEMS && ref->elems[n]) n++;
    return n;
}

/* Fills why and returns 0 when the row cannot work here. */
static int resolve_row(const mpit_engine_t *e, const mpit_rule_t *row, resolved_t *rv, char *why, size_t len)
{
    int kind = row->kind;
    int n0 = nelems_of(&row->ref[0]), n1 = nelems_of(&row->ref[1]);

    rv->nref = (kind == MPIT_RULE_PAIR || kind == MPIT_RULE_LEVEL) ? 2 : 1;
    if (!row->name || !*row->name || kind < MPIT_RULE_COUNT || kind > MPIT_RULE_GROUP)
        return snprintf(why, len, "malformed row: name or kind"), 0;
    if ((kind == MPIT_RULE_SUM || kind == MPIT_RULE_MAX) && n0 != 1)
        return snprintf(why, len, "malformed row: %s needs one value element", row->name), 0;
    if (kind == MPIT_RULE_GROUP && (n0 < 1 || n0 > 2))
        return snprintf(why, len, "malformed row: %s needs a value element and at most a scope", row->name),
               0;
    if (kind == MPIT_RULE_PAIR && (n0 < 1 || n0 != n1))
        return snprintf(why, len, "malformed row: %s needs matching keys", row->name), 0;
    if (kind == MPIT_RULE_LEVEL && n0 != n1)
        return snprintf(why, len, "malformed row: %s key counts differ", row->name), 0;
    if (kind == MPIT_RULE_SEQUENCE && (n0 < 2 || row->seq_bits < 8 || row->seq_bits > 32))
        return snprintf(why, len, "malformed row: %s needs keys, a sequence and seq_bits 8..32", row->name),
               0;
    for (int r = 0; r < rv->nref; r++) {
        const mpit_rule_ref_t *ref = &row->ref[r];
        const evstate_t *E;
        int ne = nelems_of(ref);

        if (!ref->event) return snprintf(why, len, "malformed row: %s lacks an event", row->name), 0;
        if ((ref->flags & MPIT_REF_NOREAD) && ne)
            return snprintf(why, len, "malformed row: %s reads unreadable %s", row->name, ref->event), 0;
        rv->ev[r] = find_event(e, ref->event);
        if (rv->ev[r] < 0) return snprintf(why, len, "event %s not provided by this MPI", ref->event), 0;
        E = &e->ev[rv->ev[r]];
        if (ne && E->noread) return snprintf(why, len, "data of event %s must not be read", E->name), 0;
        rv->nk[r] = kind == MPIT_RULE_SEQUENCE ? ne - 1 : ne;
        for (int i = 0; i < ne; i++) {
            int k = find_elem(E, ref->elems[i]);
            if (k < 0) return snprintf(why, len, "event %s has no element %s", E->name, ref->elems[i]), 0;
            if (E->kind[k] == MPIT_ELEM_OTHER)
                return snprintf(why, len, "element %s of event %s is not an integer", E->elem[k], E->name), 0;
            rv->idx[r][i] = k;
        }
    }
    return 1;
}

static int counter_exists(const mpit_engine_t *e, const char *name)
{
    for (int i = 0; i < e->nctr; i++)
        if (!strcmp(e->ctr[i].name, name)) return 1;
    return 0;
}

static int add_counter(mpit_engine_t *e, const char *name, const char *desc, const char *units, int vkind,
                       int field, rstate_t *r)
{
    counter_t *c = &e->ctr[e->nctr];

    c->name = dupstr(name);
    c->desc = dupstr(desc);
    if (!c->name || !c->desc) {
        free(c->name);
        free(c->desc);
        return -1;
    }
    c->units = units;
    c->vkind = vkind;
    c->field = field;
    c->r = r;
    e->nctr++;
    return 0;
}

/* The suffix lists of an active row, NULL-terminated. */
static void sfx_lists(const mpit_rule_t *row, int keyed, const sfx_t *l[3])
{
    l[1] = l[2] = NULL;
    switch (row->kind) {
    case MPIT_RULE_COUNT: l[0] = sfx_count; break;
    case MPIT_RULE_SUM: l[0] = sfx_sum; break;
    case MPIT_RULE_MAX: l[0] = sfx_max; break;
    case MPIT_RULE_PAIR: l[0] = sfx_pair; break;
    case MPIT_RULE_SEQUENCE: l[0] = sfx_seq; break;
    case MPIT_RULE_GROUP: l[0] = sfx_group; break;
    default: l[0] = sfx_level_common; l[1] = keyed ? sfx_level_keyed : sfx_level_count;
    }
}

static char *counter_name(const mpit_rule_t *row, const sfx_t *s)
{
    return joinstr(row->name, *s->sfx ? "." : "", s->sfx);
}

/* Creates the rule state and counters of an available row: 0, 1 when its
 * counter names clash (why set), -1 when out of memory. */
static int activate_row(mpit_engine_t *e, int ri, const resolved_t *rv, char *why, size_t len)
{
    const mpit_rule_t *row = &e->rows[ri];
    int keyed = row->kind == MPIT_RULE_PAIR || row->kind == MPIT_RULE_SEQUENCE ||
                (row->kind == MPIT_RULE_LEVEL && rv->nk[0] > 0);
    const sfx_t *lists[3];
    rstate_t *r;

    sfx_lists(row, keyed, lists);
    for (int l = 0; lists[l]; l++)
        for (const sfx_t *s = lists[l]; s->sfx; s++) {
            char *nm = counter_name(row, s);
            int clash = !nm || counter_exists(e, nm);
            free(nm);
            if (clash) return snprintf(why, len, "counter names of %s clash with another rule", row->name), 1;
        }
    r = calloc(1, sizeof *r);
    if (!r) return -1;
    r->row = row;
    r->keyed = keyed;
    r->seq_bits = row->seq_bits;
    if (row->kind == MPIT_RULE_MAX) r->val_signed = e->ev[rv->ev[0]].kind[rv->idx[0][0]] == MPIT_ELEM_SIGNED;
    if (keyed) {
        r->slots = calloc((size_t)e->slots, sizeof *r->slots);
        if (!r->slots) {
            free(r);
            return -1;
        }
        r->mask = (uint64_t)e->slots - 1;
        r->probe = e->slots < PROBE ? e->slots : PROBE;
    }
    if (row->kind == MPIT_RULE_GROUP && !(r->groups = calloc(MPIT_GROUP_SLOTS, sizeof *r->groups))) {
        free(r);
        return -1;
    }
    atomic_store(&r->min, UINT64_MAX);
    if (row->kind == MPIT_RULE_COUNT || (row->kind == MPIT_RULE_LEVEL && !keyed))
        for (int ref = 0; ref < rv->nref; ref++) r->src[ref] = &e->ev[rv->ev[ref]].count;
    e->rs[ri] = r;
    for (int l = 0; lists[l]; l++)
        for (const sfx_t *s = lists[l]; s->sfx; s++) {
            char *nm = counter_name(row, s);
            char *desc = joinstr(row->desc ? row->desc : row->name, ": ", s->what);
            int rc = (nm && desc) ? add_counter(e, nm, desc,
                                                s->ns        ? "ns"
                                                : s->ev      ? "events"
                                                : row->units ? row->units
                                                             : "",
                                                s->vkind, s->field, r)
                                  : -1;
            free(nm);
            free(desc);
            if (rc) return -1;
        }
    return 0;
}

static void refresh_plan(mpit_engine_t *e, int ev);

static int op_of(int kind, int ref)
{
    switch (kind) {
    case MPIT_RULE_COUNT: return OP_NONE; /* its event type's count */
    case MPIT_RULE_SUM: return OP_SUM;
    case MPIT_RULE_MAX: return OP_MAX;
    case MPIT_RULE_PAIR: return ref ? OP_END : OP_BEGIN;
    case MPIT_RULE_LEVEL: return ref ? OP_REMOVE : OP_INSERT;
    case MPIT_RULE_GROUP: return OP_GROUP;
    default: return OP_ARRIVE;
    }
}

static void add_action(mpit_engine_t *e, int ri, const resolved_t *rv, int ref)
{
    evstate_t *E = &e->ev[rv->ev[ref]];
    action_t *a = &E->act[E->nact++];
    int ne = e->rows[ri].kind == MPIT_RULE_SEQUENCE ? rv->nk[ref] + 1 : rv->nk[ref];

    a->op = op_of(e->rows[ri].kind, ref);
    a->nk = (a->op == OP_SUM || a->op == OP_MAX || a->op == OP_GROUP) ? 0 : rv->nk[ref];
    a->nval = rv->nk[ref];
    a->r = e->rs[ri];
    a->need = 0;
    for (int i = 0; i < ne; i++) {
        a->idx[i] = rv->idx[ref][i];
        if (a->idx[i] + 1 > a->need) a->need = a->idx[i] + 1;
    }
    if (a->need > E->need) E->need = a->need;
}

int mpit_engine_bind(mpit_engine_t *e, const mpit_rule_t *rules, int nrules, uint64_t t0)
{
    resolved_t *rv;
    char why[MPIT_ROW_WHY_LEN];

    if (!e || e->bound || e->rows || nrules < 0 || (nrules && !rules)) return -1;
    e->rows = rules;
    e->nrows = nrules;
    e->row_active = calloc((size_t)nrules + 1, sizeof *e->row_active);
    e->row_why = calloc((size_t)nrules + 1, sizeof *e->row_why);
    e->rs = calloc((size_t)nrules + 1, sizeof *e->rs);
    rv = calloc((size_t)nrules + 1, sizeof *rv);
    e->ctr = calloc((size_t)nrules * 12 + 1, sizeof *e->ctr); /* >= suffixes per row */
    if (!e->row_active || !e->row_why || !e->rs || !rv || !e->ctr) goto fail;

    /* Unreadable events first: a row needing their elements is unavailable,
     * and the front end must pass them without data whatever rows remain. */
    for (int ri = 0; ri < nrules; ri++)
        for (int r = 0; r < 2; r++)
            if (rules[ri].ref[r].event && (rules[ri].ref[r].flags & MPIT_REF_NOREAD))
                for (int i = 0; i < e->nev; i++)
                    if (e->ev[i].described && alt_match(rules[ri].ref[r].event, e->ev[i].name, 1))
                        e->ev[i].noread = 1;

    if (add_counter(e, MPIT_ENGINE_DROPPED,
                    "Events the engine could not account: key table full, "
                    "too few elements, unknown type, sequence gap beyond its window",
                    "events", MPIT_VALUE_RUNNING, F_DROPPED, NULL))
        goto fail;

    for (int ri = 0; ri < nrules; ri++) {
        int shadowed = 0;
        for (int j = 0; j < ri && !shadowed; j++)
            shadowed =
                e->row_active[j] && rules[j].name && rules[ri].name && !strcmp(rules[j].name, rules[ri].name);
        if (shadowed) {
            snprintf(why, sizeof why, "shadowed by an earlier available row of %s", rules[ri].name);
        } else if (resolve_row(e, &rules[ri], &rv[ri], why, sizeof why)) {
            int rc = activate_row(e, ri, &rv[ri], why, sizeof why);
            if (rc < 0) goto fail;
            if (rc == 0) {
                e->row_active[ri] = 1;
                snprintf(why, sizeof why, "available");
            }
        }
        if (!(e->row_why[ri] = dupstr(why))) goto fail;
    }

    /* Per-event action lists (why: the hot path walks only what applies). */
    for (int pass = 0; pass < 2; pass++) {
        for (int ri = 0; ri < nrules; ri++) {
            if (!e->row_active[ri]) continue;
            for (int r = 0; r < rv[ri].nref; r++) {
                if (op_of(rules[ri].kind, r) == OP_NONE) continue;
                if (pass == 0)
                    e->ev[rv[ri].ev[r]].nact++;
                else
                    add_action(e, ri, &rv[ri], r);
            }
        }
        if (pass == 0)
            for (int i = 0; i < e->nev; i++) {
                evstate_t *E = &e->ev[i];
                if (!E->nact) continue;
                E->act = calloc((size_t)E->nact, sizeof *E->act);
                if (!E->act) goto fail;
                E->nact = 0;
            }
    }
    free(rv);
    mpit_engine_reset(e, t0);
    for (int i = 0; i < e->nev; i++) {
        evstate_t *E = &e->ev[i];
        for (int k = 0; k < E->nact && k < 64; k++)
            if ((E->act[k].op == OP_INSERT || E->act[k].op == OP_REMOVE) && E->act[k].nk == 0)
                E->bare |= 1ull << k;
        if (E->described) refresh_plan(e, i); /* every action runs until gated */
    }
    e->bound = 1;
    return e->nctr;

fail:
    free(rv);
    return -1;
}

int mpit_engine_rule_available(const mpit_engine_t *e, const char *name, char *why, size_t len)
{
    const char *first = NULL;

    if (why && len) *why = 0;
    if (!e || !name) return 0;
    for (int i = 0; i < e->nrows; i++) {
        if (!e->rows[i].name || strcmp(e->rows[i].name, name)) continue;
        if (e->row_active && e->row_active[i]) return 1;
        if (!first && e->row_why) first = e->row_why[i];
    }
    if (why && len) snprintf(why, len, "%s", first ? first : e->bound ? "no rule of that name" : "not bound");
    return 0;
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

/* Every statistic of a rule back to "nothing seen" (keyed slots too). */
static void rule_clear(rstate_t *r)
{
    atomic_store(&r->n, 0);
    atomic_store(&r->sum, 0);
    atomic_store(&r->min, UINT64_MAX);
    atomic_store(&r->max, 0);
    atomic_store(&r->unmatched, 0);
    atomic_store(&r->removes, 0);
    atomic_store(&r->hwm, 0);
    atomic_store(&r->sum_ins, 0);
    atomic_store(&r->sum_rem, 0);
    atomic_store(&r->last_time, 0);
    atomic_store(&r->depth, 0);
    for (int ref = 0; ref < 2; ref++)
        if (r->src[ref]) atomic_store(&r->base[ref], atomic_load(r->src[ref]));
    for (int i = 0; r->groups && i < MPIT_GROUP_SLOTS; i++) atomic_store(&r->groups[i], 0);
    for (uint64_t i = 0; r->slots && i <= r->mask; i++) {
        atomic_store(&r->slots[i].key, KEY_EMPTY);
        atomic_store(&r->slots[i].val, 0);
    }
}

/* What the callback must fetch for event ev: how many leading elements (the
 * rules' keys and values, tracked sums and maxima) and whether a rule that
 * runs needs its timestamp (pairs and levels). */
static void refresh_plan(mpit_engine_t *e, int ev)
{
    evstate_t *E = &e->ev[ev];
    unsigned time = 0;
    int n = 0;
    uint64_t running = 0;
    for (int i = 0; i < E->nact && i < 64; i++) {
        const action_t *a = &E->act[i];
        int timed = a->op == OP_BEGIN || a->op == OP_END || a->op == OP_INSERT || a->op == OP_REMOVE;
        if (e->gated && atomic_load(&a->r->active) <= 0) continue; /* < 0: restarting */
        running |= 1ull << i;
        if (timed) time = MPIT_PLAN_TIME;
        if (a->need > n) n = a->need;
    }
    /* and the elements whose sums and maxima are tracked */
    int all = mpit_engine_elements_to_read(e, ev);
    uint64_t m = atomic_load_explicit(&E->track, memory_order_relaxed);
    for (int i = 0; m && i < all; i++, m >>= 1)
        if ((m & 1) && i + 1 > n) n = i + 1;
    if (atomic_load(&e->watching)) {
        n = E->nelem;
        time = MPIT_PLAN_TIME;
    }
    if (E->noread) n = 0;
    atomic_store(&E->running, running);
    atomic_store(&E->plan, (unsigned)n | time);
}

const _Atomic unsigned *mpit_engine_event_plan(mpit_engine_t *e, int ev)
{
    static _Atomic unsigned nothing;
    if (!e || ev < 0 || ev >= e->nev || !e->ev[ev].described) return &nothing;
    return &e->ev[ev].plan;
}

void mpit_engine_watch(mpit_engine_t *e, int on)
{
    if (!e) return;
    atomic_store(&e->watching, on);
    for (int ev = 0; ev < e->nev; ev++)
        if (e->ev[ev].described) refresh_plan(e, ev);
}

int mpit_engine_event_readable(const mpit_engine_t *e, int ev)
{
    return e && ev >= 0 && ev < e->nev && e->ev[ev].described && !e->ev[ev].noread;
}

void mpit_engine_gate(mpit_engine_t *e)
{
    if (!e) return;
    e->gated = 1;
    for (int ev = 0; ev < e->nev; ev++)
        if (e->ev[ev].described) refresh_plan(e, ev);
}

/* A rule that becomes active starts afresh: what it shows is counted from
 * then on (a LEVEL rule counts items queued before as queued at now). */
static void rule_restart(rstate_t *r, uint64_t now)
{
    atomic_store(&r->wbeg, atomic_load(&r->wbeg) + 1); /* readers of the time retry */
    rule_clear(r);
    atomic_store(&r->t0, now);
    atomic_store(&r->wend, atomic_load(&r->wend) + 1);
}

/* active is the number of counters read, or RESTARTING while the thread
 * that took it from 0 clears the rule.  The others wait for that (why: a
 * set that starts reading takes its reference right after this returns;
 * taken before the restart it would see a COUNT's events from before). */
#define RESTARTING (-1)

int mpit_engine_activate(mpit_engine_t *e, int id, int delta, uint64_t now)
{
    if (!e || id < 0 || id >= e->nctr || !e->ctr[id].r) return -1; /* raw counters always run */
    rstate_t *r = e->ctr[id].r;
    int cur = atomic_load(&r->active), next;
    for (;;) {
        if (cur == RESTARTING) { /* a few microseconds: another set's activation */
            sched_yield();
            cur = atomic_load(&r->active);
            continue;
        }
        next = cur == 0 && delta > 0 ? RESTARTING : cur + delta;
        if (atomic_compare_exchange_weak(&r->active, &cur, next)) break;
    }
    if (next == RESTARTING) {
        rule_restart(r, now);
        atomic_store(&r->active, delta);
    }
    if ((cur == 0) != (cur + delta == 0))
        for (int ev = 0; ev < e->nev; ev++)
            if (e->ev[ev].described) refresh_plan(e, ev);
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
    refresh_plan(e, ev);
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

int mpit_engine_elements_to_read(const mpit_engine_t *e, int ev)
{
    const evstate_t *E;
    uint64_t m;
    int n;

    if (!e || ev < 0 || ev >= e->nev || !e->ev[ev].described || e->ev[ev].noread) return 0;
    E = &e->ev[ev];
    n = E->need;
    m = atomic_load_explicit(&((evstate_t *)E)->track, memory_order_relaxed);
    for (int i = 0; m; i++, m >>= 1)
        if ((m & 1) && i + 1 > n) n = i + 1;
    return n;
}

void mpit_engine_reset(mpit_engine_t *e, uint64_t t0)
{
    if (!e) return;
    atomic_store(&e->t0, t0);
    atomic_store(&e->dropped, 0);
    for (int i = 0; i < e->nev; i++) {
        evstate_t *E = &e->ev[i];
        atomic_store(&E->count, 0);
        for (int k = 0; k < E->nelem; k++) {
            atomic_store(&E->esum[k], 0);
            atomic_store(&E->emax[k], 0);
        }
    }
    for (int i = 0; i < e->nrows; i++) {
        rstate_t *r = e->rs ? e->rs[i] : NULL;
        if (!r) continue;
        atomic_store(&r->wbeg, 0);
        atomic_store(&r->wend, 0);
        rule_clear(r);
    }
}
