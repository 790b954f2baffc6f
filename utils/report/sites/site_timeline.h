/*
 * papi-mpit-report: each thread's last SITES_RING_CALLS completed MPI calls,
 * a ring per thread slot (site_current.h's slots, same index) in the rank's
 * mapped state file, for the timeline papi-mpit-merge writes of a run that
 * was killed (timeline/).  No MPI type here: the merge reads this layout.
 *
 * One writer per ring (the slot's thread), no lock: a call's record is
 * written in place of the oldest one with its seq at 0, then seq set to
 * the call's number + 1, then done advanced (release stores).  A reader
 * (after SIGKILL too) takes the records of calls done - SITES_RING_CALLS
 * to done - 1 whose seq matches: a record torn at death has seq 0 or an
 * older number, and is left out.
 */
#ifndef PAPI_MPIT_SITES_TIMELINE_H
#define PAPI_MPIT_SITES_TIMELINE_H

#include <stdint.h>

#define SITES_RING_CALLS 256 /* calls kept per thread slot: a power of two */

typedef struct sites_ring_call {
    uint32_t seq;           /* the call's number in its thread + 1; 0: being written */
    int16_t fn;             /* the call (sites_fn) */
    int16_t any;            /* 1: from any source, 2: any tag */
    int32_t peer, tag;      /* as in site_current.h */
    uint64_t pc, comm;      /* its site (as sites_current_t's), its communicator's key */
    int64_t sent, received; /* bytes */
    int64_t t0, t1;         /* entry and return, in the wrappers' ticks (state_map_head_t converts) */
} sites_ring_call_t;        /* 64 bytes */

typedef struct sites_ring {
    uint64_t done; /* calls completed in the thread */
    uint64_t pad[7];
    sites_ring_call_t calls[SITES_RING_CALLS];
} sites_ring_t;

/* The slot's thread, as its call returns. */
static inline void sites_ring_add(sites_ring_t *r, int fn, uint64_t pc, int peer, int tag, int any,
                                  uint64_t comm, long long sent, long long received, long long t0,
                                  long long t1)
{
    uint64_t n = r->done;
    sites_ring_call_t *e = &r->calls[n & (SITES_RING_CALLS - 1)];
    __atomic_store_n(&e->seq, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE); /* seq 0 lands before the fields change */
    e->fn = (int16_t)fn, e->any = (int16_t)any, e->peer = peer, e->tag = tag;
    e->pc = pc, e->comm = comm, e->sent = sent, e->received = received, e->t0 = t0, e->t1 = t1;
    __atomic_store_n(&e->seq, (uint32_t)(n + 1), __ATOMIC_RELEASE);
    __atomic_store_n(&r->done, n + 1, __ATOMIC_RELEASE);
}

/* A reader: call number i's record into *out, 1 when it is whole. */
static inline int sites_ring_get(const sites_ring_t *r, uint64_t i, sites_ring_call_t *out)
{
    const sites_ring_call_t *e = &r->calls[i & (SITES_RING_CALLS - 1)];
    if (__atomic_load_n(&e->seq, __ATOMIC_ACQUIRE) != (uint32_t)(i + 1)) return 0;
    *out = *e;
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return __atomic_load_n(&e->seq, __ATOMIC_RELAXED) == (uint32_t)(i + 1) && out->seq == (uint32_t)(i + 1);
}

#endif
