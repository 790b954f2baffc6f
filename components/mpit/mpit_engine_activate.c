/*
 * Which rules run and what the callback fetches: a gated engine runs a rule
 * only while one of its counters is read, and restarts it when it becomes
 * active; each event type's plan (elements to read, timestamp or not) is
 * kept current for the callback. Not the hot path: activation may wait.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include "mpit_engine_internal.h"

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
void engine_refresh_plan(mpit_engine_t *e, int ev)
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
        if (e->ev[ev].described) engine_refresh_plan(e, ev);
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
        if (e->ev[ev].described) engine_refresh_plan(e, ev);
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
            if (e->ev[ev].described) engine_refresh_plan(e, ev);
    return 0;
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
