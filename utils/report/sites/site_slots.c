/*
 * papi-mpit-report: the calls in progress, one slot per thread (at most
 * SITES_THREADS), each written by its thread alone and read by a snapshot
 * (site_current.h), in the rank's mapped state file where it has one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <sys/syscall.h>
#include <unistd.h>

#include "site_private.h"
#include "site_table.h"

int sites_mt;
/* ---- the calls in progress */
/* in the rank's mapped state file where it has one (sites_place), so
 * that they outlive the process however it ends */
static sites_slot_t slots_own[SITES_THREADS], *slots = slots_own;
static int nslots;
static long long slots_overflow;
__thread sites_slot_t *sites_my_slot __attribute__((tls_model("initial-exec")));
__thread int sites_my_slot_tried __attribute__((tls_model("initial-exec")));
static sites_ring_t *rings; /* each slot's last calls: in the mapped file only */

/* the thread's first counted call */
sites_slot_t *sites_slot_claim(void)
{
    sites_my_slot_tried = 1;
    int i = __atomic_fetch_add(&nslots, 1, __ATOMIC_RELAXED);
    if (i >= SITES_THREADS) {
        ADD(&slots_overflow, 1);
        return NULL;
    }
    long tid = (long)syscall(SYS_gettid);
    for (int k = 0; k < 2; k++) slots[i].rec[k].fn = -1, slots[i].rec[k].tid = tid;
    return sites_my_slot = &slots[i];
}

void sites_mark(sites_call_t *c, int peer, int tag, MPI_Comm comm)
{
    sites_slot_t *s = sites_slot();
    if (!s) return;
    int any = peer == MPI_ANY_SOURCE;
    sites_set_slot(s, c->fn, sites_slot_pc(c), c->t0, any ? -1 : sites_world_rank(comm, peer), tag, any,
                   tag == MPI_ANY_TAG, sites_key(comm));
}

void sites_slots_place(sites_slot_t *area, sites_ring_t *ring_area)
{
    slots = area;
    rings = ring_area;
    /* a reader of the file sees no call in a slot no thread has claimed */
    for (int i = 0; i < SITES_THREADS; i++) slots[i].rec[0].fn = slots[i].rec[1].fn = -1;
}

void sites_slots_end(void) { rings = NULL; }

/* the call as its slot holds it (every counted call marks it), into its ring */
static inline void ring_add(const sites_call_t *c, long long t1)
{
    const sites_current_t *k = &sites_my_slot->rec[sites_my_slot->seq & 1];
    sites_ring_add(&rings[sites_my_slot - slots], c->fn, sites_slot_pc(c), k->peer, k->tag,
                   k->any_source | k->any_tag << 1, k->comm, c->sent, c->received, c->t0, t1);
}

void sites_slot_leave(const sites_call_t *c, long long t1)
{
    if (!sites_my_slot) return;
#if !defined(SITES_NO_TIMELINE) /* bench/report_timeline.sh builds without it, to measure it */
    if (rings) ring_add(c, t1);
#endif
    /* the call is over: no call (the tid is set once in both copies), and since when */
    sites_current_t *r = sites_slot_next(sites_my_slot);
    r->fn = -1, r->since = t1;
    sites_slot_publish(sites_my_slot);
}

int sites_current(sites_current_t *out, int max, int *n)
{
    int k = 0, have = __atomic_load_n(&nslots, __ATOMIC_ACQUIRE);
    if (have > SITES_THREADS) have = SITES_THREADS;
    for (int i = 0; i < have && k < max; i++) {
        if (!sites_slot_read(&slots[i], &out[k])) continue;
        /* since: from the wrappers' ticks to sites_now_ns() */
        if (out[k].fn >= 0 && sites_use_tsc) out[k].since = sites_clock_ns(out[k].since);
        k++;
    }
    *n = k;
    return k ? 0 : -1;
}
