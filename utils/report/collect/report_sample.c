/*
 * papi-mpit-report: sampling the queue maxima that the mpit component keeps
 * "as seen when read".
 *
 * Where the MPI publishes only a queue's current length (Open MPI's ob1
 * queues, MPICH's posted queue), the component's *_QUEUE_MAX is the largest
 * length any PAPI read of the process saw (a maximum pooled over every event
 * set).  The report reads at MPI_Init and MPI_Finalize only, when queues are
 * usually empty, so a thread of ours reads a set of these events every
 * period: each read feeds the pool, and the report's last read returns the
 * largest length sampled.  Its own thread, because PAPI runs one set per
 * component and thread and the helper's mpit set is already running.
 *
 * Reading MPI_T from this thread while the program runs at
 * MPI_THREAD_SINGLE or FUNNELED (the MPI sources read):
 * - Open MPI 4.1.4 and 5.0.9: MPI_T_pvar_read takes ompi_mpit_big_lock, a
 *   pthread mutex taken whatever the thread level (opal_mutex_lock, not the
 *   OPAL_THREAD_LOCK that is skipped without threads), so MPI_T calls of
 *   several threads are serialized.  ob1's queue-length variables walk the
 *   communicator's peer array (a peer is published after an
 *   opal_atomic_wmb) and load each list's length, a size_t the matching
 *   thread updates: an aligned load sees the old or the new length.
 * - MPICH 4.x: MPI_T_pvar_read locks mpi_t_mutex only when MPI_T was
 *   initialized at MPI_THREAD_MULTIPLE (the component passes the program's
 *   level), but a level variable's read is a memcpy of the unsigned the
 *   device updates, and touches no state shared with other MPI_T calls but
 *   its own handle.  MPICH with MPI_T events keeps UNEXPECTED_QUEUE_MAX from
 *   its events (no sampling); its POSTED_QUEUE_MAX is sampled.
 * The sampler's set is made and started while the program waits in
 * MPI_Init, and stopped and destroyed before MPI_Finalize communicates, so
 * only reads run beside the program.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <papi.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_env.h"
#include "report_sample.h"

static pthread_t thread;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv; /* on CLOCK_MONOTONIC, made by sample_start */
static int running, stopping, set_up, setup_rc;
static char setup_why[256];
static const int *want_codes;
static int want_n;
static long long period_ns;
static atomic_long samples = -1;
static double thread_cpu_s; /* the sampler's CPU time between set-up and stop */

/* queue lengths over time: written by the sampler, copied by the helper
 * (a snapshot) and at the end, under kept_mu */
static const int *series_codes;
static int series_n;
static pthread_mutex_t kept_mu = PTHREAD_MUTEX_INITIALIZER;
static double kept_t[SAMPLE_KEEP], kept_v[SAMPLE_SERIES][SAMPLE_KEEP];
static int kept_n;
static long kept_stride = 1, kept_skip;

void sample_series(const int *codes, int n)
{
    series_codes = codes;
    series_n = n < SAMPLE_SERIES ? n : SAMPLE_SERIES;
}

static void keep(const long long *values)
{
    if (!series_n || ++kept_skip < kept_stride) return;
    kept_skip = 0;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&kept_mu);
    if (kept_n == SAMPLE_KEEP) { /* every other point goes, points kept half as often */
        for (int i = 0; i < SAMPLE_KEEP / 2; i++) {
            kept_t[i] = kept_t[2 * i];
            for (int k = 0; k < series_n; k++) kept_v[k][i] = kept_v[k][2 * i];
        }
        kept_n = SAMPLE_KEEP / 2;
        kept_stride *= 2;
    }
    kept_t[kept_n] = (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
    for (int k = 0; k < series_n; k++) kept_v[k][kept_n] = (double)values[want_n + k];
    kept_n++;
    pthread_mutex_unlock(&kept_mu);
}

int sample_series_copy(int k, double *t, double *v, int max)
{
    if (k < 0 || k >= series_n) return 0;
    pthread_mutex_lock(&kept_mu);
    int n = kept_n < max ? kept_n : max;
    memcpy(t, kept_t, sizeof *t * (size_t)n);
    memcpy(v, kept_v[k], sizeof *v * (size_t)n);
    pthread_mutex_unlock(&kept_mu);
    return n;
}

static double cpu_now(void)
{
    struct timespec t;
    return clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) == 0 ? (double)t.tv_sec + 1e-9 * (double)t.tv_nsec : 0;
}

int sample_needed(int code)
{
    PAPI_event_info_t info;
    return PAPI_get_event_info(code, &info) == PAPI_OK && strstr(info.long_descr, "seen when read") != NULL;
}

double sample_period_ms(int *bad)
{
    const char *s = getenv("PAPI_MPIT_REPORT_SAMPLE_MS");
    *bad = 0;
    double ms;
    if (!s || !*s) return SAMPLE_DEFAULT_MS;
    if (report_ms_parse(s, &ms)) {
        *bad = 1;
        return SAMPLE_DEFAULT_MS;
    }
    return ms;
}

static void setup_done(int rc, const char *fmt, const char *what)
{
    pthread_mutex_lock(&mu);
    setup_rc = rc;
    if (rc) snprintf(setup_why, sizeof setup_why, fmt, what);
    set_up = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
}

static void add_ns(struct timespec *t, long long ns)
{
    ns += t->tv_nsec;
    t->tv_sec += (time_t)(ns / 1000000000);
    t->tv_nsec = (long)(ns % 1000000000);
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *sampler_main(void *arg)
{
    (void)arg;
    int es = PAPI_NULL, rc;
    long long *values = calloc((size_t)want_n + (size_t)series_n + 1, sizeof *values);
    PAPI_register_thread();
    if (!values) {
        setup_done(-1, "%s", "out of memory");
        PAPI_unregister_thread();
        return NULL;
    }
    const char *step = "PAPI_create_eventset";
    rc = PAPI_create_eventset(&es);
    for (int i = 0; rc == PAPI_OK && i < want_n; i++)
        step = "PAPI_add_event", rc = PAPI_add_event(es, want_codes[i]);
    for (int i = 0; rc == PAPI_OK && i < series_n; i++)
        if (PAPI_add_event(es, series_codes[i]) != PAPI_OK) series_n = i; /* kept without them */
    if (rc == PAPI_OK) step = "PAPI_start", rc = PAPI_start(es);
    if (rc != PAPI_OK) {
        char why[200];
        snprintf(why, sizeof why, "%s: %s", step, PAPI_strerror(rc));
        if (es != PAPI_NULL) {
            PAPI_cleanup_eventset(es);
            PAPI_destroy_eventset(&es);
        }
        free(values);
        setup_done(-1, "%s", why);
        PAPI_unregister_thread();
        return NULL;
    }
    atomic_store(&samples, 0);
    setup_done(0, "%s", "");

    /* absolute deadlines: the period does not drift with the reads' cost;
     * after a late wake-up (an oversubscribed node) the next is a period on */
    struct timespec next, now;
    double cpu0 = cpu_now(); /* the set-up is part of the tool's start-up */
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&mu);
    while (!stopping) {
        add_ns(&next, period_ns);
        while (!stopping && pthread_cond_timedwait(&cv, &mu, &next) != ETIMEDOUT) {}
        if (stopping) break;
        pthread_mutex_unlock(&mu);
        /* the maxima's values are not needed: the read feeds the pool */
        if (PAPI_read(es, values) == PAPI_OK) keep(values);
        atomic_fetch_add(&samples, 1);
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (before(&next, &now)) next = now;
        pthread_mutex_lock(&mu);
    }
    pthread_mutex_unlock(&mu);
    thread_cpu_s = cpu_now() - cpu0;
    PAPI_stop(es, values);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    free(values);
    PAPI_unregister_thread();
    return NULL;
}

int sample_start(const int *codes, int n, double period_ms, char *why, size_t len)
{
    pthread_condattr_t ca;
    if (running || (n <= 0 && series_n <= 0) || !(period_ms > 0)) return -1;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cv, &ca);
    pthread_condattr_destroy(&ca);
    want_codes = codes;
    want_n = n;
    kept_n = 0, kept_stride = 1, kept_skip = 0;
    period_ns = (long long)(period_ms * 1e6);
    if (period_ns < 1000) period_ns = 1000;
    stopping = set_up = 0;

    /* no signal of the program's is delivered to our thread (a profiler's
     * SIGPROF, a handler that expects the program's threads) */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&thread, NULL, sampler_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(why, len, "cannot start a thread: %s", strerror(rc));
        pthread_cond_destroy(&cv);
        return -1;
    }
    pthread_mutex_lock(&mu);
    while (!set_up) pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    if (setup_rc != 0) {
        pthread_join(thread, NULL);
        pthread_cond_destroy(&cv);
        snprintf(why, len, "%s", setup_why);
        return -1;
    }
    running = 1;
    return 0;
}

long sample_stop(double *cpu_s)
{
    *cpu_s = 0;
    if (!running) return 0;
    pthread_mutex_lock(&mu);
    stopping = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    pthread_join(thread, NULL);
    pthread_cond_destroy(&cv);
    running = 0;
    *cpu_s = thread_cpu_s;
    return atomic_exchange(&samples, -1);
}

__attribute__((visibility("default"))) long papi_mpit_report_samples(void) { return atomic_load(&samples); }
