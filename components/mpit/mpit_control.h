/*
 * One PAPI event set of the mpit component: its MPI_T session, one handle per
 * event, and the arithmetic that turns MPI_T values into PAPI counts.
 */
#ifndef MPIT_CONTROL_H
#define MPIT_CONTROL_H

#include "mpit_backend.h"
#include "mpit_values.h"

#define MPIT_MAX_EVENTS 64

typedef struct mpit_slot {
    int code;                 /* catalog code */
    mpit_handle_t *handle;    /* NULL while not bound */
    int source;               /* enum mpit_source_kind */
    int engine_id;            /* MPIT_SOURCE_EVENT */
    int64_t scale;
    int count, dtype, elem, read_kind, continuous, is_float;
    void *raw;                /* count elements of dtype, read by MPI_T */
    mpit_value_t start;       /* value at start or reset (DELTA) */
    mpit_value_t extreme;     /* running max or min (HIGH, LOW) */
    int have_extreme;
    int shared_key;           /* MPI_T index of a reset-on-read watermark, else -1 */
    int watermark_cell;       /* mpit_watermarks cell while started, else -1 */
} mpit_slot_t;

typedef struct mpit_control {
    int num;
    mpit_slot_t slot[MPIT_MAX_EVENTS];
    long long values[MPIT_MAX_EVENTS];
    mpit_session_t *session;
    int bound;                /* handles exist for every slot that can have one */
    int bound_before_mpi;     /* bound before MPI_Init: bind again once MPI runs */
    int running;
    int failed;               /* slot of the last error, -1 when the set as a whole */
} mpit_control_t;

void mpit_control_set_backend(const mpit_backend_t *backend);
/* MPI is finalizing: from now on reads return the last values. */
void mpit_control_mpi_gone(void);

/* Replaces the events of the set; checks each can be added. */
int mpit_control_update(mpit_control_t *cs, const int *codes, int num, char *why, int why_len);
int mpit_control_start(mpit_control_t *cs, char *why, int why_len);
int mpit_control_read(mpit_control_t *cs, long long **values);
int mpit_control_stop(mpit_control_t *cs);
int mpit_control_reset(mpit_control_t *cs);
void mpit_control_cleanup(mpit_control_t *cs);

#endif
