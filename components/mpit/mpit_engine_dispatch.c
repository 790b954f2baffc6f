/*
 * The engine's hot path: an MPI_T event instance applied to the rules that
 * run (mpit_engine_dispatch). No locks, no allocation, no I/O: C11 atomics
 * only, so it is async-signal-safe. Semantics of each rule kind are
 * documented at its code below.
 */
#include <stdatomic.h>
#include <stdint.h>
#include "mpit_engine_internal.h"

#define KEY_MIX  0x9E3779B97F4A7C15ull
#define SEQ_INIT (1ull << 63) /* SEQUENCE state word: baseline seen */

/* ------------------------------------------------------------------ util */

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
     * else all (engine_refresh_plan keeps the mask) */
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
