/*
 * papi-mpit-report: the rank's run, from MPI_Init to MPI_Finalize, for
 * every entry point (C or Fortran: report_run.h): before MPI_Init the
 * mpit names are announced; after it the events start (report_start); at
 * MPI_Finalize they stop, every rank's record is gathered on rank 0, which
 * writes the report (report_finish).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <papi.h>

#include <dlfcn.h>
#include <libgen.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "papi_mpit.h"
#include "report_collect.h"
#include "report_env.h"
#include "report_files.h"
#include "report_handles.h"
#include "report_log.h"
#include "report_mpit_early.h"
#include "report_peers.h"
#include "report_rank.h"
#include "report_record_text.h"
#include "report_sample.h"
#include "report_snapshot.h"
#include "report_run.h"
#include "site_comms.h"
#include "site_job.h"
#include "site_report.h"
#include "site_table.h"

static double t_start, t_startup = -1; /* t_startup: the tool's own start-up, s */
static double t_before_init;           /* its part before PMPI_Init, s */
static double t_mpit_init;             /* of which MPI_T_init_thread, s */

static unsigned long pthread_self_id(void) { return (unsigned long)pthread_self(); }

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
    int mpit_cidx = PAPI_get_component_index("mpit"), reads = rank_senders_wanted() || peers_wanted();
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
        int n = snprintf(line, sizeof line, PFX "self-check rank %d %s:", rank_id, what);
        for (int i = 0; i < selfcheck_n && n < (int)sizeof line; i++)
            n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lld", selfcheck_names[i], v[i]);
        fprintf(stderr, "%s\n", line);
    }
    PAPI_cleanup_eventset(selfcheck_es);
    PAPI_destroy_eventset(&selfcheck_es);
    selfcheck_n = 0;
}

static void report_start(void)
{
    double t0 = PMPI_Wtime();
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank_id);
    PMPI_Comm_size(MPI_COMM_WORLD, &rank_nprocs);
    rank_state = ST_RUNNING;
    strip_preload();
    time_t now = time(NULL);
    struct tm tm;
    strftime(rank_started_iso, sizeof rank_started_iso, "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
    rank_main_tid = (pid_t)syscall(SYS_gettid);

    if (PAPI_is_initialized() == PAPI_NOT_INITED) {
        int rc = PAPI_library_init(PAPI_VER_CURRENT);
        if (rc != PAPI_VER_CURRENT) {
            if (rank_id == 0)
                rank_note("PAPI_library_init failed (%s): nothing is measured",
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
    peers_begin(rank_id, rank_nprocs);
    rank_map_start(); /* the tables' home: before they are made */
    sites_start(rank_id, rank_nprocs);
    sites_comms_begin(rank_nprocs);
    rank_snap_start();
    /* the tool's only start-up communication, before counting starts */
    selfcheck_begin();
    collect_open();
    selfcheck_end("start-up");
    int was_quiet = papi_mpit_quiet(1);
    if (rank_helper_start() == 0) rank_add_events(1); /* the sets that could not be attached */
    papi_mpit_quiet(was_quiet);
    rank_take_component_reasons();
    rank_say_monitoring_off();
    if (!rank_helper_running && rank_id == 0) rank_note("cannot start a thread: nothing is measured");
    if (!rank_helper_running && rank_snap_on) snap_off(), rank_snap_on = 0;
    if (rank_id == 0) {
        /* the default metrics this MPI cannot give (SAY_FOLDED) are named
         * after the report's table, by what would give them */
        for (int i = 0; i < rank_nev; i++)
            if (rank_evs[i].set < 0 && rank_evs[i].quiet == SAY_EACH)
                rank_note("event %s not available: skipped (%s)", rank_evs[i].name, rank_evs[i].reason);
    }
    if (rank_helper_running) rank_sampling_begin();
    report_log_start(rank_id);
    sites_events_begin();
    if (rank_helper_running) rank_senders_begin();
    mpit_early_release(); /* the component holds its own by now, where it reads any */
    collect_started();
    peers_window_open();
    sites_window(1);
    rank_map_window_open();
    t_start = PMPI_Wtime();
    rank_t_start_mono = rank_monotonic_s();
    t_startup = t_before_init + (t_start - t0);
}

static void report_finish(void)
{
    rank_t_finish_mono = rank_monotonic_s();
    rank_state = ST_DONE;
    double elapsed = PMPI_Wtime() - t_start;
    rank_sampling_end(); /* before the sets it feeds stop */
    if (rank_helper_running) rank_helper_stop();
    report_log_finish(rank_id);
    pthread_mutex_lock(&rank_state_mu);
    rank_senders_end();
    peers_window_close();
    rank_window_closed = 1;
    sites_window(0);
    sites_watch_stop();
    pthread_mutex_unlock(&rank_state_mu);

    /* Everything below is collective: every rank takes part, whatever failed. */
    int len = 0;
    size_t total = 0;
    pthread_mutex_lock(&rank_state_mu);
    char *mine = rank_serialize(elapsed, &len, 0);
    pthread_mutex_unlock(&rank_state_mu);
    if (!mine) len = 0;
    selfcheck_begin();
    char *all = collect_gather(mine ? mine : "", len, &total);
    report_job_t *job = NULL;
    if (rank_id == 0 && all && (!(job = calloc(1, sizeof *job)) || report_job_init(job, rank_nprocs) != 0)) {
        free(job), job = NULL;
        rank_note("out of memory at MPI_Finalize: no report (the program goes on)");
    }
    if (job) {
        job->samples_min = -1; /* until a rank says */
        sites_attach(job);
        report_record_read_all(job, (sites_job_t *)job->extra.arg, all, total);
        report_matrix_finish(job);
        sites_finish(job);
        report_read_library_version(job);
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
        report_files(job);
        sites_detach(job);
        report_job_free(job);
        free(job);
    }
    collect_release();
    selfcheck_end("collection");
    collect_close();
    if (rank_helper_running)
        rank_helper_exit(); /* the run reached MPI_Finalize: no snapshot is left behind */
    peers_end(report_bool_env("PAPI_MPIT_REPORT_SELFCHECK", 0));
    free(mine);
    free(all);
    rank_senders_free();
    sites_comms_end();
    sites_end();
}

/* ---- every init entry point, C or Fortran: only the outermost call of a
 * process measures (a Fortran MPI_INIT may itself call the C PMPI_Init) */
static int mpi_is_initialized(void)
{
    int flag = 0;
    PMPI_Initialized(&flag);
    return flag;
}

/* level: the thread level the program asks for */
int report_init_begin(int level)
{
    /* a program that loaded its MPI privately (Python's mpi4py): our PMPI_
     * calls and the component need it global */
    if (report_mpi_global() != 0 && rank_state == ST_NONE)
        rank_note("cannot find the MPI library that defines PMPI_Init");
    if (rank_state != ST_NONE) return 0;
    rank_state = ST_INIT;
    double t0 = rank_monotonic_s();
    if (announce_before_init() == 1) t_mpit_init = mpit_early_hold(level);
    t_before_init = rank_monotonic_s() - t0;
    return 1;
}

void report_init_end(int outer)
{
    if (!outer) return;
    if (mpi_is_initialized()) {
        papi_mpit_after_init(); /* the component's catch-up, here rather than in a read */
        report_start();
    } else {
        mpit_early_release();
        rank_state = ST_NONE;
    }
}

/* MPI_Finalize's, C or Fortran, before the MPI's own */
void report_finalize_begin(void)
{
    if (rank_state == ST_RUNNING) report_finish();
    papi_mpit_before_finalize(); /* Open MPI 4.1 with SPCs: windows left open */
}
