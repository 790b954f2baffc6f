/* One name, one value, whatever the path (issue 31).  Every name form of
 * the table below that the running MPI has is measured on the same known
 * traffic (common/peers.h's point-to-point pattern and one broadcast from
 * rank 0, in one window) along each lifecycle path, and must read what the
 * plain path reads, and the exact truth where the traffic makes it known
 * (rows whose value depends on timing, the queues, go along every path but
 * are not compared):
 *   plain    named after MPI_Init, its own set, started around the traffic;
 *   before   named before MPI_Init, started after it;
 *   early    in the one set started before MPI_Init (one set per component
 *            runs at a time): the window between its first two reads; the
 *            first read, after the window with no PAPI call since MPI_Init,
 *            reads at least the window (all since MPI_Init), unless the
 *            description says the event counts from the first PAPI call
 *            after MPI_Init;
 *   again    named once more after MPI_Init, in a second set (the code of
 *            the name given before MPI_Init has the same name and
 *            description);
 *   thread   named by a second thread right after MPI_Init, while the main
 *            thread's first read catches up, and measured there;
 *   reset    started, other traffic, PAPI_reset, then the window.
 * t_paths_listed.c runs all of it after a walk of the component before
 * MPI_Init (a tool's event chooser); t_paths_hooked.c with
 * papi_mpit_after_init right after MPI_Init (a tool's MPI_Init wrapper),
 * where every row of the early set must count from MPI_Init.  The table is the coverage: after
 * MPI_Init every name form the catalog lists (variable, :elem=, :comm=self,
 * :class=, event, :sum=, :max=, derived counter, portable metric, :peer=)
 * must have a row here that this MPI has, so a new form fails the test
 * until the table covers it.
 * flavors: openmpi openmpi-spc mpich-events
 * (MPICH without MPI_T events has none of the table's names: there the
 * test could only skip, after 4 ranks polled through every row.)
 * ranks: 2 4 */
#include <pthread.h>

#include "check.h"
#include "papi_mpit.h"
#include "peers.h"

#ifndef LISTING_FIRST
#define LISTING_FIRST 0
#endif
/* 1: as a tool's MPI_Init wrapper would, papi_mpit_after_init right after
 * MPI_Init; then every row of the early set counts from MPI_Init */
#ifndef AFTER_INIT_HOOK
#define AFTER_INIT_HOOK 0
#endif

#define BCAST_INTS 100
#define MAX_ROWS   64

/* the truth of a row on the window's traffic, where known */
enum truth { T_NONE, T_ZERO, T_COLL_BYTES, T_COLL_BYTES_PEER1, T_BYTES_PEER1 };

/* compare: the value does not depend on timing (queues do), so every path
 * must read the plain one's */
static const struct row {
    const char *name;
    int truth, compare;
} rows[] = {
    /* portable metrics and :peer= */
    {"COLL_BYTES_SENT", T_COLL_BYTES, 1},
    {"COLL_BYTES_SENT:peer=1", T_COLL_BYTES_PEER1, 1},
    {"COLL_MSGS_SENT", T_NONE, 1},
    {"COLL_MSGS_SENT:peer=1", T_NONE, 1},
    {"BYTES_SENT", T_NONE, 0}, /* from the SPC where it counts, which may misfile a broadcast */
    {"BYTES_SENT:peer=1", T_BYTES_PEER1, 1},
    {"MSGS_SENT", T_NONE, 1},
    {"MSGS_SENT:peer=1", T_NONE, 1},
    {"RMA_BYTES_SENT", T_ZERO, 1},
    {"RMA_BYTES_SENT:peer=1", T_ZERO, 1},
    {"RMA_BYTES_RECEIVED", T_ZERO, 1},
    {"RMA_BYTES_RECEIVED:peer=1", T_ZERO, 1},
    {"UNEXPECTED_MSGS", T_NONE, 0},
    {"UNEXPECTED_QUEUE_MAX", T_NONE, 0},
    {"POSTED_QUEUE_MAX", T_NONE, 0},
    {"UNEXPECTED_MATCH_ATTEMPTS", T_NONE, 0},
    {"OOS_MSGS", T_NONE, 0},
    /* variables: plain, :elem=, :comm=self (refused where the MPI cannot
     * read it), Open MPI's non-continuous counter */
    {"coll_monitoring_messages_size", T_COLL_BYTES, 1},
    {"coll_monitoring_messages_size:elem=1", T_COLL_BYTES_PEER1, 1},
    {"coll_monitoring_messages_size:comm=self", T_NONE, 1},
    {"coll_monitoring_o2a_count", T_NONE, 1},
    {"pml_ob1_unexpected_msgq_length", T_NONE, 0},
    {"pml_ob1_unexpected_msgq_length:comm=self", T_NONE, 0},
    {"pml_ob1_unexpected_msgq_length:elem=1", T_NONE, 0},
    {"runtime_spc_OMPI_SPC_SEND", T_NONE, 1},
    {"runtime_spc_OMPI_SPC_BYTES_SENT_USER", T_NONE, 0},
    /* MPICH: recvq variables, a twin by :class=, events and derived counters */
    {"unexpected_recvq_length", T_NONE, 0},
    {"unexpected_recvq_length:elem=0", T_NONE, 0},
    {"unexpected_recvq_match_attempts", T_NONE, 0},
    {"posted_recvq_length", T_NONE, 0},
    {"posted_recvq_match_attempts", T_NONE, 0},
    {"time_matching_unexpectedq:class=counter", T_NONE, 0},
    {"time_failed_matching_postedq:class=counter", T_NONE, 0},
    {"event.unexp_message_enqueued", T_NONE, 0},
    {"event.unexp_message_enqueued:sum=source", T_NONE, 0},
    {"event.unexp_message_enqueued:max=source", T_NONE, 0},
    {"derived.unexpected_queue.max", T_NONE, 0},
    {"derived.unexpected_msgs", T_NONE, 0},
    /* Open MPI 6.0's object events */
    {"COMMS_CREATED", T_ZERO, 1},
    {"event.ompi.mpi.communicator_created", T_ZERO, 1},
    {"event.ompi.mpi.communicator_created:sum=size", T_ZERO, 1},
    {"event.ompi.mpi.communicator_created:max=size", T_ZERO, 1},
    {"derived.comms_created", T_ZERO, 1},
    /* where ob1's lengths cannot be bound (Open MPI 6.0.0~rc2's standard
     * ABI), the only plain variable left: not compared (allocations) */
    {"mpool_hugepage_bytes_allocated", T_NONE, 0},
    {"mpool_hugepage_bytes_allocated:elem=0", T_NONE, 0},
};
enum { NROWS = sizeof rows / sizeof rows[0] };
_Static_assert(NROWS <= MAX_ROWS, "one set started before MPI_Init holds every row");

enum { P_PLAIN, P_BEFORE, P_EARLY, P_AGAIN, P_THREAD, P_RESET, NPATHS };
static const char *const path_names[NPATHS] = {"plain",
                                               "named before MPI_Init",
                                               "started before MPI_Init",
                                               "named again in a second set",
                                               "a second thread right after MPI_Init",
                                               "after PAPI_reset"};

static int rank, size;
static char full[NROWS][PAPI_MAX_STR_LEN];
static int before_set[NROWS], has[NROWS];
static long long value[NROWS][NPATHS];
static int measured[NROWS][NPATHS];

/* The name's form, as the catalog's listing shows it. */
enum form {
    F_METRIC,
    F_METRIC_PEER,
    F_VAR,
    F_VAR_ELEM,
    F_VAR_COMM,
    F_VAR_CLASS,
    F_EVENT,
    F_EVENT_SUM,
    F_EVENT_MAX,
    F_DERIVED,
    NFORMS
};
static const char *const form_names[NFORMS] = {
    "portable metric",  "metric :peer=", "variable",    "variable :elem=", "variable :comm=",
    "variable :class=", "event",         "event :sum=", "event :max=",     "derived counter"};

static int form_of(const char *name)
{
    if (strncmp(name, "mpit:::", 7) == 0) name += 7;
    int upper = 1;
    for (const char *p = name; *p && *p != ':'; p++) upper &= !(*p >= 'a' && *p <= 'z');
    if (upper) return strstr(name, ":peer=") ? F_METRIC_PEER : F_METRIC;
    if (strncmp(name, "derived.", 8) == 0) return F_DERIVED;
    if (strncmp(name, "event.", 6) == 0)
        return strstr(name, ":sum=") ? F_EVENT_SUM : strstr(name, ":max=") ? F_EVENT_MAX : F_EVENT;
    if (strstr(name, ":elem=")) return F_VAR_ELEM;
    if (strstr(name, ":comm=")) return F_VAR_COMM;
    if (strstr(name, ":class=")) return F_VAR_CLASS;
    return F_VAR;
}

static long long truth(int t)
{
    switch (t) {
    case T_ZERO: return 0;
    case T_COLL_BYTES: return rank == 0 ? (long long)(size - 1) * BCAST_INTS * (long long)sizeof(int) : 0;
    case T_COLL_BYTES_PEER1: return rank == 0 ? BCAST_INTS * (long long)sizeof(int) : 0;
    case T_BYTES_PEER1: return peers_expected_bytes(rank, 1);
    default: return -1;
    }
}

/* The known traffic: every receive posted, a barrier, the point-to-point
 * pattern and one broadcast from rank 0.  Collective on every rank. */
static void traffic(void)
{
    char *buf;
    int n, ints[BCAST_INTS] = {0};
    MPI_Request *req = peers_post(rank, size, &buf, &n);
    MPI_Barrier(MPI_COMM_WORLD);
    peers_send(rank, size, req, n);
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    free(req);
    free(buf);
}

/* Every rank runs the window, whether or not its set exists here (the
 * traffic is collective); returns the set's value or -1. */
static long long window(int es, int with_reset)
{
    long long v = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    int ok = es != PAPI_NULL && PAPI_start(es) == PAPI_OK;
    if (with_reset) {
        traffic(); /* counted, then dropped by the reset */
        if (ok) CHECK_PAPI(PAPI_reset(es));
    }
    traffic();
    if (ok) CHECK_PAPI(PAPI_stop(es, &v));
    return v;
}

static void walk(void)
{
    int cidx = PAPI_get_component_index("mpit"), code = PAPI_NATIVE_MASK;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK) return;
    do {
        int q = code;
        while (PAPI_enum_cmp_event(&q, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) continue;
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
}

/* ---- the second thread: names every row right after MPI_Init, then
 * measures each window the main thread runs */
static pthread_barrier_t step;
static int thread_set[NROWS];

static void *second_thread(void *arg)
{
    (void)arg;
    CHECK_PAPI(PAPI_register_thread());
    for (int r = 0; r < NROWS; r++) thread_set[r] = check_one_event_set(full[r]);
    pthread_barrier_wait(&step); /* named */
    for (int r = 0; r < NROWS; r++) {
        pthread_barrier_wait(&step); /* the main thread is at this row's window */
        int ok = thread_set[r] != PAPI_NULL && PAPI_start(thread_set[r]) == PAPI_OK;
        long long at_start = 0;
        if (ok) CHECK_PAPI(PAPI_read(thread_set[r], &at_start));
        CHECK(at_start == 0 || !rows[r].compare, "%s from the second thread: %lld right after PAPI_start",
              rows[r].name, at_start);
        pthread_barrier_wait(&step); /* started: the main thread runs the traffic */
        pthread_barrier_wait(&step); /* done */
        if (ok) {
            CHECK_PAPI(PAPI_stop(thread_set[r], &value[r][P_THREAD]));
            measured[r][P_THREAD] = 1;
        }
        pthread_barrier_wait(&step); /* stopped: the main thread goes on */
        if (thread_set[r] != PAPI_NULL) {
            CHECK_PAPI(PAPI_cleanup_eventset(thread_set[r]));
            CHECK_PAPI(PAPI_destroy_eventset(&thread_set[r]));
        }
    }
    CHECK_PAPI(PAPI_unregister_thread());
    return NULL;
}

/* ---- after MPI_Init: what the catalog lists must be in the table */
static void check_coverage(void)
{
    int listed[NFORMS] = {0}, covered[NFORMS] = {0};
    char example[NFORMS][PAPI_MAX_STR_LEN];
    int cidx = PAPI_get_component_index("mpit"), code = PAPI_NATIVE_MASK;
    for (int r = 0; r < NROWS; r++)
        if (has[r]) covered[form_of(rows[r].name)] = 1;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK) return;
    do {
        int q = code, more = 1;
        for (int sub = 0; more; sub++) {
            PAPI_event_info_t info;
            if (PAPI_get_event_info(sub ? q : code, &info) == PAPI_OK &&
                !strstr(info.long_descr, "cannot be added")) {
                int f = form_of(info.symbol);
                if (!listed[f]++) snprintf(example[f], sizeof example[f], "%.120s", info.symbol);
            }
            more = PAPI_enum_cmp_event(&q, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK;
        }
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    for (int f = 0; f < NFORMS; f++)
        CHECK(!listed[f] || covered[f],
              "the catalog lists %d names of the form \"%s\" (e.g. %s), none of them in "
              "the table of paths that this MPI has: add a row",
              listed[f], form_names[f], example[f]);
}

int main(int argc, char **argv)
{
    int early = PAPI_NULL, provided, nhave = 0;
    long long first[MAX_ROWS], second[MAX_ROWS];
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    unsetenv("OMPI_MCA_mpi_spc_attach");
    check_papi_init();
    CHECK_PAPI(PAPI_thread_init((unsigned long (*)(void))pthread_self));
    if (LISTING_FIRST) walk();
    for (int r = 0; r < NROWS; r++) {
        snprintf(full[r], sizeof full[r], "mpit:::%.100s", rows[r].name);
        before_set[r] = check_one_event_set(full[r]);
    }
    /* the early set: every row the component accepts before MPI_Init */
    int early_row[MAX_ROWS], nearly = 0;
    CHECK_PAPI(PAPI_create_eventset(&early));
    for (int r = 0; r < NROWS; r++)
        if (PAPI_add_named_event(early, full[r]) == PAPI_OK) early_row[nearly++] = r;
    CHECK_PAPI(PAPI_start(early));

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (AFTER_INIT_HOOK) CHECK_PAPI(papi_mpit_after_init());
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    pthread_t thread;
    pthread_barrier_init(&step, NULL, 2);
    pthread_create(&thread, NULL, second_thread, NULL); /* names every row now */
    traffic(); /* the early set's first window: nothing else since MPI_Init */
    CHECK_PAPI(PAPI_read(early, first));
    traffic();
    CHECK_PAPI(PAPI_read(early, second));
    CHECK_PAPI(PAPI_stop(early, second));
    pthread_barrier_wait(&step); /* the thread has named every row */

    for (int r = 0; r < NROWS; r++) {
        int plain = check_one_event_set(full[r]);
        has[r] = plain != PAPI_NULL;
        nhave += has[r];
        /* the same name before and after MPI_Init: one entry */
        int c_before, c_after;
        PAPI_event_info_t ib, ia;
        if (has[r] && PAPI_event_name_to_code(full[r], &c_after) == PAPI_OK && before_set[r] != PAPI_NULL) {
            int n = 1;
            CHECK_PAPI(PAPI_list_events(before_set[r], &c_before, &n));
            CHECK_PAPI(PAPI_get_event_info(c_before, &ib));
            CHECK_PAPI(PAPI_get_event_info(c_after, &ia));
            CHECK(strcmp(ib.symbol, ia.symbol) == 0 && strcmp(ib.long_descr, ia.long_descr) == 0,
                  "%s: named before MPI_Init it is \"%s\" (%s), after it \"%s\" (%s)", rows[r].name,
                  ib.symbol, ib.long_descr, ia.symbol, ia.long_descr);
        }
        CHECK(!has[r] || before_set[r] != PAPI_NULL,
              "%s can be added after MPI_Init but was refused before it", rows[r].name);
        value[r][P_PLAIN] = window(plain, 0);
        value[r][P_BEFORE] = window(before_set[r], 0);
        int again = has[r] ? check_one_event_set(full[r]) : PAPI_NULL;
        value[r][P_AGAIN] = window(again, 0);
        value[r][P_RESET] = window(plain, 1);
        measured[r][P_PLAIN] = measured[r][P_AGAIN] = measured[r][P_RESET] = has[r];
        measured[r][P_BEFORE] = has[r] && before_set[r] != PAPI_NULL;
        /* the thread's window */
        MPI_Barrier(MPI_COMM_WORLD); /* a collective: before the thread starts */
        pthread_barrier_wait(&step);
        pthread_barrier_wait(&step);
        traffic();
        pthread_barrier_wait(&step);
        pthread_barrier_wait(&step);
        /* the early set: its own windows */
        for (int k = 0; k < nearly; k++) {
            if (early_row[k] != r || !has[r]) continue;
            int code;
            PAPI_event_info_t info;
            CHECK_PAPI(PAPI_event_name_to_code(full[r], &code));
            CHECK_PAPI(PAPI_get_event_info(code, &info));
            int late =
                !AFTER_INIT_HOOK && strstr(info.long_descr, "counts it from the first PAPI call") != NULL;
            /* the second window is the plain one; the first holds all
             * since MPI_Init, which may be more (Open MPI built with SPCs
             * sends 4 bytes to every peer by a collective in MPI_Init),
             * never less, unless the description says it starts later */
            value[r][P_EARLY] = second[k] - first[k];
            if (!late)
                CHECK(
                    first[k] >= second[k] - first[k] || !rows[r].compare,
                    "%s started before MPI_Init: %lld from MPI_Init to the end of the first window, %lld in "
                    "the second: what came before the first PAPI call was lost (%s)",
                    rows[r].name, first[k], second[k] - first[k], info.long_descr);
            measured[r][P_EARLY] = 1;
        }
        if (plain != PAPI_NULL) PAPI_cleanup_eventset(plain), PAPI_destroy_eventset(&plain);
        if (again != PAPI_NULL) PAPI_cleanup_eventset(again), PAPI_destroy_eventset(&again);
    }
    pthread_join(thread, NULL);
    if (nhave == 0) check_skip("this MPI has none of the names of the table");

    for (int r = 0; r < NROWS; r++) {
        if (!has[r]) continue;
        long long want = truth(rows[r].truth);
        if (want >= 0)
            CHECK(value[r][P_PLAIN] == want, "%s plain: %lld, expected %lld", rows[r].name, value[r][P_PLAIN],
                  want);
        for (int p = 1; p < NPATHS && rows[r].compare; p++)
            CHECK(!measured[r][p] || value[r][p] == value[r][P_PLAIN], "%s %s: %lld, the plain path %lld",
                  rows[r].name, path_names[p], value[r][p], value[r][P_PLAIN]);
        CHECK(measured[r][P_THREAD] && measured[r][P_BEFORE],
              "%s: not measured from the second thread (%d) or "
              "named before MPI_Init (%d)",
              rows[r].name, measured[r][P_THREAD], measured[r][P_BEFORE]);
    }
    check_coverage();
    if (rank == 0) printf("%d of %d names of the table on this MPI, %d paths each\n", nhave, NROWS, NPATHS);
    MPI_Finalize();
    return check_finish(LISTING_FIRST ? "t_paths_listed" : AFTER_INIT_HOOK ? "t_paths_hooked" : "t_paths");
}
