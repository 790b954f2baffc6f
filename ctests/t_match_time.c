/* MATCH_TIME on MPICH measures what it says: the time posted receives spend
 * searching the unexpected queue.  Rank 0 sends N messages with tags 0..N-1
 * and a marker; rank 1, once the marker is in (all N wait, in order),
 * receives them newest first, so the receive for tag t compares t+1 queued
 * messages: N(N+1)/2 comparisons in all, which UNEXPECTED_MATCH_ATTEMPTS
 * counts exactly.  MATCH_TIME is positive and grows with the comparisons:
 * 10 messages (55 comparisons) take less time than 400 (80,200).
 * flavors: mpich-events
 * ranks: 2 4 */
#include "check.h"

#define TAG_MARK 100000

/* One round of n messages; values: MATCH_TIME (ns), UNEXPECTED_MATCH_ATTEMPTS. */
static void round_of(int n, long long v[2])
{
    int es = PAPI_NULL, mark = 0;
    int *data = malloc((size_t)n * sizeof *data);
    v[0] = v[1] = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        for (int i = 0; i < n; i++) MPI_Send(&i, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    }
    if (check_rank == 1) {
        MPI_Recv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_create_eventset(&es));
        CHECK_PAPI(PAPI_add_named_event(es, "mpit:::MATCH_TIME"));
        CHECK_PAPI(PAPI_add_named_event(es, "mpit:::UNEXPECTED_MATCH_ATTEMPTS"));
        CHECK_PAPI(PAPI_start(es));
        for (int t = n - 1; t >= 0; t--)
            MPI_Recv(&data[t], 1, MPI_INT, 0, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_stop(es, v));
        CHECK_PAPI(PAPI_cleanup_eventset(es));
        CHECK_PAPI(PAPI_destroy_eventset(&es));
        for (int t = 0; t < n; t++) CHECK(data[t] == t, "tag %d carried %d", t, data[t]);
        long long expected = (long long)n * (n + 1) / 2;
        CHECK(v[1] == expected, "%d receives newest first: %lld comparisons, expected %lld", n, v[1],
              expected);
        CHECK(v[0] > 0, "MATCH_TIME %lld ns for %lld comparisons", v[0], v[1]);
        printf("%d messages: MATCH_TIME %lld ns, %lld comparisons\n", n, v[0], v[1]);
    }
    check_release(1);
    free(data);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    if (!check_has_event("mpit:::MATCH_TIME") || !check_has_event("mpit:::UNEXPECTED_MATCH_ATTEMPTS"))
        check_skip("this MPI has no recvq timer (MPICH --enable-mpit-pvars=recvq)");
    if (check_rank == 1) {
        int code;
        PAPI_event_info_t info;
        CHECK_PAPI(PAPI_event_name_to_code("mpit:::MATCH_TIME", &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(strcmp(info.units, "ns") == 0, "units '%s'", info.units);
        CHECK(info.data_type == PAPI_DATATYPE_INT64, "data_type %d: portable time metrics are integer ns",
              info.data_type);
        CHECK(strstr(info.long_descr, "time_matching_unexpectedq") != NULL, "source: %s", info.long_descr);
    }
    long long few[2], many[2];
    round_of(10, few);
    round_of(400, many);
    if (check_rank == 1)
        CHECK(many[0] > few[0], "MATCH_TIME %lld ns for 400 messages, %lld ns for 10", many[0], few[0]);
    int rc = check_finish("match_time");
    MPI_Finalize();
    return rc;
}
