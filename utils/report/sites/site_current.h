/*
 * papi-mpit-report: a thread's call in progress, as the wrappers keep it
 * (site_slots.c) and as a reader in another process finds it in the rank's
 * mapped state file (collect/report_state_map.h): no MPI type here, so
 * that papi-mpit-merge reads the same layout.
 *
 * Read from any thread, a signal handler or another process; written by
 * the slot's own thread without a lock, into two copies in turn: seq says
 * which is complete (rec[seq & 1]), and is stored after the copy is.  A
 * reader keeps its copy of rec[seq & 1] when seq did not move meanwhile,
 * so it never sees a torn call; a process killed in the middle of a write
 * (SIGKILL, a segfault) leaves seq on the last complete one.
 */
#ifndef PAPI_MPIT_SITES_CURRENT_H
#define PAPI_MPIT_SITES_CURRENT_H

#include <stdint.h>

#define SITES_THREADS 64 /* threads whose current call is kept; more are counted in sites_current */
#define SITES_NO_TAG  (-2147483647 - 1)

typedef struct sites_current {
    int fn;          /* the call (sites_fn), -1: none */
    uintptr_t pc;    /* its site */
    long long since; /* its entry (with no call: the last one's end): sites_ticks() in a slot,
                        sites_now_ns() in sites_current's copy */
    int peer;        /* world rank of the peer or root, -1: none or any (see any_source) */
    int tag;         /* the tag, SITES_NO_TAG for none (MPI_ANY_TAG is any_tag) */
    int any_source, any_tag;
    uintptr_t comm; /* the communicator's handle, as a key (sites_key) */
    long tid;       /* the thread's id (gettid) */
} sites_current_t;

typedef struct sites_slot {
    unsigned seq; /* updates so far: rec[seq & 1] is the last complete one */
    unsigned pad;
    sites_current_t rec[2];
} sites_slot_t;

/* The slot's thread: the copy to fill next (then sites_slot_publish). */
static inline sites_current_t *sites_slot_next(sites_slot_t *s)
{
    /* the previous publish is seen before any store to the copy it freed */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return &s->rec[(s->seq + 1) & 1];
}
static inline void sites_slot_publish(sites_slot_t *s)
{
    __atomic_store_n(&s->seq, s->seq + 1, __ATOMIC_RELEASE);
}

/* One consistent copy of the slot's last call into *out: 1, or 0 when its
 * writer kept moving through every try. */
static inline int sites_slot_read(const sites_slot_t *s, sites_current_t *out)
{
    for (int tries = 0; tries < 100; tries++) {
        unsigned a = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
        *out = s->rec[a & 1];
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(&s->seq, __ATOMIC_RELAXED) == a) return 1;
    }
    return 0;
}

#endif
