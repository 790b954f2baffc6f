/* The rest of papi_mpit.h, as the report tool uses it:
 *  - papi_mpit_metric: the portable metrics, MATCH_TIME marked costly and
 *    UNEXPECTED_MSGS not, NULL past the last;
 *  - papi_mpit_why / papi_mpit_quiet: the reason printed for a refused name
 *    is the reason asked for, and a quiet component prints nothing but still
 *    keeps it;
 *  - papi_mpit_watch_*: on an MPI with MPI_T queue events (MPICH), a ring
 *    (below) makes exactly N + 1 messages from the left neighbour arrive
 *    unexpected on every rank: the watcher sees exactly
 *    N + 1 unexp_message_enqueued instances, each with source = the left
 *    neighbour and context_id = 0 (MPI_COMM_WORLD), timestamps between the
 *    start and the stop, and N + 1 dequeued ones, whose data must not be
 *    read (no elements).  MPICH 5.0 aborts when event data is read: there
 *    no type is readable, the instances come without elements, and their
 *    counts are still exact.  On an MPI with object events only (Open MPI
 *    6.0), 2 communicators duplicated and freed while watching give exactly
 *    2 ompi.mpi.communicator_created instances, each with elements named
 *    size and handle and size = the world's, and 2 communicator_freed.
 *    Elsewhere starting says PAPI_ENOEVNT and why.
 * ranks: 2 4 */
#include <stdatomic.h>

#include "check.h"
#include "papi_mpit.h"

#define N         25
#define MAX_TYPES 64

static atomic_long seen[MAX_TYPES], from_left, with_elements;
static atomic_ulong earliest = ~0ul, latest;
static int enqueued = -1, created = -1, left, tag_in_events;
static atomic_long created_sizes; /* element 0 (size) of communicator_created, summed */
#define TAG_READY 60
#define TAG_DATA  61
#define TAG_GO    62
#define TAG_DONE  63
static volatile int64_t other_source = -1, other_context = -1; /* the last not from the left */

static void watcher(void *ctx, int type, uint64_t time_ns, const int64_t *elements, int nelements)
{
    (void)ctx;
    if (type >= 0 && type < MAX_TYPES) atomic_fetch_add(&seen[type], 1);
    if (nelements > 0) atomic_fetch_add(&with_elements, 1);
    if (type == created && nelements >= 1) atomic_fetch_add(&created_sizes, (long)elements[0]);
    /* element 1: MPI_COMM_WORLD's context id, 0 (MPICH 4.0), or the tag
     * (4.1 on: the ring's data and go messages) */
    if (type == enqueued && nelements >= 2 && elements[0] == left &&
        (elements[1] == 0 || (tag_in_events && (elements[1] == TAG_DATA || elements[1] == TAG_GO))))
        atomic_fetch_add(&from_left, 1);
    else if (type == enqueued && nelements >= 2) {
        other_source = elements[0];
        other_context = elements[1];
    }
    unsigned long t = (unsigned long)time_ns, e = atomic_load(&earliest), l = atomic_load(&latest);
    while (t < e && !atomic_compare_exchange_weak(&earliest, &e, t)) {}
    while (t > l && !atomic_compare_exchange_weak(&latest, &l, t)) {}
}

/* Every rank sends N data messages and a "go" to its right neighbour, which
 * receives them only once the go is there: all N + 1 arrive unexpected.  The
 * messages that frame it are all asked for before the barrier, so none of
 * them arrives unexpected: the "ready" that lets a rank send, and the
 * "done" every rank sends every other once it stopped watching (without
 * it, the collectives of a rank that is ahead reach one still watching).
 * No barrier message is left in flight to a rank that has left it. */
#define MAX_RANKS 64
static int ready_from_right, done_in[MAX_RANKS];
static MPI_Request ready_req, done_req[MAX_RANKS];

static void ring_prepare(int right, int size)
{
    MPI_Irecv(&ready_from_right, 1, MPI_INT, right, TAG_READY, MPI_COMM_WORLD, &ready_req);
    for (int r = 0; r < size; r++)
        if (r == check_rank)
            done_req[r] = MPI_REQUEST_NULL;
        else
            MPI_Irecv(&done_in[r], 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &done_req[r]);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void ring_run(int right)
{
    int ready = 1, go = 1, got = 0;
    char out[N] = {0}, in[N];
    MPI_Request sends[N + 2];
    MPI_Status st[N + 2]; /* not IGNORE: gcc flags MPICH's (MPI_Status *)1 */
    MPI_Isend(&ready, 1, MPI_INT, left, TAG_READY, MPI_COMM_WORLD, &sends[N + 1]);
    MPI_Wait(&ready_req, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++) MPI_Isend(&out[i], 1, MPI_CHAR, right, TAG_DATA, MPI_COMM_WORLD, &sends[i]);
    MPI_Isend(&go, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, &sends[N]);
    MPI_Probe(left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* behind every data message of left */
    MPI_Recv(&got, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < N; i++)
        MPI_Recv(&in[i], 1, MPI_CHAR, left, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(N + 2, sends, st);
}

/* After this rank stopped watching: on once every rank has. */
static void ring_done(int size)
{
    int done = 1;
    MPI_Request sends[MAX_RANKS];
    MPI_Status st[MAX_RANKS];
    for (int r = 0; r < size; r++)
        if (r == check_rank)
            sends[r] = MPI_REQUEST_NULL;
        else
            MPI_Isend(&done, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &sends[r]);
    MPI_Waitall(size, sends, st);
    MPI_Waitall(size, done_req, st);
}

static void check_metrics(void)
{
    const char *name, *cost, *match_cost = "absent", *unexpected_cost = "absent";
    int n = 0;
    for (; (name = papi_mpit_metric(n, &cost)) != NULL; n++) {
        if (strcmp(name, "MATCH_TIME") == 0) match_cost = cost;
        if (strcmp(name, "UNEXPECTED_MSGS") == 0) unexpected_cost = cost;
    }
    CHECK(n >= 2 && papi_mpit_metric(-1, NULL) == NULL, "%d metrics", n);
    CHECK(match_cost && strcmp(match_cost, "absent") != 0, "MATCH_TIME has no cost");
    CHECK(unexpected_cost == NULL, "UNEXPECTED_MSGS: %s", unexpected_cost ? unexpected_cost : "(null)");
}

static void check_reasons(void)
{
    char why[512] = "", line[700];
    int es = PAPI_NULL;
    CHECK_PAPI(PAPI_create_eventset(&es));
    check_capture_begin();
    int rc = PAPI_add_named_event(es, "mpit:::NO_SUCH_METRIC_FOR_WHY");
    const char *said = check_capture_end(1);
    CHECK(rc != PAPI_OK, "a portable metric that does not exist was added");
    CHECK(papi_mpit_why("mpit:::NO_SUCH_METRIC_FOR_WHY", why, sizeof why) == 1, "no reason kept");
    snprintf(line, sizeof line, "papi-mpit: NO_SUCH_METRIC_FOR_WHY: %s\n", why);
    CHECK(strstr(said, line) != NULL, "said \"%s\", kept \"%s\"", said, why);

    CHECK(papi_mpit_quiet(1) == 0, "the component was quiet already");
    check_capture_begin();
    rc = PAPI_add_named_event(es, "mpit:::NO_SUCH_METRIC_QUIETLY");
    said = check_capture_end(1);
    CHECK(rc != PAPI_OK && !strstr(said, "NO_SUCH_METRIC_QUIETLY"), "quiet, yet said: %s", said);
    CHECK(papi_mpit_why("NO_SUCH_METRIC_QUIETLY", why, sizeof why) == 1 && why[0], "quiet: no reason kept");
    CHECK(papi_mpit_quiet(0) == 1, "quiet was not set");
    CHECK(papi_mpit_why("never_asked_for", why, sizeof why) == 0, "a reason for a name never asked for");
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
}

int main(int argc, char **argv)
{
    int size, ntypes = -1, dequeued = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (check_rank + size - 1) % size;
    tag_in_events = check_mpich_at_least(4, 1);
    check_papi_init();
    check_metrics();
    check_reasons();

    int right = (check_rank + 1) % size;
    if (size > MAX_RANKS) check_skip("more ranks than the test's arrays");
    ring_prepare(right, size);
    int was_quiet = papi_mpit_quiet(1);
    int rc = papi_mpit_watch_start(watcher, NULL, &ntypes);
    papi_mpit_quiet(was_quiet);
    if (rc != PAPI_OK) {
        char why[512] = "";
        CHECK(rc == PAPI_ENOEVNT, "papi_mpit_watch_start: %d (%s)", rc, PAPI_strerror(rc));
        CHECK(papi_mpit_why("events", why, sizeof why) == 1 && why[0], "no reason for having no events");
        if (check_rank == 0) printf("no MPI_T events here: %s\n", why);
        ring_run(right);
        ring_done(size);
    } else {
        papi_mpit_event_type_t t;
        for (int i = 0; i < ntypes; i++) {
            CHECK_PAPI(papi_mpit_watch_type(i, &t));
            if (strcmp(t.name, "unexp_message_enqueued") == 0) enqueued = i;
            if (strcmp(t.name, "unexp_message_dequeued") == 0) dequeued = i;
        }
        CHECK(papi_mpit_watch_type(ntypes, &t) == PAPI_ENOEVNT, "a type past the last");
        int freed = -1;
        for (int i = 0; i < ntypes && i < MAX_TYPES; i++)
            if (papi_mpit_watch_type(i, &t) == PAPI_OK) {
                if (strcmp(t.name, "ompi.mpi.communicator_created") == 0) created = i;
                if (strcmp(t.name, "ompi.mpi.communicator_freed") == 0) freed = i;
            }
        if (enqueued < 0 && created >= 0 && freed >= 0) { /* object events only */
            CHECK(papi_mpit_watch_type(created, &t) == PAPI_OK && t.readable && t.nelem == 2 &&
                      !strcmp(t.elem_name[0], "size") && !strcmp(t.elem_name[1], "handle") &&
                      t.elem_kind[0] == PAPI_MPIT_ELEM_SIGNED,
                  "communicator_created: readable %d, %d elements, '%s' '%s'", t.readable, t.nelem,
                  t.elem_name[0], t.elem_name[1]);
            uint64_t start = papi_mpit_watch_now(), dropped = 1;
            MPI_Comm c[2];
            for (int i = 0; i < 2; i++) MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
            for (int i = 0; i < 2; i++) MPI_Comm_free(&c[i]);
            ring_run(right);
            uint64_t stop = papi_mpit_watch_now();
            CHECK_PAPI(papi_mpit_watch_stop(&dropped));
            ring_done(size);
            CHECK(atomic_load(&seen[created]) == 2 && atomic_load(&seen[freed]) == 2,
                  "communicators: %ld created, %ld freed seen, 2 each made", atomic_load(&seen[created]),
                  atomic_load(&seen[freed]));
            CHECK(atomic_load(&created_sizes) == 2L * size, "created sizes sum to %ld, expected %d",
                  atomic_load(&created_sizes), 2 * size);
            CHECK(dropped == 0, "%llu instances dropped by the MPI", (unsigned long long)dropped);
            CHECK(start <= atomic_load(&earliest) && atomic_load(&latest) <= stop,
                  "instances at %lu..%lu, outside the watch %llu..%llu", atomic_load(&earliest),
                  atomic_load(&latest), (unsigned long long)start, (unsigned long long)stop);
            if (check_rank == 0)
                printf("rank 0: %ld communicators created, %ld freed (object events)\n",
                       atomic_load(&seen[created]), atomic_load(&seen[freed]));
            int code = check_finish("t_watch");
            MPI_Finalize();
            return code;
        }
        CHECK(enqueued >= 0 && dequeued >= 0 && enqueued < MAX_TYPES && dequeued < MAX_TYPES,
              "no MPICH queue events among %d types", ntypes);
        int unreadable = check_event_data_unreadable();
        if (enqueued >= 0 && papi_mpit_watch_type(enqueued, &t) == PAPI_OK && unreadable)
            CHECK(!t.readable, "MPICH 5.0's enqueued data is marked readable");
        else if (enqueued >= 0 && papi_mpit_watch_type(enqueued, &t) == PAPI_OK)
            CHECK(t.readable && t.nelem >= 2 && !strcmp(t.elem_name[0], "source") &&
                      !strcmp(t.elem_name[1], tag_in_events ? "tag" : "context_id") &&
                      t.elem_kind[0] == PAPI_MPIT_ELEM_SIGNED,
                  "enqueued: readable %d, %d elements, %s %s", t.readable, t.nelem, t.elem_name[0],
                  t.elem_name[1]);
        if (dequeued >= 0 && papi_mpit_watch_type(dequeued, &t) == PAPI_OK)
            CHECK(!t.readable, "MPICH 4.0's dequeued data is marked readable");

        uint64_t start = papi_mpit_watch_now(), dropped = 1;
        ring_run(right);
        uint64_t stop = papi_mpit_watch_now();
        CHECK_PAPI(papi_mpit_watch_stop(&dropped));
        CHECK(papi_mpit_watch_stop(NULL) == PAPI_ENOTRUN, "stopped twice");
        ring_done(size);
        if (enqueued >= 0 && dequeued >= 0) {
            long enq = atomic_load(&seen[enqueued]), deq = atomic_load(&seen[dequeued]);
            CHECK(enq == N + 1 && deq == N + 1, "enqueued %ld, dequeued %ld, expected %d each", enq, deq,
                  N + 1);
            long want = unreadable ? 0 : N + 1; /* no source where nothing may be read */
            CHECK(atomic_load(&from_left) == want, "%ld from rank %d on MPI_COMM_WORLD",
                  atomic_load(&from_left), left);
            CHECK(atomic_load(&with_elements) == want, "%ld instances with elements (dequeued has none)",
                  atomic_load(&with_elements));
        }
        CHECK(other_source < 0, "an unexpected message from rank %lld, context %lld", (long long)other_source,
              (long long)other_context);
        CHECK(dropped == 0, "%llu instances dropped by the MPI", (unsigned long long)dropped);
        CHECK(start <= atomic_load(&earliest) && atomic_load(&latest) <= stop,
              "instances at %lu..%lu, outside the watch %llu..%llu", atomic_load(&earliest),
              atomic_load(&latest), (unsigned long long)start, (unsigned long long)stop);
        if (check_rank == 0)
            printf("rank 0: %ld enqueued, %ld dequeued from rank %d\n", atomic_load(&seen[enqueued]),
                   atomic_load(&seen[dequeued]), left);
    }
    int code = check_finish("t_watch");
    MPI_Finalize();
    return code;
}
