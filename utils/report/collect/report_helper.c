/*
 * papi-mpit-report: the helper thread that creates, starts, stops and reads
 * the rank's event sets and serves its snapshots.
 */
#include <papi.h>

#include <pthread.h>
#include <stdlib.h>

#include "report_rank.h"
#include "report_snapshot.h"

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
static pthread_mutex_t helper_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t helper_cv = PTHREAD_COND_INITIALIZER;
static enum phase phase = PH_IDLE;
int rank_helper_running;
int rank_snap_on;

static void set_phase(enum phase p)
{
    pthread_mutex_lock(&helper_mu);
    phase = p;
    pthread_cond_broadcast(&helper_cv);
    pthread_mutex_unlock(&helper_mu);
    if (rank_snap_on) snap_wake();
}

static int phase_is(void *p)
{
    pthread_mutex_lock(&helper_mu);
    int yes = phase == (enum phase)(long)p;
    pthread_mutex_unlock(&helper_mu);
    return yes;
}

static void wait_phase(enum phase p)
{
    pthread_mutex_lock(&helper_mu);
    while (phase != p) pthread_cond_wait(&helper_cv, &helper_mu);
    pthread_mutex_unlock(&helper_mu);
}

static void *helper_main(void *arg)
{
    (void)arg;
    snap_block_here();      /* a signal it must answer is never handed to it */
    PAPI_register_thread(); /* PAPI's thread-local state, before any call */
    const char *list = getenv("PAPI_MPIT_REPORT_EVENTS");
    rank_parse_events(list && *list ? list : "default");
    rank_note_earlier_reasons();
    rank_add_events(0);
    set_phase(PH_STARTED);
    if (rank_snap_on)
        snap_serve(rank_write_state, phase_is, (void *)(long)PH_STOP);
    else
        wait_phase(PH_STOP);
    pthread_mutex_lock(&rank_state_mu);
    rank_stop_sets(0);
    rank_sets_stopped = 1;
    pthread_mutex_unlock(&rank_state_mu);
    PAPI_unregister_thread();
    set_phase(PH_STOPPED);
    /* until the collection is over: a rank that waits there for another
     * one still writes its state when asked */
    if (rank_snap_on) snap_serve(rank_write_state, phase_is, (void *)(long)PH_EXIT);
    return NULL;
}

/* Starts the helper and waits until its event sets run; 0, or -1 when no
 * thread could be started (then nothing is measured). */
int rank_helper_start(void)
{
    if (pthread_create(&helper, NULL, helper_main, NULL) != 0) return -1;
    rank_helper_running = 1;
    wait_phase(PH_STARTED);
    return 0;
}

/* The counting's end: the application thread's sets, then the helper's. */
void rank_helper_stop(void)
{
    pthread_mutex_lock(&rank_state_mu);
    rank_stop_sets(1);
    pthread_mutex_unlock(&rank_state_mu);
    set_phase(PH_STOP);
    wait_phase(PH_STOPPED);
    if (!rank_snap_on) {
        pthread_join(helper, NULL);
        rank_helper_running = 0;
    }
}

/* The run reached MPI_Finalize: no snapshot is left behind. */
void rank_helper_exit(void)
{
    snap_off();
    set_phase(PH_EXIT);
    pthread_join(helper, NULL);
    rank_helper_running = 0;
    rank_snap_remove();
}
