/*
 * MPI-agnostic event rule engine: turns a stream of MPI_T event instances
 * (type id, timestamp, integer elements) into derived counters defined by the
 * rule rows of mpit_rules.h. No MPI types cross this interface.
 *
 * Phases (why: the hot path must not lock or allocate, so everything it
 * touches is built before the first callback can fire):
 *   1. setup, single-threaded, may allocate: create, describe_event for each
 *      event type of the running MPI, bind the rule table;
 *   2. hot path, any thread, concurrently, inside MPI callbacks: dispatch;
 *   3. read, any thread, concurrently with dispatch: read, counter_info,
 *      find_counter, raw_counter, elements_to_read, rearm.
 * reset and destroy need quiescence: no dispatch may run.
 *
 * Counter ids: derived counters (rules, plus "dropped") are 0..num_counters-1;
 * raw per-event-type counters get other ids from find_counter/raw_counter.
 * Timestamps are nanoseconds of one clock (the MPI_T source's, scaled).
 */
#ifndef MPIT_ENGINE_H
#define MPIT_ENGINE_H

/* the engine's own counter of events it could not apply (derived.dropped) */
#define MPIT_ENGINE_DROPPED "dropped"

#include <stddef.h>
#include <stdint.h>

#include "mpit_backend.h" /* MPIT_PLAN_* */
#include "mpit_rules.h"

typedef struct mpit_engine mpit_engine_t;

/* Kind of an event element. Only integers can be keys or values. */
enum mpit_elem_kind { MPIT_ELEM_SIGNED, MPIT_ELEM_UNSIGNED, MPIT_ELEM_OTHER };

/* How to read a counter: RUNNING only grows, report end minus start;
 * ABSOLUTE is a level, high-water mark, minimum or mean: report as read. */
enum mpit_value_kind { MPIT_VALUE_RUNNING, MPIT_VALUE_ABSOLUTE };

/* Raw per-event-type counters (for mpit:::event.<name>[:sum=e|:max=e]). */
enum mpit_raw_what { MPIT_RAW_COUNT, MPIT_RAW_SUM, MPIT_RAW_MAX };

typedef struct mpit_counter_info {
    const char *name; /* "unexpected_queue.max", "dropped", "<event>:sum=<elem>" */
    const char *desc;
    const char *units; /* "messages", "ns", "bytes", "events" ... */
    int value_kind;    /* enum mpit_value_kind */
} mpit_counter_info_t;

/* Key tables (PAIR, keyed LEVEL, SEQUENCE) hold table_slots entries per rule
 * (rounded up to a power of two; 0 = 4096). Event type ids are
 * 0..num_event_types-1, the MPI_T event indices. */
mpit_engine_t *mpit_engine_create(int num_event_types, int table_slots);
void mpit_engine_destroy(mpit_engine_t *eng);

/* Setup: one call per event type. elem_names[i] may be NULL or "" when the
 * MPI does not name the element; it is then known as "<i>" (and "#i" in rule
 * rows). Returns 0, or -1 on a bad argument or after bind. */
int mpit_engine_describe_event(mpit_engine_t *eng, int id, const char *name, int nelem,
                               const char *const *elem_names, const int *elem_kinds);
/* Setup: the MPI's data of event type id must never be read (a defect of
 * the running release); rules that need it are unavailable. */
void mpit_engine_forbid_reading(mpit_engine_t *eng, int id);

/* Setup: checks every row against the described events and builds the
 * counters of the available ones. t0_ns is "now" on the event clock (items
 * found queued are counted from it); 0 = the first dispatched timestamp.
 * Returns the number of derived counters, or -1 (out of memory: destroy the
 * engine). Once only; rows must outlive the engine. */
int mpit_engine_bind(mpit_engine_t *eng, const mpit_rule_t *rules, int nrules, uint64_t t0_ns);

/* 1 if a row named rule_name is active, else 0 with the reason in why. */
int mpit_engine_rule_available(const mpit_engine_t *eng, const char *rule_name, char *why, size_t why_len);

/* 0, or -1 for an unknown id. Strings live as long as the engine. */
int mpit_engine_counter_info(const mpit_engine_t *eng, int id, mpit_counter_info_t *info);

/* Id of a derived counter, "dropped", "<event>", "<event>:sum=<elem>" or
 * "<event>:max=<elem>" (event names exactly as described); -1 if none.
 * Looking up a :sum/:max counter starts tracking that element (why: sums and
 * maxima of every element of every event would cost atomics on each event);
 * its sum and maximum cover events from then on. */
int mpit_engine_find_counter(mpit_engine_t *eng, const char *name);
/* Same by numbers: what = MPIT_RAW_*, elem ignored for COUNT. */
int mpit_engine_raw_counter(mpit_engine_t *eng, int event_id, int what, int elem);
/* Name of element elem of an event type when it can be aggregated with
 * :sum=/:max= (an integer the front end reads), else NULL.  Starts no
 * tracking: for listings. */
const char *mpit_engine_summable_element(const mpit_engine_t *eng, int event_id, int elem);

/* How many leading elements the front end must read and pass for this event
 * type: 0 when a rule marks its data unreadable (MPIT_REF_NOREAD), else
 * enough for the bound rules and tracked elements. Cheap: call it in the
 * callback (tracking can start while events flow). */
int mpit_engine_elements_to_read(const mpit_engine_t *eng, int event_id);

/* Hot path. No locks, no allocation, no I/O; C11 atomics. Work per rule is
 * bounded (key tables probe at most 32 slots); the only loops are CAS
 * retries of a maximum, minimum or sequence word, which fail only when
 * another thread made progress. Setup must happen-before the first call
 * (registering the MPI callbacks after bind provides that).
 * elements may be NULL with nelements 0. Events the tables cannot hold, with
 * too few elements for a rule, or of an unknown type are counted in "dropped". */
void mpit_engine_dispatch(mpit_engine_t *eng, int event_type_id, uint64_t timestamp_ns,
                          const int64_t *elements, int nelements);

/* Lock-free read; now_ns matters only for LEVEL ".time" and ".mean" (depth
 * integrated up to now). Unknown ids read 0. */
int64_t mpit_engine_read(mpit_engine_t *eng, int counter_id, uint64_t now_ns);

/* Restart an extremum (".max", ".min", ".wait_min", ".wait_max", MAX rules,
 * :max=): queue high-water marks restart from the current depth, others from
 * empty. For PAPI_start/PAPI_reset. Racy with dispatch only in that an
 * update landing during the call may be lost. Returns 0, or -1 if not one. */
int mpit_engine_rearm(mpit_engine_t *eng, int counter_id);
/* Rules run only while one of their counters is read (mpit_engine_activate):
 * the component's engine is gated; a fresh engine runs every rule. */
void mpit_engine_gate(mpit_engine_t *eng);
/* delta +1 when a counter starts being read, -1 when it stops; a rule that
 * becomes active starts afresh at now (ns), and a caller that finds another
 * thread restarting the rule waits for it (not for the hot path: sets
 * starting and stopping).  Raw event counters always run. */
int mpit_engine_activate(mpit_engine_t *eng, int counter_id, int delta, uint64_t now);
/* The callback's plan for event type ev, kept current by the engine: the
 * low bits say how many leading elements to read, MPIT_PLAN_TIME whether a
 * running rule needs the timestamp. */
const _Atomic unsigned *mpit_engine_event_plan(mpit_engine_t *eng, int ev);

/* on 1: the plan of every event type asks for all its elements (unless its
 * data is unreadable) and the timestamp, for a watcher of every instance;
 * on 0: back to what the running rules need. */
void mpit_engine_watch(mpit_engine_t *eng, int on);
/* 0 when a rule marks the event type's data unreadable (MPIT_REF_NOREAD). */
int mpit_engine_event_readable(const mpit_engine_t *eng, int ev);

/* GROUP rules: the counts by value behind counter id (any of the rule's
 * counters): counts[0..max-1], and in *other what has no slot among those.
 * Returns how many counts were filled, or -1. */
int mpit_engine_group_read(const mpit_engine_t *eng, int counter_id, uint64_t *counts, int max,
                           uint64_t *other);

/* 1 when reading the counter needs the current time (residence times). */
int mpit_engine_needs_now(const mpit_engine_t *eng, int counter_id);

/* Zero every statistic and key table; quiescent only. */
void mpit_engine_reset(mpit_engine_t *eng, uint64_t t0_ns);

#endif
