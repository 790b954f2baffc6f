/*
 * Which thread is inside the component.  Tools call PAPI from their MPI
 * wrappers and from signal handlers (PAPI's software overflow reads inside
 * SIGPROF): a call that reaches the component while the same thread is
 * already in it must never wait for itself.  Each entry point enters the
 * guard; a nested entry is refused, and the caller answers at once (a read
 * with the last values, anything else with MPIT_REENTERED).
 */
#ifndef MPIT_GUARD_H
#define MPIT_GUARD_H

#include "papi.h"

/* PAPI's code for "access to the counters was interrupted": the call came
 * from inside the component on the same thread (signal handler, tool hook). */
#define MPIT_REENTERED PAPI_ECLOST

/* initial-exec: plain loads and stores, no __tls_get_addr (which may
 * allocate) inside a signal handler; inline, since every PAPI_read passes. */
extern __thread int mpit_guard_inside __attribute__((tls_model("initial-exec")));
extern __thread int mpit_guard_signal_depth __attribute__((tls_model("initial-exec")));

/* 1: entered, leave with mpit_guard_leave; 0: this thread is already inside. */
static inline int mpit_guard_enter(void)
{
    if (mpit_guard_inside) return 0;
    mpit_guard_inside = 1;
    return 1;
}

static inline void mpit_guard_leave(void) { mpit_guard_inside = 0; }

/* The body of an entry point that may call MPI or take a lock: returns
 * call's result, or MPIT_REENTERED at once on a nested call. */
#define GUARDED(call)                                                                                        \
    do {                                                                                                     \
        if (!mpit_guard_enter()) return MPIT_REENTERED;                                                      \
        int guarded_err = (call);                                                                            \
        mpit_guard_leave();                                                                                  \
        return guarded_err;                                                                                  \
    } while (0)

/* Around PAPI's overflow dispatch from the component's timer signal: reads
 * made there touch MPI only when the interrupted code was not in the
 * component, and never bind. */
static inline void mpit_guard_signal_begin(void) { mpit_guard_signal_depth++; }
static inline void mpit_guard_signal_end(void) { mpit_guard_signal_depth--; }
static inline int mpit_guard_in_signal(void) { return mpit_guard_signal_depth > 0; }

#endif
