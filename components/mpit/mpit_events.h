/*
 * The event counters: MPI_T events (MPI 4.0) fed through the rule engine into
 * counters.  Set up once MPI runs (event types register during MPI_Init);
 * callbacks are registered on first use, so programs that count no event
 * pay nothing inside MPI.
 */
#ifndef MPIT_EVENTS_H
#define MPIT_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "mpit_backend.h"
#include "mpit_engine.h"

/* Builds the engine for the running MPI (idempotent; not before MPI_Init).
 * Returns 1 when there are events, 0 when not (mpit_events_why says why). */
int mpit_events_setup(void);
/* The engine is built and has event types (no MPI call). */
int mpit_events_ready(void);
const char *mpit_events_why(void);

int mpit_events_num_types(void);
const char *mpit_events_type_name(int index);
const char *mpit_events_type_desc(int index);
/* NULL, or why the running MPI's event data must never be read (then
 * element aggregates and per-sender counts are unavailable). */
const char *mpit_events_unreadable(void);
/* Name of element elem of event type index if :sum=/:max= apply to it
 * (an integer the engine can read), else NULL; past the last element too. */
const char *mpit_events_summable_element(int index, int elem);

/* Engine counter ids: derived counters are 0..num_derived-1. */
int mpit_events_num_derived(void);
int mpit_events_find(const char *engine_name);
int mpit_events_counter_info(int id, mpit_counter_info_t *info);

/* Registers the MPI callbacks (once); 0 on success, else -1 for every
 * caller, mpit_events_why saying which event type the MPI refused. */
int mpit_events_subscribe(void);
/* Restarts an extremum counter at PAPI_start/reset; no-op for others. */
void mpit_events_rearm(int id);
/* A set starts (+1) or stops (-1) reading counter id: the rule behind it
 * runs in the callbacks only while some set reads it. */
void mpit_events_activate(int id, int delta);
/* A GROUP rule's counts by value (mpit_engine_group_read). */
int mpit_events_group_read(int id, uint64_t *counts, int max, uint64_t *other);
/* 1 when mpit_events_read(id, now) uses now (decided once, when a set starts). */
int mpit_events_needs_now(int id);
/* Hot path: lock-free. */
int64_t mpit_events_read(int id, uint64_t now_ns);
uint64_t mpit_events_now(void);
/* Has the MPI deliver instances it holds back (unordered sources), at
 * PAPI_start and PAPI_stop: never from a read. */
void mpit_events_flush(void);

/* Every instance of every type, besides the counters (papi_mpit_watch_*):
 * fn runs inside MPI, as the callbacks do.  fn NULL stops.  0, or -1 when
 * the engine is not set up. */
typedef void (*mpit_events_watcher_t)(void *ctx, int index, uint64_t timestamp_ns, const int64_t *elements,
                                      int nelements);
int mpit_events_watch(mpit_events_watcher_t fn, void *ctx);
/* Type index as the MPI describes it (element names completed by the
 * backend), NULL past the last. */
const mpit_event_info_t *mpit_events_type(int index);
/* 0 when the running MPI's data for this type must not be read. */
int mpit_events_type_readable(int index);
/* Instances the MPI said it could not deliver. */
uint64_t mpit_events_dropped_by_mpi(void);

/* MPI is finalizing: callbacks were freed by the backend; keep the values. */
void mpit_events_forget(void);

#endif
