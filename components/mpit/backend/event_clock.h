/*
 * The clock of event timestamps, and of "now" when a residence time is read:
 * one clock for both, since a LEVEL rule's time is
 * Σremove − Σinsert + depth·now and mixing clocks would leave an offset per
 * queued item.
 *
 * MPI_T_event_get_timestamp gives the time the MPI raised the event; where
 * the family calls the callback synchronously, on the raising thread, right
 * after taking that timestamp (MPICH: MPIR_T_event_instance), a clock read
 * in the callback is the same instant plus the rest of MPI's delivery, the
 * same few dozen instructions for every event, which cancel in
 * remove − insert.  So there the callback reads a clock of its own, far
 * cheaper than the MPI_T call: the TSC where the kernel itself keeps time
 * with it (invariant, synchronized across CPUs), scaled to ns once at
 * setup, else CLOCK_MONOTONIC.  A family that may deliver later keeps the
 * MPI's timestamps (EVENT_CLOCK_MPI), and "now" comes from its source.
 */
#ifndef MPIT_EVENT_CLOCK_H
#define MPIT_EVENT_CLOCK_H

#include <stdint.h>

enum event_clock_kind { EVENT_CLOCK_MPI, EVENT_CLOCK_MONOTONIC, EVENT_CLOCK_TSC };

struct event_clock {
    int kind;      /* enum event_clock_kind */
    uint64_t tsc0; /* TSC: ns = ns0 + ((tsc - tsc0) * mult) >> 32 */
    uint64_t ns0;
    uint64_t mult;
};

/* Written once by backend_clock_setup before any callback is registered. */
extern struct event_clock backend_clock;

/* Chooses the clock (setup only, may take about 0.2 ms to scale the TSC).
 * synchronous: the family calls callbacks where it raises the event.
 * $PAPI_MPIT_EVENT_CLOCK (mpi, monotonic, tsc) overrides the choice where
 * that clock can be used. */
void backend_clock_setup(int synchronous);

/* CLOCK_MONOTONIC in ns; out of line, so that a callback reading the TSC
 * keeps no stack frame for it. */
uint64_t backend_clock_monotonic(void);

/* The TSC in ns, when the chosen clock is EVENT_CLOCK_TSC: a TSC read (not
 * serializing), a multiply and a shift, in registers. */
static inline uint64_t backend_clock_tsc(void)
{
#if defined(__x86_64__)
    uint64_t ticks = __builtin_ia32_rdtsc() - backend_clock.tsc0;
    return backend_clock.ns0 + (uint64_t)(((unsigned __int128)ticks * backend_clock.mult) >> 32);
#else
    return 0; /* never chosen */
#endif
}

/* Now in ns on the chosen clock, unless it is EVENT_CLOCK_MPI. */
static inline uint64_t backend_clock_now(void)
{
    return backend_clock.kind == EVENT_CLOCK_TSC ? backend_clock_tsc() : backend_clock_monotonic();
}

#endif
