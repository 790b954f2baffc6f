/* MPI_T events aggregated into counters.  On an MPI with MPICH's RECVQ
 * events: N messages left unexpected at rank 0 give exactly N for
 * event.unexp_message_enqueued and UNEXPECTED_MSGS, N for the dequeue count
 * once received, a queue maximum of exactly N (all N are queued at once),
 * a residence time above 0 and at most N times the region's wall time, and
 * element sums/maxima (element 0 is the source rank, here 1).  MPICH 5.0
 * aborts when event data is read: there the element aggregates are refused
 * (PAPI_ECMP, the reason naming MPI_T_event_read) and the counts still exact.
 * On an MPI without events the family is empty and a name says why; on
 * one with events of other kinds only (Open MPI 6.0) the name says why.
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

#define N   40
#define ENQ "mpit:::event.unexp_message_enqueued"

enum { ENQUEUED, DEQUEUED, MSGS, QMAX, QTIME, SRC_SUM, SRC_MAX, NEV };
static const char *const names[NEV] = {
    ENQ,
    "mpit:::event.unexp_message_dequeued",
    "mpit:::UNEXPECTED_MSGS",
    "mpit:::UNEXPECTED_QUEUE_MAX",
    "mpit:::UNEXPECTED_QUEUE_TIME",
    ENQ ":sum=0",
    ENQ ":max=0",
};

static int listed_events(void)
{
    int cidx = PAPI_get_component_index("mpit"), n = 0;
    int code = PAPI_NATIVE_MASK, rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
    while (rc == PAPI_OK) {
        PAPI_event_info_t info;
        if (PAPI_get_event_info(code, &info) == PAPI_OK && strncmp(info.symbol, "mpit:::event.", 13) == 0)
            n++;
        rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
    }
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    int size, es = PAPI_NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_PAPI(PAPI_create_eventset(&es));
    int rc = PAPI_add_named_event(es, ENQ);
    if (rc != PAPI_OK) {
        /* no queue events here: adding must say no, and the family must be
         * empty unless the MPI raises events of another kind (Open MPI 6.0's
         * object events, t_object_events) */
        int other_events = check_has_event("mpit:::event.ompi.mpi.communicator_created");
        CHECK(rc == PAPI_ENOEVNT, "adding %s returned %d", ENQ, rc);
        CHECK(other_events || listed_events() == 0, "%d event counters listed on an MPI without events",
              listed_events());
        rc =
            check_finish(other_events ? "events (no queue events on this MPI)" : "events (none on this MPI)");
        MPI_Finalize();
        return rc;
    }
    int unreadable = check_event_data_unreadable();
    int nev = unreadable ? SRC_SUM : NEV;
    for (int i = 1; i < nev; i++) CHECK_PAPI(PAPI_add_named_event(es, names[i]));
    for (int i = nev; i < NEV; i++) {
        char why[512] = "";
        int agg = PAPI_NULL;
        CHECK_PAPI(PAPI_create_eventset(&agg));
        rc = PAPI_add_named_event(agg, names[i]);
        papi_mpit_why(names[i], why, sizeof why);
        CHECK(rc != PAPI_OK && strstr(why, "MPI_T_event_read"), "%s on MPICH 5.0: %d, '%s'", names[i], rc,
              why);
        PAPI_destroy_eventset(&agg);
    }
    CHECK(listed_events() >= 2, "only %d event counters listed", listed_events());
    MPI_Barrier(MPI_COMM_WORLD);

    long long v[NEV];
    int mark = 0, go = 1, data[N];
    if (check_rank == 0) {
        MPI_Request req;
        CHECK_PAPI(PAPI_start(es));
        double t0 = MPI_Wtime();
        MPI_Irecv(&mark, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &req); /* posted: never unexpected */
        MPI_Send(&go, 1, MPI_INT, 1, 6, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_read(es, v));
        CHECK(v[ENQUEUED] == N, "enqueued %lld, expected %d", v[ENQUEUED], N);
        CHECK(v[MSGS] == N, "UNEXPECTED_MSGS %lld, expected %d", v[MSGS], N);
        CHECK(v[DEQUEUED] == 0, "dequeued %lld before any receive", v[DEQUEUED]);
        for (int i = 0; i < N; i++) MPI_Recv(&data[i], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_stop(es, v));
        double wall_ns = (MPI_Wtime() - t0) * 1e9;
        CHECK(v[ENQUEUED] == N, "enqueued %lld, expected %d", v[ENQUEUED], N);
        CHECK(v[DEQUEUED] == N, "dequeued %lld, expected %d", v[DEQUEUED], N);
        CHECK(v[QMAX] == N, "UNEXPECTED_QUEUE_MAX %lld, expected %d", v[QMAX], N);
        CHECK(v[QTIME] > 0 && (double)v[QTIME] <= N * wall_ns,
              "UNEXPECTED_QUEUE_TIME %lld ns, region %.0f ns", v[QTIME], wall_ns);
        if (!unreadable) {
            CHECK(v[SRC_SUM] == N, "sum of element 0 (source rank 1) %lld, expected %d", v[SRC_SUM], N);
            CHECK(v[SRC_MAX] == 1, "max of element 0 %lld, expected 1", v[SRC_MAX]);
        }
    } else if (check_rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) MPI_Send(&i, 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 0, 8, MPI_COMM_WORLD);
    }
    check_release(0);
    rc = check_finish("events");
    MPI_Finalize();
    return rc;
}
