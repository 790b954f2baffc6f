/* Two event sets at once.  PAPI runs one set per component per thread, so:
 *  1. in an MPI_THREAD_MULTIPLE program, two threads of rank 1 each run their
 *     own mpit set on the same variables while the main thread receives;
 *     both read the exact truth (U unexpected messages in the queue, then
 *     U-U1, then 0; U1 and then U-U1 receives where a receive counter exists),
 *     and a PAPI_reset in one thread does not touch the other's counts;
 *  2. the two threads then create, start and destroy mpit sets concurrently,
 *     over and over, and MPI_Finalize (which frees every MPI_T session the
 *     component holds) must still work;
 *  3. one thread runs an mpit set and a perf_event set (perf::TASK-CLOCK)
 *     together;
 *  4. PAPI and the component never lower the thread level the application
 *     asked for: MPI_Query_thread still says MPI_THREAD_MULTIPLE.
 * ranks: 2 4 */
#include <pthread.h>

#include "check.h"

#define TAG_GO   21
#define TAG_MARK 22
#define TAG_Q    23

enum { U = 12, U1 = 5, U3 = 4, CHURN = 2000 };

static const char *queue_var, *counter_var; /* counter_var may be NULL */
static pthread_barrier_t step;

/* Per-thread results, checked by the thread itself. */
typedef struct {
    int id;
    int resets; /* thread 0 resets its set half way */
} worker_t;

static void expect(int id, const char *what, long long got, long long want)
{
    CHECK(got == want, "thread %d: %s %lld, expected %lld", id, what, got, want);
}

static void *worker(void *arg)
{
    worker_t *w = arg;
    int es = PAPI_NULL, n = counter_var ? 2 : 1;
    long long v[2] = {-1, -1};
    CHECK_PAPI(PAPI_register_thread());
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, queue_var));
    if (counter_var) CHECK_PAPI(PAPI_add_named_event(es, counter_var));
    CHECK_PAPI(PAPI_start(es));
    pthread_barrier_wait(&step); /* A: both sets run */
    pthread_barrier_wait(&step); /* B: U messages wait in the queue */
    CHECK_PAPI(PAPI_read(es, v));
    expect(w->id, "queue length with all messages waiting", v[0], U);
    if (n > 1) expect(w->id, "receives before any", v[1], 0);
    pthread_barrier_wait(&step); /* C: main received U1 of them */
    pthread_barrier_wait(&step); /* D */
    CHECK_PAPI(PAPI_read(es, v));
    expect(w->id, "queue length after U1 receives", v[0], U - U1);
    if (n > 1) expect(w->id, "receives after U1", v[1], U1);
    if (w->resets) CHECK_PAPI(PAPI_reset(es));
    pthread_barrier_wait(&step); /* E: main receives the rest */
    pthread_barrier_wait(&step); /* F */
    CHECK_PAPI(PAPI_stop(es, v));
    expect(w->id, "queue length after all receives", v[0], 0);
    if (n > 1)
        expect(w->id, w->resets ? "receives since the reset" : "receives since start", v[1],
               w->resets ? U - U1 : U);
    CHECK_PAPI(PAPI_cleanup_eventset(es));
    CHECK_PAPI(PAPI_destroy_eventset(&es));

    /* churn: sets come and go in both threads at once */
    pthread_barrier_wait(&step);
    for (int i = 0; i < CHURN; i++) {
        es = PAPI_NULL;
        CHECK_PAPI(PAPI_create_eventset(&es));
        CHECK_PAPI(PAPI_add_named_event(es, queue_var));
        if (counter_var && (i + w->id) % 2) CHECK_PAPI(PAPI_add_named_event(es, counter_var));
        CHECK_PAPI(PAPI_start(es));
        CHECK_PAPI(PAPI_stop(es, v));
        CHECK(v[0] == 0, "thread %d: queue length %lld while idle (churn %d)", w->id, v[0], i);
        CHECK_PAPI(PAPI_cleanup_eventset(es));
        CHECK_PAPI(PAPI_destroy_eventset(&es));
    }
    CHECK_PAPI(PAPI_unregister_thread());
    return NULL;
}

static void send_round(int n)
{
    int go;
    MPI_Recv(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < n; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_Q, MPI_COMM_WORLD);
    MPI_Send(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
}

/* Rank 1: the marker's receive is posted before rank 0 is told to go, so it
 * never waits in the unexpected queue; once it is in, all n messages are. */
static void start_round(MPI_Request *mark)
{
    static int m;
    int go = 1;
    MPI_Irecv(&m, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, mark);
    MPI_Send(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD);
}

static void recv_n(int n)
{
    int x;
    for (int i = 0; i < n; i++) MPI_Recv(&x, 1, MPI_INT, 0, TAG_Q, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void threads_part(void)
{
    pthread_t t[2];
    worker_t w[2] = {{0, 1}, {1, 0}};
    MPI_Request mark;
    pthread_barrier_init(&step, NULL, 3);
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, worker, &w[i]);
    pthread_barrier_wait(&step); /* A */
    start_round(&mark);
    MPI_Wait(&mark, MPI_STATUS_IGNORE);
    pthread_barrier_wait(&step); /* B */
    pthread_barrier_wait(&step); /* C */
    recv_n(U1);
    pthread_barrier_wait(&step); /* D */
    pthread_barrier_wait(&step); /* E */
    recv_n(U - U1);
    pthread_barrier_wait(&step); /* F */
    pthread_barrier_wait(&step); /* churn starts */
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&step);
}

static void perf_part(void)
{
    int mes = PAPI_NULL, pes = PAPI_NULL;
    long long q = -1, c0 = -1, c1 = -1;
    MPI_Request mark;
    CHECK_PAPI(PAPI_create_eventset(&mes));
    CHECK_PAPI(PAPI_add_named_event(mes, queue_var));
    CHECK_PAPI(PAPI_create_eventset(&pes));
    CHECK_PAPI(PAPI_add_named_event(pes, "perf::TASK-CLOCK"));
    CHECK_PAPI(PAPI_start(pes));
    CHECK_PAPI(PAPI_start(mes));
    start_round(&mark);
    MPI_Wait(&mark, MPI_STATUS_IGNORE);
    CHECK_PAPI(PAPI_read(mes, &q));
    CHECK_PAPI(PAPI_read(pes, &c0));
    CHECK(q == U3, "queue length %lld next to a running perf set, expected %d", q, U3);
    CHECK(c0 > 0, "perf::TASK-CLOCK %lld next to a running mpit set", c0);
    recv_n(U3);
    CHECK_PAPI(PAPI_stop(mes, &q));
    CHECK_PAPI(PAPI_stop(pes, &c1));
    CHECK(q == 0, "queue length %lld after receiving, expected 0", q);
    CHECK(c1 >= c0, "perf::TASK-CLOCK went from %lld to %lld", c0, c1);
    CHECK_PAPI(PAPI_cleanup_eventset(mes));
    CHECK_PAPI(PAPI_destroy_eventset(&mes));
    CHECK_PAPI(PAPI_cleanup_eventset(pes));
    CHECK_PAPI(PAPI_destroy_eventset(&pes));
}

int main(int argc, char **argv)
{
    int provided, level = -1, size;
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1); /* SPCs count only when attached */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE) check_skip("this MPI does not provide MPI_THREAD_MULTIPLE");
    check_papi_init();
    CHECK_PAPI(PAPI_thread_init(pthread_self));

    if (check_is_openmpi()) {
        queue_var = "mpit:::pml_ob1_unexpected_msgq_length";
        counter_var = "mpit:::runtime_spc_OMPI_SPC_RECV";
    } else {
        queue_var = "mpit:::unexpected_recvq_length";
        counter_var = "mpit:::unexpected_recvq_match_attempts"; /* FIFO receives: one look each */
    }
    int have_queue = check_has_event(queue_var);
    if (!check_has_event(counter_var)) counter_var = NULL;
    int have_perf = check_has_event("perf::TASK-CLOCK");
    MPI_Query_thread(&level);
    CHECK(level == MPI_THREAD_MULTIPLE, "thread level %d after PAPI init and lookups, expected %d", level,
          MPI_THREAD_MULTIPLE);
    if (!have_queue || !have_perf) {
        /* the thread level was checked: a failure there is not a skip */
        int mine = check_failures > 0, any = 0;
        MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (any) {
            MPI_Finalize();
            return 1;
        }
        check_skip(!have_queue ? "this MPI has no unexpected-queue length variable"
                               : "perf::TASK-CLOCK cannot be added (perf_event_paranoid?)");
    }
    if (check_rank == 0) printf("queue: %s, counter: %s\n", queue_var, counter_var ? counter_var : "(none)");
    MPI_Barrier(MPI_COMM_WORLD); /* the last collective until rank 1 releases everyone */

    if (check_rank == 0) {
        send_round(U);
        send_round(U3);
    } else if (check_rank == 1) {
        threads_part();
        perf_part();
    }
    check_release(1);
    MPI_Query_thread(&level);
    CHECK(level == MPI_THREAD_MULTIPLE, "thread level %d after PAPI use, expected %d", level,
          MPI_THREAD_MULTIPLE);
    int rc = check_finish("two_sets");
    MPI_Finalize();
    PAPI_shutdown();
    return rc;
}
