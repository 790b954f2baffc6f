/*
 * papi-mpit-report: one rank's measurement, shared by the files that make
 * it (collect/report_rank.c and the files it names) and the interposer's
 * entry points above them (interpose/): the events and their event sets,
 * the helper thread that runs them, the unexpected messages by sender, the
 * rank's record, the snapshots of its state.  Everything here is the
 * interposer's own (the rank_ prefix keeps it apart from the program's
 * names: the library is preloaded into it).
 */
#ifndef PAPI_MPIT_REPORT_RANK_H
#define PAPI_MPIT_REPORT_RANK_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include "report.h"

/* the interposer's own: out of the program's symbol lookup (it is
 * preloaded into the program, whose names come first) */
#pragma GCC visibility push(hidden)

#define PFX      "papi-mpit-report: "
#define MAX_SETS 16

/* ev_t.quiet: how a skipped event is reported */
enum { SAY_EACH, SAY_NOTHING, SAY_FOLDED /* defaults: one line for all */ };

enum state { ST_NONE, ST_INIT, ST_RUNNING, ST_DONE };
extern enum state rank_state;

typedef struct ev {
    char name[REPORT_NAME_LEN];
    char units[REPORT_UNITS_LEN];
    char reason[REPORT_REASON_LEN]; /* why it was skipped */
    int quiet;                      /* SAY_*: how a skip is reported */
    int set, pos;                   /* event set slot and position, set < 0 if skipped */
    int code, cidx;                 /* PAPI's, once resolved */
    int deferred;                   /* to be added by the application's thread */
    int is_fp;
    int sampled; /* a maximum kept over what reads see (report_sample.c) */
    long long value;
} ev_t;

typedef struct evset {
    int es, cidx, n, running;
    int in_main; /* created and run by the application's thread, not the helper */
    long long *values;
} evset_t;

/* the rank (report_rank.c) */
extern int rank_id, rank_nprocs;
extern double rank_t_start_mono;  /* counting's start on CLOCK_MONOTONIC (snapshots: no MPI call) */
extern double rank_t_finish_mono; /* MPI_Finalize's entry, the same clock */
extern char rank_started_iso[64];
/* what a snapshot reads (the values, the senders, the records' parts) and
 * what the end changes, one at a time */
extern pthread_mutex_t rank_state_mu;
extern int rank_sets_stopped;
extern int rank_window_closed; /* the matrix's window: its record is whole only then */
void rank_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int rank_quiet(void);
void rank_clean_text(char *s);
double rank_monotonic_s(void);

/* the event list and the event sets (report_events.c) */
extern ev_t *rank_evs;
extern int rank_nev;
extern evset_t rank_sets[MAX_SETS];
extern int rank_nsets;
extern pid_t rank_main_tid; /* the thread that called MPI_Init */
void rank_parse_events(const char *list);
void rank_skip(ev_t *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rank_take_component_reasons(void);
void rank_say_monitoring_off(void);
void rank_note_earlier_reasons(void);
void rank_add_events(int in_main);
void rank_stop_sets(int in_main);

/* the helper thread (report_helper.c) */
extern int rank_helper_running;
extern int rank_snap_on; /* snapshots: the helper serves them (report_snapshot.c) */
int rank_helper_start(void);
void rank_helper_stop(void);
void rank_helper_exit(void);

/* unexpected messages by sender (report_senders.c) */
int rank_senders_wanted(void);
void rank_senders_begin(void);
void rank_senders_look(void);
void rank_senders_end(void);
size_t rank_senders_record_cap(void);
size_t rank_senders_record(char *buf, size_t cap);
void rank_senders_free(void);

/* the maxima sampled and the rank's record (report_rank_record.c) */
void rank_sampling_begin(void);
void rank_sampling_end(void);
char *rank_serialize(double elapsed, int *len, int snapshot);

/* the rank's state without any MPI call (report_rank_state.c) */
void rank_read_command(char *buf, size_t len);
void rank_map_start(void);
void rank_map_window_open(void);
void rank_snap_start(void);
void rank_snap_remove(void);
void rank_write_state(int reason, int signo, void *arg);

#pragma GCC visibility pop

#endif
