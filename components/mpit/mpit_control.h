/*
 * One PAPI event set of the mpit component: its MPI_T session, one handle per
 * event, and the arithmetic that turns MPI_T values into PAPI counts.
 */
#ifndef MPIT_CONTROL_H
#define MPIT_CONTROL_H

#include <stdatomic.h>

#include "mpit_backend.h"
#include "mpit_values.h"

#define MPIT_MAX_EVENTS 64

typedef struct mpit_slot {
    int code;              /* catalog code */
    mpit_handle_t *handle; /* NULL while not bound */
    int source;            /* enum mpit_source_kind */
    int engine_id;         /* MPIT_SOURCE_EVENT */
    int64_t scale;
    int count, dtype, elem, read_kind, continuous, is_float;
    void *raw;            /* count elements of dtype, read by MPI_T */
    mpit_value_t start;   /* value at start or reset (DELTA) */
    mpit_value_t extreme; /* running max or min (HIGH, LOW) */
    int have_extreme;
    int activated;      /* counts as a reader of its event rule (mpit_events_activate) */
    int shared_key;     /* MPI_T index of a reset-on-read watermark, else -1 */
    int watermark_cell; /* mpit_watermarks cell while started, else -1 */
    /* decided when the set starts (the read plan) */
    int op;            /* enum mpit_read_op: how a read computes the value */
    int needs_now;     /* an event counter that reads the clock */
    mpit_value_t last; /* source value at the last read (reset takes it) */
    /* a mended watermark (mpit_metric_source_t.level): the level [0] and the
     * queue length [1] read with it */
    mpit_handle_t *mend[2];
    void *mend_raw[2];
    int mend_count[2], mend_dtype[2];
} mpit_slot_t;

typedef struct mpit_control {
    int num;
    mpit_slot_t slot[MPIT_MAX_EVENTS];
    long long values[MPIT_MAX_EVENTS];
    mpit_session_t *session;
    int bound;            /* handles exist for every slot that can have one */
    int bound_before_mpi; /* bound before MPI_Init: bind again once MPI runs */
    int running;
    int failed; /* slot of the last error, -1 when the set as a whole */
    /* the read plan: the bound variables, read with one backend call; the
     * first num_counters of them are single 64-bit counters, then up to
     * num_plain single 64-bit current values (a start of 0): their values
     * come from one tight loop over counter_start/counter_last */
    int num_pvars, num_counters, num_plain;
    mpit_batch_t *batch; /* the backend's copy of handles and buffers */
    int (*batch_read)(const mpit_batch_t *batch, uint64_t *failed); /* the backend's, taken with the plan */
    mpit_handle_t *pvar_handles[MPIT_MAX_EVENTS];
    void *pvar_bufs[MPIT_MAX_EVENTS];
    unsigned char pvar_slot[MPIT_MAX_EVENTS];
    int64_t counter_start[MPIT_MAX_EVENTS];
    int64_t counter_last[MPIT_MAX_EVENTS];
    int needs_now; /* some event counter reads the clock */
    /* 1 + a slot whose read failed (its value kept), said on stderr by the
     * next call outside the read (no I/O in a read; and no error code:
     * PAPI_stop reads first, and a set whose read fails cannot be stopped) */
    int read_failed;
    int fresh; /* the last call was a complete read: a reset can take its values */
    /* 1 + its cell while it waits for papi_mpit_after_init (mpit_waiting.c), else 0 */
    int waiting_cell;
} mpit_control_t;

/* MPI is finalizing: from now on reads return the last values. */
void mpit_control_mpi_gone(void);
extern atomic_int mpit_control_gone; /* set by it (read inline on the read path) */

/* Replaces the events of the set; checks each can be added. */
int mpit_control_update(mpit_control_t *cs, const int *codes, int num, char *why, int why_len);
int mpit_control_start(mpit_control_t *cs, char *why, int why_len);
/* A set started before MPI_Init, once MPI runs: binds what waited for
 * MPI_Init (the set's part of the catch-up), at the first call on the set
 * after MPI_Init, before that call does its own work; no-op otherwise.  A
 * read (mpit_read_set) never binds. */
void mpit_control_catch_up(mpit_control_t *cs);
int mpit_control_stop(mpit_control_t *cs);
int mpit_control_reset(mpit_control_t *cs);
void mpit_control_cleanup(mpit_control_t *cs);

#endif
