/* Names resolve the same whatever thread asks first and however many ask at
 * once.  Right after MPI_Init_thread (MPI_THREAD_MULTIPLE) the main thread
 * and three others, released together, each create an event set and add the
 * same names; the first lookup after MPI_Init is the component's catch-up
 * (MPI_T initialised, variables scanned, event callbacks set up), so here
 * several threads arrive at it at once.  Checks:
 *   every thread's add of a name gives the same answer as a lookup made
 *   afterwards by one thread alone, and that answer is the flavor's
 *   (UNEXPECTED_MSGS on SPC and event builds, a queue length everywhere but
 *   stock MPICH);
 *   each thread's UNEXPECTED_MSGS counts exactly: U on rank 1 (U messages
 *   left unexpected), 0 elsewhere (rank 0 posts the receive of rank 1's
 *   request before it counts: the request arrives either before counting
 *   starts or into the posted receive; a probe for it instead was counted or
 *   not by timing on MPICH, whose probe may take a message from shared memory
 *   without queueing it).
 * ranks: 2 4 */
#include <pthread.h>

#include "check.h"

#define THREADS  4
#define NAMES    3
#define U        9
#define TAG_GO   31
#define TAG_DATA 32
#define TAG_MARK 33
#define TAG_DONE 34

static const char *const names[NAMES] = {"mpit:::UNEXPECTED_MSGS", "mpit:::UNEXPECTED_QUEUE_LENGTH",
                                         "mpit:::POSTED_QUEUE_LENGTH"};

typedef struct {
    int es;
    int rc[NAMES];
    long long value[NAMES];
} thread_result_t;

static pthread_barrier_t begin, added, traffic_done, read_done;
static thread_result_t results[THREADS];

/* Adds the names at once with the other threads and starts the set. */
static int add_all(thread_result_t *r)
{
    int any = 0;
    r->es = PAPI_NULL;
    pthread_barrier_wait(&begin);
    CHECK_PAPI(PAPI_create_eventset(&r->es));
    for (int i = 0; i < NAMES; i++) r->rc[i] = PAPI_add_named_event(r->es, names[i]);
    for (int i = 0; i < NAMES; i++) any |= r->rc[i] == PAPI_OK;
    int started = any && PAPI_start(r->es) == PAPI_OK;
    CHECK(started || !any, "PAPI_start failed with events added");
    pthread_barrier_wait(&added);
    return started;
}

/* Once the traffic is over: the values, in the order of the names added. */
static void stop_all(thread_result_t *r, int started)
{
    long long v[NAMES] = {0};
    pthread_barrier_wait(&traffic_done);
    if (started) CHECK_PAPI(PAPI_stop(r->es, v));
    for (int i = 0, k = 0; i < NAMES; i++) r->value[i] = r->rc[i] == PAPI_OK ? v[k++] : -1;
    pthread_barrier_wait(&read_done);
}

static void *reader(void *arg)
{
    stop_all(arg, add_all(arg));
    return NULL;
}

/* Rank 1 holds U unexpected messages; rank 0's request was posted for. */
static int go;
static MPI_Request go_req = MPI_REQUEST_NULL;

static void traffic(void)
{
    int mark = 0, data[U];
    MPI_Request req;
    if (check_rank == 0) {
        MPI_Wait(&go_req, MPI_STATUS_IGNORE);
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    } else if (check_rank == 1) {
        MPI_Irecv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, &req);
        MPI_Send(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = 0; i < U; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* What the flavor must give: 1 available, 0 not. */
static int expected_available(const char *kind, int name)
{
    if (strcmp(kind, "mpich") == 0) return 0;
    if (name == 0) return strcmp(kind, "openmpi-spc") == 0 || strcmp(kind, "mpich-events") == 0;
    return 1;
}

int main(int argc, char **argv)
{
    int provided;
    const char *kind = getenv("KIND") ? getenv("KIND") : "";
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1); /* SPCs counted without a set named before MPI_Init */
    check_papi_init();
    CHECK_PAPI(PAPI_thread_init((unsigned long (*)(void))pthread_self));
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    if (provided < MPI_THREAD_MULTIPLE) check_skip("MPI_THREAD_MULTIPLE not provided");

    pthread_t th[THREADS];
    pthread_barrier_init(&begin, NULL, THREADS);
    pthread_barrier_init(&added, NULL, THREADS);
    pthread_barrier_init(&traffic_done, NULL, THREADS);
    pthread_barrier_init(&read_done, NULL, THREADS);
    /* ranks 0 and 1 tell each other they stopped counting into receives
     * posted now, and then let the others go on to the collectives below:
     * nothing arrives unannounced while they count */
    int peer = check_rank ^ 1, token = 0;
    MPI_Request done_req = MPI_REQUEST_NULL;
    if (check_rank < 2) MPI_Irecv(&token, 1, MPI_INT, peer, TAG_DONE, MPI_COMM_WORLD, &done_req);
    if (check_rank == 0) MPI_Irecv(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD, &go_req);
    for (int t = 1; t < THREADS; t++) pthread_create(&th[t], NULL, reader, &results[t]);
    int started = add_all(&results[0]); /* the main thread is the fourth */
    traffic();
    stop_all(&results[0], started);
    if (check_rank < 2) {
        MPI_Send(&token, 1, MPI_INT, peer, TAG_DONE, MPI_COMM_WORLD);
        MPI_Wait(&done_req, MPI_STATUS_IGNORE);
    }
    check_release(1);
    for (int t = 1; t < THREADS; t++) pthread_join(th[t], NULL);

    /* the answer of one thread alone, once everything has settled */
    for (int i = 0; i < NAMES; i++) {
        int alone = check_has_event(names[i]);
        if (*kind)
            CHECK(alone == expected_available(kind, i), "%s: available %d on %s, expected %d", names[i],
                  alone, kind, expected_available(kind, i));
        for (int t = 0; t < THREADS; t++)
            CHECK((results[t].rc[i] == PAPI_OK) == alone, "thread %d: adding %s returned %d (%s), alone: %s",
                  t, names[i], results[t].rc[i], PAPI_strerror(results[t].rc[i]),
                  alone ? "available" : "absent");
    }
    long long want = check_rank == 1 ? U : 0;
    for (int t = 0; t < THREADS; t++)
        if (results[t].rc[0] == PAPI_OK)
            CHECK(results[t].value[0] == want, "thread %d: UNEXPECTED_MSGS %lld, expected %lld", t,
                  results[t].value[0], want);
    int rc = check_finish("add_threads");
    MPI_Finalize();
    return rc;
}
