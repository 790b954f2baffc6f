/* The queue maxima, exactly.  Rank 1 posts P receives from rank 0: the
 * posted queue then holds P, and POSTED_QUEUE_MAX reads P, and still P once
 * they completed.  Rank 0 then sends U messages and a marker before rank 1
 * posts their receives (its marker's receive posted first, and nothing else
 * in flight towards it): UNEXPECTED_QUEUE_MAX reads U.  Each metric is
 * checked where the MPI has a source for it (an MPI_T event counter, a
 * watermark, or the largest queue length seen when read).
 * Then the peak between reads: the same U messages come and go between
 * PAPI_start and PAPI_stop with no read of the set in between.  Where the
 * source sees every peak (MPICH's queue events, Open MPI 4.1's SPC watermark
 * mended by ob1's lengths: SPCs attached here) the set reads U.  Where it is
 * the largest length seen when read (Open MPI 5.0, Open MPI without SPC),
 * the description says "sampled", and a read of another set at the peak (a
 * sampler, as papi-mpit-report runs) is what the set sees: U.
 * ranks: 2 4 */
#include <pthread.h>

#include "check.h"

#define P        12
#define U        9
#define TAG_POST 3
#define TAG_DATA 7
#define TAG_MARK 8

/* A set of one metric, started; PAPI_NULL when this MPI lacks it. */
static int start_metric(const char *name)
{
    int es = PAPI_NULL;
    if (!check_has_event(name)) {
        if (check_rank == 1) printf("%s: not provided by this MPI\n", name);
        return PAPI_NULL;
    }
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, name));
    CHECK_PAPI(PAPI_start(es));
    return es;
}

static void posted(void)
{
    int es = PAPI_NULL, buf[P], go = 0;
    long long v = -1;
    MPI_Request req[P];
    if (check_rank == 1) {
        es = start_metric("mpit:::POSTED_QUEUE_MAX");
        for (int i = 0; i < P; i++) MPI_Irecv(&buf[i], 1, MPI_INT, 0, TAG_POST, MPI_COMM_WORLD, &req[i]);
        if (es != PAPI_NULL) {
            CHECK_PAPI(PAPI_read(es, &v));
            CHECK(v == P, "POSTED_QUEUE_MAX %lld with %d receives posted, expected %d", v, P, P);
        }
        MPI_Send(&go, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD);
        MPI_Status st[P]; /* (MPICH 4.0's header makes gcc misread MPI_STATUSES_IGNORE) */
        MPI_Waitall(P, req, st);
        if (es != PAPI_NULL) {
            CHECK_PAPI(PAPI_stop(es, &v));
            CHECK(v == P, "POSTED_QUEUE_MAX %lld once the queue emptied, expected %d", v, P);
            CHECK_PAPI(PAPI_cleanup_eventset(es));
            CHECK_PAPI(PAPI_destroy_eventset(&es));
        }
    }
    if (check_rank == 0) {
        /* the receives are posted before the marker is sent */
        MPI_Recv(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < P; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_POST, MPI_COMM_WORLD);
    }
}

/* Rank 1's unexpected queue fills to U and drains; at_peak runs on rank 1
 * while all U wait.  Rank 0 sends only once rank 1 left the barrier: a
 * barrier message still on its way to rank 1 would wait beside them and
 * count (seen: 11).  The marker's receive is posted first, so only the U
 * data messages wait; messages from one peer match in order: with the
 * marker in, all U wait. */
static void fill_and_drain(void (*at_peak)(void *), void *arg)
{
    int data[U], mark = 0, go = 0;
    MPI_Request mark_req;
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    }
    if (check_rank == 1) {
        MPI_Irecv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, &mark_req);
        MPI_Send(&go, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD);
        MPI_Wait(&mark_req, MPI_STATUS_IGNORE);
        if (at_peak) at_peak(arg);
        for (int i = 0; i < U; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static void read_at_peak(void *arg)
{
    int es = *(int *)arg;
    long long v = -1;
    if (es == PAPI_NULL) return;
    CHECK_PAPI(PAPI_read(es, &v));
    CHECK(v == U, "UNEXPECTED_QUEUE_MAX %lld with %d messages waiting, expected %d", v, U, U);
}

static void unexpected(void)
{
    int es = PAPI_NULL;
    long long v = -1;
    if (check_rank == 1) es = start_metric("mpit:::UNEXPECTED_QUEUE_MAX");
    fill_and_drain(read_at_peak, &es);
    if (check_rank == 1 && es != PAPI_NULL) {
        CHECK_PAPI(PAPI_stop(es, &v));
        CHECK(v == U, "UNEXPECTED_QUEUE_MAX %lld once received, expected %d", v, U);
    }
}

/* 1 where the flavor's UNEXPECTED_QUEUE_MAX must see a peak between reads. */
static int peak_seeing_expected(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    const char *kind = getenv("KIND") ? getenv("KIND") : "";
    MPI_Get_library_version(version, &len);
    return strcmp(kind, "mpich-events") == 0 ||
           (strcmp(kind, "openmpi-spc") == 0 && strncmp(version, "Open MPI v4.", 12) == 0);
}

/* The sampler: another thread with its own set (PAPI runs one set per
 * component and thread), reading once when the main thread asks. */
static pthread_barrier_t sample_now, sampled_done;
static long long sampled_value = -1;

static void *sampler_main(void *arg)
{
    int es = start_metric(arg);
    pthread_barrier_wait(&sample_now);
    if (es != PAPI_NULL) CHECK_PAPI(PAPI_read(es, &sampled_value));
    if (es != PAPI_NULL) CHECK_PAPI(PAPI_stop(es, &sampled_value));
    pthread_barrier_wait(&sampled_done);
    return NULL;
}

/* The only read at the peak, by the sampler thread. */
static void sample_at_peak(void *arg)
{
    pthread_t *th = arg;
    pthread_barrier_wait(&sample_now);
    pthread_barrier_wait(&sampled_done);
    pthread_join(*th, NULL);
    CHECK(sampled_value == U, "the sampler read %lld at the peak, expected %d", sampled_value, U);
}

static void unexpected_between_reads(void)
{
    const char *name = "mpit:::UNEXPECTED_QUEUE_MAX";
    int es = PAPI_NULL, sampler = 0, code;
    long long v = -1;
    pthread_t th;
    PAPI_event_info_t info;
    if (check_rank == 1 && check_has_event(name)) {
        CHECK_PAPI(PAPI_event_name_to_code(name, &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        int sampled = strstr(info.long_descr, "sampled") != NULL;
        CHECK(sampled != peak_seeing_expected(), "%s on %s is %s: %s", name, getenv("KIND"),
              sampled ? "sampled" : "peak-seeing", info.long_descr);
        es = start_metric(name);
        if (sampled) {
            sampler = 1;
            pthread_barrier_init(&sample_now, NULL, 2);
            pthread_barrier_init(&sampled_done, NULL, 2);
            pthread_create(&th, NULL, sampler_main, (void *)name);
        }
    }
    fill_and_drain(sampler ? sample_at_peak : NULL, &th);
    if (check_rank == 1 && es != PAPI_NULL) {
        CHECK_PAPI(PAPI_stop(es, &v));
        CHECK(v == U, "UNEXPECTED_QUEUE_MAX %lld after a peak of %d between start and stop%s", v, U,
              sampler ? " (sampled by another thread's set at the peak)" : "");
    }
}

int main(int argc, char **argv)
{
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1); /* Open MPI 4.1's watermark counts only when attached */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    CHECK_PAPI(PAPI_thread_init((unsigned long (*)(void))pthread_self));
    if (!check_has_event("mpit:::POSTED_QUEUE_MAX") && !check_has_event("mpit:::UNEXPECTED_QUEUE_MAX"))
        check_skip("this MPI provides neither POSTED_QUEUE_MAX nor UNEXPECTED_QUEUE_MAX");
    MPI_Barrier(MPI_COMM_WORLD);
    posted();
    check_release(1);
    unexpected();
    check_release(1); /* no message of a later collective reaches rank 1 while it measures */
    unexpected_between_reads();
    check_release(1);
    int rc = check_finish("queue_max");
    MPI_Finalize();
    return rc;
}
