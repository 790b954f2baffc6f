/*
 * papi-mpit-report: the PMPI interposer.  Built once per MPI ABI family
 * (libpapi-mpit-report-openmpi.so, libpapi-mpit-report-mpich.so) against that
 * family's mpi.h, preloaded into every rank by the papi-mpit-report script
 * (or by LD_PRELOAD directly).
 *
 * After MPI_Init / MPI_Init_thread returns, each rank adds the chosen events
 * with PAPI's low-level API (one event set per component: PAPI binds an event
 * set to one component) and starts them, in a helper thread of its own so
 * that a program using PAPI itself keeps its one running set per component
 * (perf_event sets are attached to the MPI_Init thread).  At MPI_Finalize,
 * before PMPI_Finalize, it stops them and sends its values to rank 0, which
 * prints the table and writes the files; then all ranks enter PMPI_Finalize
 * together.  The tool's own communication (report_collect.c) is zero-byte
 * messages into receives posted beforehand, outside the counting window, so
 * it changes neither the user byte counts nor the unexpected messages.
 * Unexpected messages by sender (papi_mpit.h) are read alongside, in the
 * same window, and gathered into a receiver x sender matrix; the program's
 * MPI_Pcontrol calls make the tool look at the queues there too (Open MPI
 * keeps only the current queue per peer, so the largest seen is what the
 * looks caught).
 * Queue maxima that the component keeps over what reads see are sampled by
 * a thread of their own during the run (report_sample.c).
 * PAPI_MPIT_REPORT_SELFCHECK=1 prints per rank what its start-up and its
 * collection added to UNEXPECTED_MSGS and the byte counts (for the tests).
 * Fortran programs are caught through the Fortran entry points too (Open
 * MPI's Fortran MPI_INIT calls the C PMPI_Init, never our MPI_Init).
 *
 * Configuration comes from the environment (the script's flags set it);
 * every PAPI_MPIT_REPORT_* variable is declared in utils/report-options.tsv.
 * The program's stdout is never written; messages and the table go to
 * rank 0's stderr.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <papi.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <libgen.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "papi_mpit.h"
#include "report.h"
#include "report_collect.h"
#include "report_env.h"
#include "report_handles.h"
#include "report_log.h"
#include "report_mpit_early.h"
#include "report_peers.h"
#include "report_record_text.h"
#include "report_records.h"
#include "report_sample.h"
#include "report_snapshot.h"
#include "site_comms.h"
#include "site_fn.h"
#include "site_job.h"
#include "site_report.h"
#include "site_table.h"

#define PFX      "papi-mpit-report: "
#define MAX_SETS 16

/* ev_t.quiet: how a skipped event is reported */
enum { SAY_EACH, SAY_NOTHING, SAY_FOLDED /* defaults: one line for all */ };

enum state { ST_NONE, ST_INIT, ST_RUNNING, ST_DONE };
static enum state state = ST_NONE;

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

static ev_t *evs;
static int nev, cap_ev;
static evset_t sets[MAX_SETS];
static int nsets;
static int my_rank, nprocs;
static double t_start, t_startup = -1; /* t_startup: the tool's own start-up, s */
static double t_start_mono;            /* t_start on CLOCK_MONOTONIC (snapshots: no MPI call) */
static double t_finish_mono;           /* MPI_Finalize's entry, the same clock */
static double t_before_init;           /* its part before PMPI_Init, s */
static double t_mpit_init;             /* of which MPI_T_init_thread, s */
static char started_iso[64];

static double monotonic_s(void);
static unsigned long pthread_self_id(void) { return (unsigned long)pthread_self(); }

static void note(const char *fmt, ...)
{
    /* one write per line: a launcher forwarding stderr (PRRTE) may file a
     * fragment without its newline with the next line of stdout */
    char line[REPORT_NAME_LEN + REPORT_REASON_LEN + 256]; /* an event, its reason and the words around */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, PFX "%s\n", line);
}

/* -q: nothing on the terminal unless something fails */
static int quiet(void) { return report_bool_env("PAPI_MPIT_REPORT_QUIET", 0); }

static void clean_text(char *s)
{
    for (; *s; s++)
        if (*s == '\t' || *s == '\n' || *s == '\r') *s = ' ';
}

/* ---- the event list */
static int find_ev(const char *name)
{
    for (int i = 0; i < nev; i++)
        if (strcmp(evs[i].name, name) == 0) return i;
    return -1;
}

static void push_ev(const char *name, int quiet)
{
    if (!*name || find_ev(name) >= 0) return;
    if (nev == cap_ev) {
        int cap = cap_ev ? 2 * cap_ev : 32;
        ev_t *e = realloc(evs, (size_t)cap * sizeof *e);
        if (!e) return;
        evs = e;
        cap_ev = cap;
    }
    ev_t *e = &evs[nev++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    clean_text(e->name);
    e->quiet = quiet;
    e->set = -1;
}

/* "default": every portable metric of the component except those costly to
 * collect (each tried: one the running MPI lacks is named in one folded
 * line), the cycle counter where the hardware has it, and CPU time. */
static void push_defaults(void)
{
    const char *name, *cost;
    char full[REPORT_NAME_LEN];
    for (int i = 0; (name = papi_mpit_metric(i, &cost)) != NULL; i++) {
        if (cost) continue;
        snprintf(full, sizeof full, "mpit:::%s", name);
        push_ev(full, SAY_FOLDED);
    }
    push_ev("PAPI_TOT_CYC", SAY_NOTHING); /* where the hardware has it */
    push_ev("perf::TASK-CLOCK", SAY_EACH);
}

static void parse_events(const char *list)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) return;
    for (char *tok = strtok_r(copy, ", \t\n", &save); tok; tok = strtok_r(NULL, ", \t\n", &save)) {
        if (strcmp(tok, "default") == 0)
            push_defaults();
        else
            push_ev(tok, SAY_EACH);
    }
    free(copy);
}

/* ---- PAPI */
static void skip(ev_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->reason, sizeof e->reason, fmt, ap);
    va_end(ap);
    clean_text(e->reason);
    e->set = -1;
}

/* Event sets live in the helper thread (see report_start).  A component that
 * can count another thread (perf_event) gets its set attached to the thread
 * that called MPI_Init; the mpit component counts process-wide MPI_T
 * variables wherever its set is.  Where attaching fails (PAPI 7.0 checks it
 * with a hardware instruction counter, absent on machines without a PMU),
 * the set is created and run by the application's thread instead. */
static pid_t main_tid;
static int attach_failed[MAX_SETS * 4]; /* by component index */

static int set_for_component(int cidx, int in_main, char *why, size_t len)
{
    for (int s = 0; s < nsets; s++)
        if (sets[s].cidx == cidx && sets[s].in_main == in_main) return s;
    if (nsets == MAX_SETS) {
        snprintf(why, len, "too many components");
        return -1;
    }
    evset_t *s = &sets[nsets];
    memset(s, 0, sizeof *s);
    s->es = PAPI_NULL;
    int rc = PAPI_create_eventset(&s->es);
    if (rc != PAPI_OK) {
        snprintf(why, len, "PAPI_create_eventset: %s", PAPI_strerror(rc));
        return -1;
    }
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    rc = PAPI_assign_eventset_component(s->es, cidx);
    if (rc != PAPI_OK) {
        snprintf(why, len, "PAPI_assign_eventset_component: %s", PAPI_strerror(rc));
    } else if (!in_main && ci && ci->attach) {
        rc = PAPI_attach(s->es, (unsigned long)main_tid);
        if (rc != PAPI_OK) {
            snprintf(why, len, "PAPI_attach: %s", PAPI_strerror(rc));
            if (cidx >= 0 && cidx < (int)(sizeof attach_failed / sizeof attach_failed[0]))
                attach_failed[cidx] = 1;
        }
    }
    if (rc != PAPI_OK) {
        PAPI_destroy_eventset(&s->es);
        return -1;
    }
    s->cidx = cidx;
    s->in_main = in_main;
    return nsets++;
}

/* Units PAPI leaves empty for some well-known CPU events. */
static void default_units(ev_t *e)
{
    static const char *const known[][2] = {{"TASK-CLOCK", "ns"},       {"CPU-CLOCK", "ns"},
                                           {"PAPI_TOT_CYC", "cycles"}, {"PAPI_TOT_INS", "instructions"},
                                           {"CYCLES", "cycles"},       {"INSTRUCTIONS", "instructions"}};
    if (e->units[0]) return;
    const char *base = strrchr(e->name, ':');
    base = base ? base + 1 : e->name;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(base, known[i][0]) == 0) snprintf(e->units, sizeof e->units, "%s", known[i][1]);
}

/* The mpit component explains a name it refuses ("papi-mpit: NAME: reason"
 * on stderr, once per process).  While the tool adds its events the
 * component is quiet and the reasons are asked for (papi_mpit_why): they
 * become the skip reasons, reported once, by rank 0, with the note.  What it
 * says of an event that was added (a variable that reads 0) is printed as
 * the component would have, unless it was said before the events were added
 * (by announce_before_init, quietly). */
static void take_component_reasons(void)
{
    char why[REPORT_REASON_LEN];
    for (int i = 0; i < nev; i++) {
        ev_t *e = &evs[i];
        if (!papi_mpit_why(e->name, why, sizeof why)) continue;
        clean_text(why);
        if (e->set < 0)
            snprintf(e->reason, sizeof e->reason, "%s", why);
        else if (strcmp(why, e->reason) != 0)
            fprintf(stderr, "papi-mpit: %s: %s\n", e->name + (strncmp(e->name, "mpit:::", 7) ? 0 : 7), why);
    }
}

/* An event refused for want of Open MPI's monitoring, which the tool left
 * off: the reason says how to have it (the component's "added before
 * MPI_Init" does not hold then). */
static void say_monitoring_off(void)
{
    static const char hint[] = "; papi-mpit-report leaves the monitoring off unless --matrix is given";
    if (!peers_held_off()) return;
    for (int i = 0; i < nev; i++) {
        ev_t *e = &evs[i];
        size_t len = strlen(e->reason);
        if (e->set < 0 && strstr(e->reason, "pml_monitoring_enable") && len + sizeof hint <= sizeof e->reason)
            memcpy(e->reason + len, hint, sizeof hint);
    }
}

/* Reasons said before the tool's own adds (by announce_before_init) are
 * not news: remembered in reason, which a skip overwrites. */
static void note_earlier_reasons(void)
{
    for (int i = 0; i < nev; i++)
        if (papi_mpit_why(evs[i].name, evs[i].reason, sizeof evs[i].reason)) clean_text(evs[i].reason);
}

static void add_event(ev_t *e, int in_main)
{
    char why[PAPI_MAX_STR_LEN];
    if (!in_main) {
        int rc = PAPI_event_name_to_code(e->name, &e->code);
        if (rc != PAPI_OK) {
            skip(e, "%s", rc == PAPI_ENOEVNT ? "no such event here" : PAPI_strerror(rc));
            return;
        }
        e->cidx = PAPI_get_event_component(e->code);
        if (e->cidx < 0) {
            skip(e, "no component for it");
            return;
        }
    }
    int s = set_for_component(e->cidx, in_main, why, sizeof why);
    if (s < 0) {
        if (!in_main && e->cidx < (int)(sizeof attach_failed / sizeof attach_failed[0]) &&
            attach_failed[e->cidx]) {
            e->deferred = 1; /* the application's thread adds it */
            return;
        }
        skip(e, "%s", why);
        return;
    }
    int rc = PAPI_add_event(sets[s].es, e->code);
    if (rc != PAPI_OK) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(e->cidx);
        if (ci && ci->disabled)
            skip(e, "component %s disabled: %s", ci->name, ci->disabled_reason);
        else
            skip(e, "PAPI_add_event: %s", PAPI_strerror(rc));
        return;
    }
    e->set = s;
    e->pos = sets[s].n++;
    PAPI_event_info_t info;
    if (PAPI_get_event_info(e->code, &info) == PAPI_OK) {
        snprintf(e->units, sizeof e->units, "%s", info.units);
        clean_text(e->units);
        e->is_fp = info.data_type == PAPI_DATATYPE_FP64;
    }
    default_units(e);
}

/* Adds and starts the events of one thread: the helper's (in_main 0) or the
 * deferred ones of the application's thread (in_main 1). */
static void add_events(int in_main)
{
    for (int i = 0; i < nev; i++) {
        ev_t *e = &evs[i];
        if (in_main && !e->deferred) continue;
        if (in_main) e->deferred = 0;
        add_event(e, in_main);
    }
    for (int s = 0; s < nsets; s++) {
        if (sets[s].in_main != in_main || sets[s].values) continue;
        sets[s].values = calloc((size_t)sets[s].n + 1, sizeof(long long));
        if (!sets[s].n) continue;
        int rc = PAPI_start(sets[s].es);
        if (rc == PAPI_OK) {
            sets[s].running = 1;
            continue;
        }
        for (int i = 0; i < nev; i++)
            if (evs[i].set == s) skip(&evs[i], "PAPI_start: %s", PAPI_strerror(rc));
    }
}

/* ---- the MPI side */

/* Our own entry in LD_PRELOAD is dropped once MPI runs, so that programs the
 * application starts (a shell, a helper) are not measured, and not slowed by
 * loading MPI.  The value is replaced in place, never unset. */
static void strip_preload(void)
{
    Dl_info info;
    const char *pre = getenv("LD_PRELOAD");
    if (!pre || !dladdr((void *)strip_preload, &info) || !info.dli_fname) return;
    char self[4096], *copy = strdup(pre), *out = calloc(strlen(pre) + 1, 1), *save = NULL;
    if (!copy || !out) goto done;
    snprintf(self, sizeof self, "%s", info.dli_fname);
    const char *base = basename(self);
    for (char *tok = strtok_r(copy, ": ", &save); tok; tok = strtok_r(NULL, ": ", &save)) {
        const char *slash = strrchr(tok, '/');
        if (strcmp(slash ? slash + 1 : tok, base) == 0) continue;
        if (*out) strcat(out, ":");
        strcat(out, tok);
    }
    if (strcmp(out, pre) != 0) setenv("LD_PRELOAD", out, 1);
done:
    free(copy);
    free(out);
}

/* ---- the helper thread
 *
 * PAPI runs one event set per component and thread at a time: sets of ours
 * started in the application's thread would make the application's own
 * PAPI_start on the same component fail (PAPI_EISRUN), for instance in a
 * program instrumented with PAPI or run under TAU.  So the event sets are
 * created, started, stopped and read by a helper thread of ours (PAPI keeps
 * per-thread state in thread-local storage, so its sets are its own), which
 * sleeps in between; the application's thread waits while it works. */
enum phase { PH_IDLE, PH_STARTED, PH_STOP, PH_STOPPED, PH_EXIT };
static pthread_t helper;
/* what a snapshot reads (the values, the senders, the records' parts) and
 * what the end changes, one at a time */
static pthread_mutex_t state_mu = PTHREAD_MUTEX_INITIALIZER;
static int sets_stopped;
static pthread_mutex_t helper_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cv = PTHREAD_COND_INITIALIZER;
static enum phase phase = PH_IDLE;
static int helper_running;

static int snap_on; /* snapshots: the helper serves them (report_snapshot.c) */

static void set_phase(enum phase p)
{
    pthread_mutex_lock(&helper_mu);
    phase = p;
    pthread_cond_broadcast(&helper_cv);
    pthread_mutex_unlock(&helper_mu);
    if (snap_on) snap_wake();
}

static int phase_is(void *p)
{
    pthread_mutex_lock(&helper_mu);
    int yes = phase == (enum phase)(long)p;
    pthread_mutex_unlock(&helper_mu);
    return yes;
}

static void write_state(int reason, int signo, void *arg);
static void snap_start(void);
static void snap_remove(void);
static int window_closed; /* the matrix's window: its record is whole only then */

static void wait_phase(enum phase p)
{
    pthread_mutex_lock(&helper_mu);
    while (phase != p) pthread_cond_wait(&helper_cv, &helper_mu);
    pthread_mutex_unlock(&helper_mu);
}

static void stop_sets(int in_main)
{
    for (int s = 0; s < nsets; s++) {
        if (sets[s].in_main != in_main) continue;
        if (sets[s].running) {
            int rc = PAPI_stop(sets[s].es, sets[s].values);
            sets[s].running = 0;
            if (rc != PAPI_OK)
                for (int i = 0; i < nev; i++)
                    if (evs[i].set == s) skip(&evs[i], "PAPI_stop: %s", PAPI_strerror(rc));
        }
        for (int i = 0; i < nev; i++)
            if (evs[i].set == s) evs[i].value = sets[s].values[evs[i].pos];
        PAPI_cleanup_eventset(sets[s].es);
        PAPI_destroy_eventset(&sets[s].es);
    }
}

static void *helper_main(void *arg)
{
    (void)arg;
    snap_block_here();      /* a signal it must answer is never handed to it */
    PAPI_register_thread(); /* PAPI's thread-local state, before any call */
    const char *list = getenv("PAPI_MPIT_REPORT_EVENTS");
    parse_events(list && *list ? list : "default");
    note_earlier_reasons();
    add_events(0);
    set_phase(PH_STARTED);
    if (snap_on)
        snap_serve(write_state, phase_is, (void *)(long)PH_STOP);
    else
        wait_phase(PH_STOP);
    pthread_mutex_lock(&state_mu);
    stop_sets(0);
    sets_stopped = 1;
    pthread_mutex_unlock(&state_mu);
    PAPI_unregister_thread();
    set_phase(PH_STOPPED);
    /* until the collection is over: a rank that waits there for another
     * one still writes its state when asked */
    if (snap_on) snap_serve(write_state, phase_is, (void *)(long)PH_EXIT);
    return NULL;
}

static int senders_wanted(void) { return report_bool_env("PAPI_MPIT_REPORT_SENDERS", 1); }

/* Before MPI_Init: PAPI is initialised and every mpit name of the list is
 * looked up once, so that the component can ask the MPI to collect what it
 * collects only when told before MPI_Init (Open MPI attaches an SPC only
 * then).  The names are resolved again, for real, after MPI_Init.
 * Returns 1 if the tool will read MPI_T variables (an event of the mpit
 * component, the senders or the matrix), 0 if not, -1 if PAPI failed. */
static int announce_before_init(void)
{
    if (PAPI_is_initialized() == PAPI_NOT_INITED && PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return -1;
    const char *list = getenv("PAPI_MPIT_REPORT_EVENTS");
    char *copy = strdup(list && *list ? list : "default"), *save = NULL;
    if (!copy) return -1;
    int was_quiet = papi_mpit_quiet(1); /* what it refuses is reported after MPI_Init, once */
    peers_hold_off(1);
    int mpit_cidx = PAPI_get_component_index("mpit"), reads = senders_wanted() || peers_wanted();
    for (char *tok = strtok_r(copy, ", \t\n", &save); tok; tok = strtok_r(NULL, ", \t\n", &save)) {
        int code;
        const char *metric, *cost;
        char full[REPORT_NAME_LEN];
        if (strcmp(tok, "default") == 0) {
            for (int i = 0; (metric = papi_mpit_metric(i, &cost)) != NULL; i++)
                if (!cost) {
                    snprintf(full, sizeof full, "mpit:::%s", metric);
                    if (PAPI_event_name_to_code(full, &code) == PAPI_OK) reads = 1;
                }
        } else if (strncmp(tok, "mpit:::", 7) == 0 || !strstr(tok, ":::")) { /* MATCH_TIME too */
            if (PAPI_event_name_to_code(tok, &code) == PAPI_OK && mpit_cidx >= 0 &&
                PAPI_get_event_component(code) == mpit_cidx)
                reads = 1;
        }
    }
    papi_mpit_quiet(was_quiet);
    free(copy);
    peers_hold_off(0);
    peers_announce();
    return reads;
}

/* Self-check (PAPI_MPIT_REPORT_SELFCHECK=1, for the tests): what the
 * tool's own start-up and collection add to the counters it reports, per
 * rank on stderr, measured by an event set of the application's thread
 * around them (no other mpit set runs then). */
static const char *const selfcheck_events[] = {"mpit:::UNEXPECTED_MSGS", "mpit:::BYTES_SENT",
                                               "mpit:::BYTES_RECEIVED", NULL};
static int selfcheck_es = PAPI_NULL, selfcheck_n;
static char selfcheck_names[3][32];

static void selfcheck_begin(void)
{
    selfcheck_n = 0;
    if (!report_bool_env("PAPI_MPIT_REPORT_SELFCHECK", 0) || PAPI_create_eventset(&selfcheck_es) != PAPI_OK)
        return;
    for (int i = 0; selfcheck_events[i]; i++)
        if (PAPI_add_named_event(selfcheck_es, selfcheck_events[i]) == PAPI_OK)
            snprintf(selfcheck_names[selfcheck_n++], sizeof selfcheck_names[0], "%s", selfcheck_events[i]);
    if (selfcheck_n && PAPI_start(selfcheck_es) == PAPI_OK) return;
    selfcheck_n = 0;
    PAPI_cleanup_eventset(selfcheck_es);
    PAPI_destroy_eventset(&selfcheck_es);
}

static void selfcheck_end(const char *what)
{
    long long v[3] = {0};
    if (!selfcheck_n) return;
    if (PAPI_stop(selfcheck_es, v) == PAPI_OK) {
        char line[512];
        int n = snprintf(line, sizeof line, PFX "self-check rank %d %s:", my_rank, what);
        for (int i = 0; i < selfcheck_n && n < (int)sizeof line; i++)
            n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lld", selfcheck_names[i], v[i]);
        fprintf(stderr, "%s\n", line);
    }
    PAPI_cleanup_eventset(selfcheck_es);
    PAPI_destroy_eventset(&selfcheck_es);
    selfcheck_n = 0;
}

/* ---- unexpected messages by sender (papi_mpit.h), read by the
 * application's thread: started once counting starts, read and stopped
 * before the collection communicates. */
static int senders_on, senders_kind, senders_cols;
static long long *senders_counts, senders_other;
static char senders_why[REPORT_REASON_LEN]; /* why not, for the report */

static void senders_begin(void)
{
    if (!senders_wanted()) return; /* turned off: no note either */
    senders_cols = nprocs < PAPI_MPIT_SENDERS_MAX ? nprocs : PAPI_MPIT_SENDERS_MAX;
    senders_counts = calloc((size_t)senders_cols, sizeof *senders_counts);
    if (!senders_counts) {
        snprintf(senders_why, sizeof senders_why, "out of memory");
        return;
    }
    char reason[REPORT_REASON_LEN] = "";
    int was_quiet = papi_mpit_quiet(1); /* rank 0's report says why, once */
    int rc = papi_mpit_senders_start();
    papi_mpit_quiet(was_quiet);
    if (rc == PAPI_OK) {
        senders_on = 1;
        return;
    }
    if (papi_mpit_why("senders", reason, sizeof reason)) /* its own words say more than the code */
        snprintf(senders_why, sizeof senders_why, "senders: %s", reason);
    else
        snprintf(senders_why, sizeof senders_why, "papi_mpit_senders_start: %s", PAPI_strerror(rc));
    clean_text(senders_why);
}

/* A look at the queues (MPI_Pcontrol), values discarded: the component
 * keeps the largest queue per peer seen at any read. */
static void senders_look(void)
{
    long long other;
    int kind;
    if (senders_on) papi_mpit_senders_read(senders_counts, senders_cols, &other, &kind);
}

static void senders_end(void)
{
    if (!senders_on) return;
    int rc = papi_mpit_senders_read(senders_counts, senders_cols, &senders_other, &senders_kind);
    papi_mpit_senders_stop();
    senders_on = 0;
    if (rc != PAPI_OK ||
        (senders_kind != PAPI_MPIT_SENDERS_COUNT && senders_kind != PAPI_MPIT_SENDERS_QUEUE_MAX)) {
        snprintf(senders_why, sizeof senders_why, "papi_mpit_senders_read: %s",
                 rc != PAPI_OK ? PAPI_strerror(rc) : "unknown kind");
        senders_kind = 0;
    }
}

/* ---- the maxima kept over what reads see: read every period by a thread
 * of ours, so that a queue that fills and drains between MPI_Init and
 * MPI_Finalize shows its peak (report_sample.c) */
#define MAX_SAMPLED 16
static int sample_codes[MAX_SAMPLED];
static int series_codes[SAMPLE_SERIES], series_ev[SAMPLE_SERIES], nseries; /* queue lengths over time */
static double sample_ms;                                                   /* the period; 0: not sampled */
static long samples_taken;
static double sample_cpu_s; /* the sampler thread's CPU time */

static void sampling_begin(void)
{
    int n = 0, bad;
    double ms = sample_period_ms(&bad);
    if (bad && my_rank == 0)
        note("--sample-period (PAPI_MPIT_REPORT_SAMPLE_MS) '%s' is not a number of milliseconds from 0 to "
             "3600000: sampling every %g ms",
             getenv("PAPI_MPIT_REPORT_SAMPLE_MS"), ms);
    nseries = 0;
    for (int i = 0; i < nev; i++) {
        size_t len = strlen(evs[i].name);
        if (evs[i].set >= 0 && n < MAX_SAMPLED && sample_needed(evs[i].code)) {
            evs[i].sampled = 1;
            sample_codes[n++] = evs[i].code;
        } else if (evs[i].set >= 0 && nseries < SAMPLE_SERIES && len > 13 &&
                   strcmp(evs[i].name + len - 13, "_QUEUE_LENGTH") == 0) {
            series_ev[nseries] = i;
            series_codes[nseries++] = evs[i].code;
        }
    }
    sample_series(series_codes, nseries);
    if ((!n && !nseries) || ms == 0) return;
    char why[256];
    if (sample_start(sample_codes, n, ms, why, sizeof why) == 0)
        sample_ms = ms;
    else if (my_rank == 0)
        note("queue maxima not sampled (%s): they are the largest seen at start and end", why);
}

static void report_start(void)
{
    double t0 = PMPI_Wtime();
    PMPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    state = ST_RUNNING;
    strip_preload();
    time_t now = time(NULL);
    struct tm tm;
    strftime(started_iso, sizeof started_iso, "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
    main_tid = (pid_t)syscall(SYS_gettid);

    if (PAPI_is_initialized() == PAPI_NOT_INITED) {
        int rc = PAPI_library_init(PAPI_VER_CURRENT);
        if (rc != PAPI_VER_CURRENT) {
            if (my_rank == 0)
                note("PAPI_library_init failed (%s): nothing is measured",
                     rc < 0 ? PAPI_strerror(rc) : "version mismatch");
            mpit_early_release();
            collect_open();
            collect_started();
            t_start = PMPI_Wtime();
            return;
        }
    }
    /* Threads are in use from now on: register the id function before our
     * thread exists (PAPI refuses it later); a no-op if the program did. */
    PAPI_thread_init(pthread_self_id);
    /* before the tool's start-up messages, which the self-check can then tell */
    peers_begin(my_rank, nprocs);
    sites_start(my_rank, nprocs);
    sites_comms_begin(nprocs);
    snap_start();
    /* the tool's only start-up communication, before counting starts */
    selfcheck_begin();
    collect_open();
    selfcheck_end("start-up");
    int was_quiet = papi_mpit_quiet(1);
    if (pthread_create(&helper, NULL, helper_main, NULL) == 0) {
        helper_running = 1;
        wait_phase(PH_STARTED);
        add_events(1); /* the sets that could not be attached */
    }
    papi_mpit_quiet(was_quiet);
    take_component_reasons();
    say_monitoring_off();
    if (!helper_running && my_rank == 0) note("cannot start a thread: nothing is measured");
    if (!helper_running && snap_on) snap_off(), snap_on = 0;
    if (my_rank == 0) {
        /* the default metrics this MPI cannot give (SAY_FOLDED) are named
         * after the report's table, by what would give them */
        for (int i = 0; i < nev; i++)
            if (evs[i].set < 0 && evs[i].quiet == SAY_EACH)
                note("event %s not available: skipped (%s)", evs[i].name, evs[i].reason);
    }
    if (helper_running) sampling_begin();
    report_log_start(my_rank);
    sites_events_begin();
    if (helper_running) senders_begin();
    mpit_early_release(); /* the component holds its own by now, where it reads any */
    collect_started();
    peers_window_open();
    sites_window(1);
    t_start = PMPI_Wtime();
    t_start_mono = monotonic_s();
    t_startup = t_before_init + (t_start - t0);
}

/* "Z\tname\tt:v,..." per queue length sampled over time (t: seconds
 * from MPI_Init) */
static size_t series_record(char *buf, size_t cap)
{
    static double t[SAMPLE_KEEP], v[SAMPLE_KEEP]; /* one writer at a time: state_mu or the end */
    size_t n = 0;
    for (int k = 0; k < nseries; k++) {
        int m = sample_series_copy(k, t, v, SAMPLE_KEEP);
        if (!m || n + REPORT_NAME_LEN + 8 >= cap) continue;
        n += (size_t)snprintf(buf + n, cap - n, "Z\t%s\t", evs[series_ev[k]].name);
        for (int i = 0; i < m && n + 48 < cap; i++)
            n += (size_t)snprintf(buf + n, cap - n, "%s%.3f:%.17g", i ? "," : "", t[i] - t_start_mono, v[i]);
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    }
    return n < cap ? n : cap;
}

/* Rank r's record: "H\thost\telapsed", then "E\tname\tunits\ti|f\tvalue" per
 * measured event (followed by "P\tname" when it is a sampled maximum) and
 * "S\tname\treason" per skipped one ("U\t..." for a default metric); "Q\tperiod_ms\tsamples" when some
 * maximum is sampled; then the senders,
 * "M\tkind\tother\tcolumns\tsender:value,..." (nonzero ones only: the record
 * travels in tags, a few bytes per message) or "N\treason"; then the
 * communication matrix's row (report_peers.h: X, Y or W lines). */
static char *serialize(double elapsed, int *len, int snapshot)
{
    size_t cap = 256 + (size_t)nev * (2 * REPORT_NAME_LEN + REPORT_REASON_LEN + 64) +
                 (size_t)senders_cols * 32 + REPORT_REASON_LEN + peers_record_cap() + sites_record_cap() +
                 (size_t)nseries * (REPORT_NAME_LEN + 48 * SAMPLE_KEEP),
           n = 0;
    char *buf = malloc(cap), host[REPORT_HOST_LEN] = "";
    int sampled = 0;
    if (!buf) return NULL;
    gethostname(host, sizeof host - 1);
    clean_text(host);
    n += (size_t)snprintf(buf + n, cap - n, "H\t%s\t%.9f\n", host, elapsed);
    for (int i = 0; i < nev; i++) {
        ev_t *e = &evs[i];
        if (e->set >= 0 && snapshot && !sets_stopped && sets[e->set].in_main) continue; /* not read now */
        if (e->set >= 0) {
            if (e->is_fp) {
                double d;
                memcpy(&d, &e->value, sizeof d);
                n += (size_t)snprintf(buf + n, cap - n, "E\t%s\t%s\tf\t%.17g\n", e->name, e->units, d);
            } else {
                n += (size_t)snprintf(buf + n, cap - n, "E\t%s\t%s\ti\t%lld\n", e->name, e->units, e->value);
            }
            if (e->sampled) {
                n += (size_t)snprintf(buf + n, cap - n, "P\t%s\n", e->name);
                sampled = 1;
            }
        } else if (e->quiet != SAY_NOTHING) { /* U: a default metric, said at the report's top */
            n += (size_t)snprintf(buf + n, cap - n, "%c\t%s\t%s\n", e->quiet == SAY_FOLDED ? 'U' : 'S',
                                  e->name, e->reason);
        }
    }
    if (sampled)
        n += (size_t)snprintf(buf + n, cap - n, "Q\t%g\t%.9f\t%ld\n", sample_ms, sample_cpu_s,
                              snapshot && !sets_stopped ? papi_mpit_report_samples() : samples_taken);
    if (senders_kind) {
        n += (size_t)snprintf(buf + n, cap - n, "M\t%d\t%lld\t%d\t", senders_kind, senders_other,
                              senders_cols);
        const char *sep = "";
        for (int c = 0; c < senders_cols; c++)
            if (senders_counts[c]) {
                n += (size_t)snprintf(buf + n, cap - n, "%s%d:%lld", sep, c, senders_counts[c]);
                sep = ",";
            }
        n += (size_t)snprintf(buf + n, cap - n, "\n");
    } else if (senders_why[0]) {
        n += (size_t)snprintf(buf + n, cap - n, "N\t%s\n", senders_why);
    }
    if (!snapshot || window_closed) n += peers_record(buf + n, cap - n);
    n += sites_record(buf + n, cap - n);
    n += series_record(buf + n, cap - n);
    *len = (int)n;
    return buf;
}

/* The program's arguments, quoted as a shell needs them (a 'b c'). */
static void read_command(char *buf, size_t len)
{
    char args[8192];
    FILE *f = fopen("/proc/self/cmdline", "r");
    buf[0] = '\0';
    if (!f) return;
    size_t n = fread(args, 1, sizeof args, f);
    fclose(f);
    report_fmt_command(buf, len, args, n);
}

static const char *chart_list;
static int render_senders_csv(FILE *out, const report_job_t *job)
{
    return report_write_senders_csv(out, job);
}
static int render_svg(FILE *out, const report_job_t *job) { return report_write_svg(out, job, chart_list); }

static void read_library_version(report_job_t *job)
{
    int len = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    PMPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    /* one line, runs of blanks as one space ("MPICH Version:\t4.0.2") */
    char *o = job->mpi_library;
    for (const char *p = version; *p && o < job->mpi_library + sizeof job->mpi_library - 1; p++) {
        int blank = *p == ' ' || *p == '\t' || *p == '\r';
        if (blank && (o == job->mpi_library || o[-1] == ' ')) continue;
        *o++ = blank ? ' ' : *p;
    }
    *o = '\0';
}

/* report.txt and the terminal's table: the findings first, the sites last */
static int render_text(FILE *out, const report_job_t *job)
{
    if (sites_text_top(out, job)) return -1;
    if (report_write_table(out, job)) return -1;
    return sites_text_bottom(out, job);
}

static void report_output(report_job_t *job)
{
    read_command(job->command, sizeof job->command);
    snprintf(job->started, sizeof job->started, "%s", started_iso);
    report_compute(job);
    const char *out_dir = getenv("PAPI_MPIT_REPORT_DIR");
    job->no_files = !out_dir || !*out_dir; /* the table then names no file to look in */

    /* Skips rank 0 already announced (all ranks) are not repeated; the default
     * metrics the MPI cannot give are, at the top, each with its reason. */
    if (!quiet()) {
        int nskips = job->nskips, k = 0;
        report_skip_t *all = job->skips;
        report_skip_t *partial = calloc((size_t)nskips + 1, sizeof *partial);
        for (int i = 0; partial && i < nskips; i++)
            if (all[i].nranks < job->nprocs || all[i].is_default) partial[k++] = all[i];
        if (partial) job->skips = partial, job->nskips = k;
        fflush(stderr);
        job->console = 1;
        render_text(stderr, job);
        job->console = 0;
        fflush(stderr);
        job->skips = all;
        job->nskips = nskips;
        free(partial);
    }
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (dir && *dir) {
        static const char *const files[] = {"report.txt", "ranks.csv",    "report.json",
                                            "chart.svg",  "overview.svg", "report.html"};
        int (*const render[])(FILE *, const report_job_t *) = {
            render_text, report_write_csv,          report_write_json,
            render_svg,  report_write_overview_svg, report_write_html};
        enum { NBASE = sizeof files / sizeof files[0] };
        chart_list = getenv("PAPI_MPIT_REPORT_CHART");
        char unknown[REPORT_REASON_LEN];
        int nunknown = report_chart_unknown(job, chart_list, unknown, sizeof unknown);
        if (nunknown) /* even with -q: a name asked for */
            note("--chart (PAPI_MPIT_REPORT_CHART): %s: %s, not in chart.svg", unknown,
                 nunknown == 1 ? "no measured event of this name" : "no measured events of these names");
        /* one message for the whole directory: the first failure stops it;
         * with -q the table, which no file then holds, follows it */
        if (report_mkdir_p(dir)) {
            int err = errno;
            note("cannot create the output directory %s: %s; no files written%s", dir, strerror(err),
                 quiet() ? ": the report is the table below" : ": the report is the table above");
            if (quiet()) render_text(stderr, job);
            return;
        }
        /* then the matrices' files, those that have a matrix */
        static const char *const sfiles[] = {"senders.csv", "senders.svg", "matrix.csv",     "matrix.svg",
                                             "sites.csv",   "p2p.csv",     "collectives.csv"};
        int (*const srender[])(FILE *, const report_job_t *) = {render_senders_csv,
                                                                report_write_senders_svg,
                                                                report_write_matrix_csv,
                                                                report_write_matrix_svg,
                                                                sites_csv,
                                                                sites_p2p_csv,
                                                                sites_colls_csv};
        const int swant[] = {job->senders.kind != REPORT_SENDERS_NONE,
                             job->senders.kind != REPORT_SENDERS_NONE,
                             report_matrix_any(job),
                             report_matrix_any(job),
                             sites_any(job),
                             sites_any(job),
                             sites_any(job)};
        int nfiles = NBASE + (int)(sizeof sfiles / sizeof sfiles[0]);
        for (int i = 0; i < nfiles; i++) {
            if (i >= NBASE && !swant[i - NBASE]) continue;
            const char *file = i < NBASE ? files[i] : sfiles[i - NBASE];
            if (report_write_file(dir, file, job, i < NBASE ? render[i] : srender[i - NBASE])) {
                int err = errno;
                note("cannot write %s/%s: %s; %s", dir, file, strerror(err),
                     i         ? "the files before it are complete, the others not written"
                     : quiet() ? "no files written: the report is the table below"
                               : "no files written: the report is the table above");
                if (!i && quiet()) render_text(stderr, job);
                return;
            }
        }
        /* the sites as a TAU profile, for pprof, ParaProf, Hatchet (site_tau.c) */
        if (swant[4] && sites_write_tau(dir, job)) {
            int err = errno;
            note("cannot write %s/tau: %s; the other files are complete", dir, strerror(err));
        }
        if (!quiet())
            note("wrote report.html, report.txt, ranks.csv, report.json, chart.svg, overview.svg%s%s%s in %s",
                 swant[0] ? ", senders.csv, senders.svg" : "", swant[2] ? ", matrix.csv, matrix.svg" : "",
                 swant[4] ? ", sites.csv, p2p.csv, collectives.csv, tau/ (a TAU profile)" : "", dir);
    }
}

/* ---- the rank's state without any MPI call (report_snapshot.h): written
 * by the helper thread into DIR/snapshot.RANK.txt: an R line (rank, size,
 * why, the signal, when), the record as serialize writes it (the values
 * read now), the calls in progress (A lines) and the communicators (B). */
static char snap_path[4200];
static char library_version[256], command_line[1024]; /* for the merge, read at the start */
static long snap_seq;

static void read_command(char *buf, size_t len);
static void snap_start(void)
{
    snap_on = 0;
    if (!snap_wanted()) return;
    int vlen = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    PMPI_Get_library_version(version, &vlen);
    version[strcspn(version, "\n")] = '\0';
    snprintf(library_version, sizeof library_version, "%s", version);
    clean_text(library_version);
    read_command(command_line, sizeof command_line);
    clean_text(command_line);
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    snprintf(snap_path, sizeof snap_path, "%s/snapshot.%d.txt", dir, my_rank);
    unlink(snap_path); /* an earlier run's */
    char why[256];
    if (snap_install(why, sizeof why) == 0)
        snap_on = 1;
    else if (my_rank == 0)
        note("no snapshots of the ranks' state (%s)", why);
}

static void snap_remove(void)
{
    if (snap_path[0]) unlink(snap_path);
}

/* "A\ttid\tcall\tkind\tmodule\toffset\tseconds\tpeer\ttag\tany_source\tany_tag\tcomm\tmembers"
 * per thread in a wrapped call (peer: world rank, -1 none; tag: - for none) */
static size_t current_record(char *buf, size_t cap, long long now_ns)
{
    sites_current_t cur[SITES_THREADS];
    int n = 0;
    size_t w = 0;
    sites_current(cur, SITES_THREADS, &n);
    for (int i = 0; i < n && w + 4500 < cap; i++) {
        const sites_current_t *c = &cur[i];
        if (c->fn < 0 || c->fn >= SITES_NFN) continue;
        char path[4096], id[64], members[256], tag[16] = "-";
        unsigned long off;
        sites_module_of(c->pc, path, sizeof path, &off);
        sites_comm_describe(c->comm, id, sizeof id, members, sizeof members);
        if (c->tag != SITES_NO_TAG && !c->any_tag) snprintf(tag, sizeof tag, "%d", c->tag);
        w += (size_t)snprintf(buf + w, cap - w, "A\t%ld\t%s\t%s\t%s\t%lx\t%.6f\t%d\t%s\t%d\t%d\t%s\t%s\n",
                              c->tid, sites_fn[c->fn].name, sites_fn[c->fn].kind, path[0] ? path : "?", off,
                              (double)(now_ns - c->since) * 1e-9, c->peer, tag, c->any_source, c->any_tag, id,
                              members[0] ? members : "-");
    }
    if (state == ST_DONE && w + 256 < cap) /* the tool's collection in MPI_Finalize */
        w += (size_t)snprintf(buf + w, cap - w,
                              "A\t%ld\tMPI_Finalize\tfinalize\t-\t0\t%.6f\t-1\t-\t0\t0\tworld\t-\n",
                              (long)main_tid, monotonic_s() - t_finish_mono);
    return w;
}

static void write_state(int reason, int signo, void *arg)
{
    (void)arg;
    double t0 = monotonic_s();
    long long now_ns = sites_now_ns();
    pthread_mutex_lock(&state_mu);
    if (!sets_stopped) /* the values now: the helper's own sets (those of the program's thread wait) */
        for (int s = 0; s < nsets; s++) {
            if (sets[s].in_main || !sets[s].running || PAPI_read(sets[s].es, sets[s].values) != PAPI_OK)
                continue;
            for (int i = 0; i < nev; i++)
                if (evs[i].set == s) evs[i].value = sets[s].values[evs[i].pos];
        }
    int len = 0;
    double elapsed = (state == ST_DONE ? t_finish_mono : t0) - t_start_mono;
    char *rec = serialize(elapsed, &len, 1);
    size_t extra = 8192 + (size_t)SITES_THREADS * 4600 + 1024 * 300;
    char *more = malloc(extra);
    size_t m = 0;
    if (more) {
        struct timespec wall;
        clock_gettime(CLOCK_REALTIME, &wall);
        m += (size_t)snprintf(more, extra, "R\t%d\t%d\t%s\t%d\t%lld.%09ld\t%ld\t%.6f\t%ld\n", my_rank, nprocs,
                              snap_reason_name(reason), signo > 0 ? signo : 0, (long long)wall.tv_sec,
                              wall.tv_nsec, ++snap_seq, elapsed, (long)getpid());
        m += (size_t)snprintf(more + m, extra - m, "I\t%s\t%s\t%s\n", started_iso, library_version,
                              command_line);
        m += current_record(more + m, extra - m, now_ns);
        m += sites_comms_record(more + m, extra - m);
    }
    pthread_mutex_unlock(&state_mu);
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    char tmp[4400], file[64];
    snprintf(file, sizeof file, "snapshot.%d.txt", my_rank);
    FILE *f = rec && more ? report_open_temp(dir, file, tmp, sizeof tmp) : NULL;
    int err = f ? 0 : errno ? errno : ENOMEM;
    if (f) {
        fwrite(more, 1, m, f);
        fwrite(rec, 1, (size_t)len, f);
        /* what writing it took; on a signal, also the time from its arrival */
        if (reason == SNAP_SIGNAL)
            fprintf(f, "D\t%.6f\t%.6f\n", monotonic_s() - t0, snap_since_signal_s());
        else
            fprintf(f, "D\t%.6f\n", monotonic_s() - t0);
        /* no fsync: a killed process's writes are in the kernel already, and
         * the time counts when mpirun kills the other ranks once one ends */
        if (fflush(f)) err = errno;
        if (fclose(f) && !err) err = errno;
        if (!err && rename(tmp, snap_path)) err = errno;
        if (err) unlink(tmp);
    }
    free(rec);
    free(more);
    static int failed_said;
    if (err && !failed_said) {
        failed_said = 1;
        note("rank %d: cannot write its state in %s: %s", my_rank, dir, strerror(err));
    } else if (!err && signo < 0) {
        note("rank %d: no MPI call returned for %g s while one was in progress: its state is in %s; the job "
             "goes on (said once)",
             my_rank, atof(getenv("PAPI_MPIT_REPORT_WATCHDOG_MS")) / 1000, snap_path);
    }
}

static void report_finish(void)
{
    t_finish_mono = monotonic_s();
    state = ST_DONE;
    double elapsed = PMPI_Wtime() - t_start;
    samples_taken = sample_stop(&sample_cpu_s); /* before the sets it feeds stop */
    if (helper_running) {
        pthread_mutex_lock(&state_mu);
        stop_sets(1);
        pthread_mutex_unlock(&state_mu);
        set_phase(PH_STOP);
        wait_phase(PH_STOPPED);
        if (!snap_on) {
            pthread_join(helper, NULL);
            helper_running = 0;
        }
    }
    report_log_finish(my_rank);
    pthread_mutex_lock(&state_mu);
    senders_end();
    peers_window_close();
    window_closed = 1;
    sites_window(0);
    sites_watch_stop();
    pthread_mutex_unlock(&state_mu);

    /* Everything below is collective: every rank takes part, whatever failed. */
    int len = 0;
    size_t total = 0;
    pthread_mutex_lock(&state_mu);
    char *mine = serialize(elapsed, &len, 0);
    pthread_mutex_unlock(&state_mu);
    if (!mine) len = 0;
    selfcheck_begin();
    char *all = collect_gather(mine ? mine : "", len, &total);
    report_job_t *job = NULL;
    if (my_rank == 0 && all && (job = calloc(1, sizeof *job))) {
        report_job_init(job, nprocs);
        job->samples_min = -1; /* until a rank says */
        sites_attach(job);
        report_record_read_all(job, (sites_job_t *)job->extra.arg, all, total);
        report_matrix_finish(job);
        sites_finish(job);
        read_library_version(job);
        int v = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
        if (v > 0)
            snprintf(job->papi_version, sizeof job->papi_version, "%d.%d.%d.%d", PAPI_VERSION_MAJOR(v),
                     PAPI_VERSION_MINOR(v), PAPI_VERSION_REVISION(v), PAPI_VERSION_INCREMENT(v));
        if (t_startup >= 0) {
            job->tool_cost_measured = 1;
            job->tool_startup_s = t_startup;
            job->tool_mpit_init_s = t_mpit_init;
            job->tool_collect_s = collect_seconds();
            job->tool_collect_bytes = (double)total;
        }
        report_output(job);
        sites_detach(job);
        report_job_free(job);
        free(job);
    }
    collect_release();
    selfcheck_end("collection");
    collect_close();
    if (helper_running) { /* the run reached MPI_Finalize: no snapshot is left behind */
        snap_off();
        set_phase(PH_EXIT);
        pthread_join(helper, NULL);
        helper_running = 0;
        snap_remove();
    }
    peers_end(report_bool_env("PAPI_MPIT_REPORT_SELFCHECK", 0));
    free(mine);
    free(all);
    free(senders_counts);
    senders_counts = NULL;
    sites_comms_end();
    sites_end();
}

/* ---- every init entry point, C or Fortran: only the outermost call of a
 * process measures (a Fortran MPI_INIT may itself call the C PMPI_Init) */
static int mpi_is_initialized(void);

static double monotonic_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* level: the thread level the program asks for */
static int init_begin(int level)
{
    /* a program that loaded its MPI privately (Python's mpi4py): our PMPI_
     * calls and the component need it global */
    if (report_mpi_global() != 0 && state == ST_NONE)
        note("cannot find the MPI library that defines PMPI_Init");
    if (state != ST_NONE) return 0;
    state = ST_INIT;
    double t0 = monotonic_s();
    if (announce_before_init() == 1) t_mpit_init = mpit_early_hold(level);
    t_before_init = monotonic_s() - t0;
    return 1;
}

static void init_end(int outer)
{
    if (!outer) return;
    if (mpi_is_initialized()) {
        papi_mpit_after_init(); /* the component's catch-up, here rather than in a read */
        report_start();
    } else {
        mpit_early_release();
        state = ST_NONE;
    }
}

/* ---- C entry points */
int MPI_Init(int *argc, char ***argv)
{
    int outer = init_begin(MPI_THREAD_SINGLE);
    int rc = PMPI_Init(argc, argv);
    init_end(outer);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int outer = init_begin(required);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    init_end(outer);
    return rc;
}

int MPI_Finalize(void)
{
    if (state == ST_RUNNING) report_finish();
    papi_mpit_before_finalize(); /* Open MPI 4.1 with SPCs: windows left open */
    return PMPI_Finalize();
}

/* A look at the unexpected queues where the program says (Open MPI keeps
 * no count by sender: its queue per peer is caught only when looked at). */
int MPI_Pcontrol(const int level, ...)
{
    if (state == ST_RUNNING) senders_look();
    return PMPI_Pcontrol(level);
}

/* ---- Fortran entry points (mpif.h / use mpi, and Open MPI's mpi_f08), in
 * the usual name manglings.  Arguments are passed through untouched to the
 * MPI's own Fortran routine, found after us in the lookup order. */
typedef void (*fort1_t)(void *);
#if defined(MPI_ABI_VERSION)
typedef int fortran_int; /* the standard ABI's C header has no MPI_Fint: default INTEGER */
#else
typedef MPI_Fint fortran_int;
#endif
typedef void (*fort3_t)(void *, void *, void *);

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

static int mpi_is_initialized(void)
{
    int flag = 0;
    PMPI_Initialized(&flag);
    return flag;
}

static void fortran_init(const char *sym, void *ierr)
{
    fort1_t real = (fort1_t)next_symbol(sym);
    int outer = init_begin(MPI_THREAD_SINGLE);
    if (real) {
        real(ierr);
    } else { /* no Fortran layer after us: the C call does the same */
        int rc = PMPI_Init(NULL, NULL);
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
    init_end(outer);
}

static void fortran_init_thread(const char *sym, void *required, void *provided, void *ierr)
{
    fort3_t real = (fort3_t)next_symbol(sym);
    int outer = init_begin((int)*(fortran_int *)required);
    if (real) {
        real(required, provided, ierr);
    } else {
        int prov = 0, rc = PMPI_Init_thread(NULL, NULL, (int)*(fortran_int *)required, &prov);
        *(fortran_int *)provided = (fortran_int)prov;
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
    init_end(outer);
}

static void fortran_finalize(const char *sym, void *ierr)
{
    if (state == ST_RUNNING) report_finish();
    papi_mpit_before_finalize();
    fort1_t real = (fort1_t)next_symbol(sym);
    if (real) {
        real(ierr);
    } else {
        int rc = PMPI_Finalize();
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
}

#define FORTRAN_INIT(sym)                                                                                    \
    void sym(void *ierr) { fortran_init(#sym, ierr); }
#define FORTRAN_INIT_THREAD(sym)                                                                             \
    void sym(void *required, void *provided, void *ierr)                                                     \
    {                                                                                                        \
        fortran_init_thread(#sym, required, provided, ierr);                                                 \
    }
#define FORTRAN_FINALIZE(sym)                                                                                \
    void sym(void *ierr) { fortran_finalize(#sym, ierr); }

/* prototypes, for -Wmissing-prototypes */
void mpi_init_(void *), mpi_init__(void *), mpi_init(void *), MPI_INIT(void *), mpi_init_f08_(void *);
void mpi_init_thread_(void *, void *, void *), mpi_init_thread__(void *, void *, void *),
    mpi_init_thread(void *, void *, void *), MPI_INIT_THREAD(void *, void *, void *),
    mpi_init_thread_f08_(void *, void *, void *);
void mpi_finalize_(void *), mpi_finalize__(void *), mpi_finalize(void *), MPI_FINALIZE(void *),
    mpi_finalize_f08_(void *);

FORTRAN_INIT(mpi_init_)
FORTRAN_INIT(mpi_init__)
FORTRAN_INIT(mpi_init)
FORTRAN_INIT(MPI_INIT)
FORTRAN_INIT(mpi_init_f08_)
FORTRAN_INIT_THREAD(mpi_init_thread_)
FORTRAN_INIT_THREAD(mpi_init_thread__)
FORTRAN_INIT_THREAD(mpi_init_thread)
FORTRAN_INIT_THREAD(MPI_INIT_THREAD)
FORTRAN_INIT_THREAD(mpi_init_thread_f08_)
FORTRAN_FINALIZE(mpi_finalize_)
FORTRAN_FINALIZE(mpi_finalize__)
FORTRAN_FINALIZE(mpi_finalize)
FORTRAN_FINALIZE(MPI_FINALIZE)
FORTRAN_FINALIZE(mpi_finalize_f08_)
