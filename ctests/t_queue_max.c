/* The queue maxima, exactly.  Rank 1 posts P receives from rank 0: the
 * posted queue then holds P, and POSTED_QUEUE_MAX reads P, and still P once
 * they completed.  Rank 0 then sends U messages and a marker before rank 1
 * posts their receives (its marker's receive posted first, and nothing else
 * in flight towards it): UNEXPECTED_QUEUE_MAX reads U.  Each metric is
 * checked where the MPI has a source for it (an MPI_T event counter, a
 * watermark, or the largest queue length seen when read).
 * ranks: 2 4 */
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

static void unexpected(void)
{
    int es = PAPI_NULL, data[U], mark = 0, go = 0;
    long long v = -1;
    MPI_Request mark_req;
    if (check_rank == 1) es = start_metric("mpit:::UNEXPECTED_QUEUE_MAX");
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        /* sent only once rank 1 left the barrier: a barrier message still on
         * its way to rank 1 would wait beside them and count (seen: 11) */
        MPI_Recv(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    }
    if (check_rank == 1) {
        /* the marker's receive is posted first, so only the U data messages wait;
         * messages from one peer match in order: with the marker in, all U wait */
        MPI_Irecv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, &mark_req);
        MPI_Send(&go, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD);
        MPI_Wait(&mark_req, MPI_STATUS_IGNORE);
        if (es != PAPI_NULL) {
            CHECK_PAPI(PAPI_read(es, &v));
            CHECK(v == U, "UNEXPECTED_QUEUE_MAX %lld with %d messages waiting, expected %d", v, U, U);
        }
        for (int i = 0; i < U; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (es != PAPI_NULL) {
            CHECK_PAPI(PAPI_stop(es, &v));
            CHECK(v == U, "UNEXPECTED_QUEUE_MAX %lld once received, expected %d", v, U);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    if (!check_has_event("mpit:::POSTED_QUEUE_MAX") && !check_has_event("mpit:::UNEXPECTED_QUEUE_MAX"))
        check_skip("this MPI provides neither POSTED_QUEUE_MAX nor UNEXPECTED_QUEUE_MAX");
    MPI_Barrier(MPI_COMM_WORLD);
    posted();
    check_release(1);
    unexpected();
    check_release(1); /* no message of a later collective reaches rank 1 while it measures */
    int rc = check_finish("queue_max");
    MPI_Finalize();
    return rc;
}
