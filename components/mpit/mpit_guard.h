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

/* 1: entered, leave with mpit_guard_leave; 0: this thread is already inside. */
int mpit_guard_enter(void);
void mpit_guard_leave(void);

/* Around PAPI's overflow dispatch from the component's timer signal: reads
 * made there touch MPI only when the interrupted code was not in the
 * component. */
void mpit_guard_signal_begin(void);
void mpit_guard_signal_end(void);
int mpit_guard_in_signal(void);

#endif
