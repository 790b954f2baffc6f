/*
 * papi-mpit-report: the calls in progress, one slot per thread (at most
 * SITES_THREADS), each written by its thread alone and read by a snapshot
 * (site_current.h), in the rank's mapped state file where it has one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include "site_private.h"
#include "site_table.h"

static sites_ring_t *rings; /* each slot's last calls: in the mapped file only */

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
    /* in the rank's mapped state file, so that they outlive the process
     * however it ends */
    sites_slots = area;
    rings = ring_area;
    /* a reader of the file sees no call in a slot no thread has claimed */
    for (int i = 0; i < SITES_THREADS; i++) sites_slots[i].rec[0].fn = sites_slots[i].rec[1].fn = -1;
}

void sites_slots_end(void) { rings = NULL; }

/* the call as its slot holds it (every counted call marks it), into its ring */
static inline void ring_add(const sites_call_t *c, long long t1)
{
    const sites_current_t *k = &sites_my_slot->rec[sites_my_slot->seq & 1];
    sites_ring_add(&rings[sites_my_slot - sites_slots], c->fn, sites_slot_pc(c), k->peer, k->tag,
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
    int k = 0, have = __atomic_load_n(&sites_nslots, __ATOMIC_ACQUIRE);
    if (have > SITES_THREADS) have = SITES_THREADS;
    for (int i = 0; i < have && k < max; i++) {
        if (!sites_slot_read(&sites_slots[i], &out[k])) continue;
        /* since: from the wrappers' ticks to sites_now_ns() */
        if (out[k].fn >= 0 && sites_use_tsc) out[k].since = sites_clock_ns(out[k].since);
        k++;
    }
    *n = k;
    return k ? 0 : -1;
}
