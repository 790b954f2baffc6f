/*
 * Shared between the engine's files (not an interface: mpit_engine.h is).
 * The order of use has no cycle: mpit_engine_bind.c and mpit_engine_read.c
 * use mpit_engine_activate.c; mpit_engine_dispatch.c, the hot path, uses
 * none of them.
 */
#ifndef MPIT_ENGINE_INTERNAL_H
#define MPIT_ENGINE_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "mpit_engine.h"

#define MAX_ELEMS  64 /* per event type: the tracking mask is 64 bits */
#define RAW_BASE   (1 << 28)
#define RAW_STRIDE (1 + 2 * MAX_ELEMS)

/* Key table words. A digest never takes the two reserved values. */
#define KEY_EMPTY 0u
#define KEY_BUSY  1u
#define BIAS      (1ull << 63) /* signed maxima are stored biased: one unsigned compare */

typedef _Atomic uint64_t au64;

typedef struct slot {
    au64 key; /* KEY_EMPTY, KEY_BUSY (being changed) or a digest */
    au64 val; /* begin/insert timestamp, or SEQUENCE state word */
} slot_t;

/* State of one active rule. Which fields a kind uses is listed at its code. */
typedef struct rstate {
    const mpit_rule_t *row;
    int keyed, val_signed, seq_bits;
    au64 n, sum, min, max, unmatched, removes, hwm, sum_ins, sum_rem;
    au64 wbeg, wend, last_time;
    /* COUNT and LEVEL by count: what they count is the event types' own
     * count (evstate count) since the rule started: src[ref] - base[ref],
     * no work per event (src NULL for other kinds) */
    au64 *src[2];
    au64 base[2];
    _Atomic int64_t depth;
    _Atomic int active; /* gated engines: counters of this rule being read */
    au64 *groups;       /* GROUP: MPIT_GROUP_SLOTS counts by value; other in unmatched */
    au64 t0;            /* gated engines: when the rule became active */
    slot_t *slots;
    uint64_t mask;
    int probe;
} rstate_t;

enum op { OP_NONE, OP_SUM, OP_MAX, OP_BEGIN, OP_END, OP_INSERT, OP_REMOVE, OP_ARRIVE, OP_GROUP };

typedef struct action {
    int op, need, nk, nval;       /* nval: GROUP's value and scope elements */
    int idx[MPIT_RULE_MAX_ELEMS]; /* keys, or the value; SEQUENCE: keys then sequence */
    rstate_t *r;
} action_t;

typedef struct evstate {
    char *name;
    int described, nelem, noread, need, nact;
    char **elem; /* element names ("<i>" when unnamed) */
    int *kind;
    char **raw_name;       /* RAW_STRIDE names: event, then :sum= and :max= per element */
    au64 count, track;     /* track: elements whose sum/max are kept */
    _Atomic unsigned plan; /* for the callback: elements to read | PLAN_TIME */
    au64 running;          /* bit i: action i runs (its rule is active, or the engine is not gated) */
    uint64_t bare;         /* bit i: action i is a LEVEL by count (dispatch's fast path) */
    au64 *esum, *emax;
    action_t *act;
} evstate_t;

enum field {
    F_DROPPED,
    F_VALUE,
    F_OOS,
    F_ARRIVALS,
    F_COUNT,
    F_TOTAL,
    F_MIN,
    F_MAX,
    F_MEAN,
    F_UNMATCHED,
    F_INSERTS,
    F_REMOVES,
    F_DEPTH,
    F_HWM,
    F_TIME,
    F_LMEAN
};

typedef struct counter {
    char *name, *desc;
    const char *units;
    int vkind, field;
    rstate_t *r;
} counter_t;

struct mpit_engine {
    int nev, slots, bound, nrows, nctr;
    int gated;           /* rules run only while active (mpit_engine_gate) */
    atomic_int watching; /* a watcher wants every element and timestamp */
    evstate_t *ev;
    const mpit_rule_t *rows;
    int *row_active;
    char **row_why;
    rstate_t **rs;
    counter_t *ctr;
    au64 t0, dropped;
};

/* What the callback must fetch for event ev, and which of its actions run
 * (mpit_engine_activate.c); not for the hot path. */
void engine_refresh_plan(mpit_engine_t *e, int ev);

#endif
