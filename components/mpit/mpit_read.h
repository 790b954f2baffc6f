/*
 * The read path of an event set (mpit_control.h): the plan decided when the
 * set starts, the hot read, and the reset that reuses a read's values.
 */
#ifndef MPIT_READ_H
#define MPIT_READ_H

#include <stdint.h>

#include "mpit_control.h"
#include "papi.h"

/* One slot, read on its own (references, rebinding): MPIT_OK or an error.
 * now_ns: the event clock, fetched at most once per call sequence. */
int mpit_read_slot(mpit_slot_t *s, mpit_value_t *v, uint64_t *now_ns);

/* Decides, once the set's slots are bound, how each is read. */
void mpit_read_plan(mpit_control_t *cs);
/* Frees the plan's backend batch (before the handles go). */
void mpit_read_unplan(mpit_control_t *cs);

/* The slots' references changed (a reset that read MPI): the plan takes them. */
void mpit_read_take_starts(mpit_control_t *cs);

/* What the tight loop of mpit_read_all does not do: the variables from
 * position first of the plan on (got of them read), then the event
 * counters.  Apart, so that a read of counters and plain values only keeps
 * no registers for it. */
void mpit_read_others(mpit_control_t *cs, int first, int got);

/* A batch read that failed (rc) for the variables in failed: each of
 * them keeps its value (and is named on stderr later), the others are read. */
int mpit_read_partial(mpit_control_t *cs, int rc, uint64_t failed);

/* Hot path: reads every bound slot into cs->values; inline, so that the
 * component's PAPI_read makes one call, into the backend. */
static inline int mpit_read_all(mpit_control_t *cs)
{
    int n = cs->num_pvars, c = cs->num_plain;
    uint64_t failed = 0;
    int rc = n ? cs->batch_read(cs->batch, &failed) : MPIT_OK;
    if (rc != MPIT_OK) return mpit_read_partial(cs, rc, failed);
    for (int k = 0; k < c; k++) cs->values[cs->pvar_slot[k]] = cs->counter_last[k] - cs->counter_start[k];
    if (c < n || n < cs->num) mpit_read_others(cs, c, n);
    cs->fresh = 1;
    return PAPI_OK;
}

/* The component's PAPI_read of a set (TAU and Caliper read on every region
 * entry and exit): inline, with one test for the rare cases.  It goes
 * straight to the backend: no name is looked up, nothing is bound. */
static inline int mpit_read_set(mpit_control_t *cs, long long **values)
{
    *values = cs->values;
    if (atomic_load_explicit(&mpit_control_gone, memory_order_acquire)) return PAPI_OK; /* last values */
    return mpit_read_all(cs);
}

/* PAPI_reset right after a complete read: the read's values become the
 * reference, with no call into MPI.  0 when there was no such read. */
int mpit_read_reset_from_last(mpit_control_t *cs);

#endif
