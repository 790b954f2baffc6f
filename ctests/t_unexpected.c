/* U messages left unexpected at rank 1 show as exactly U in the queue-length
 * variable (Open MPI: the rank-0 element of the per-peer array, and the sum;
 * MPICH: unexpected_recvq_length), and as 0 once they are received.
 * Open MPI: K messages a rank sends itself on MPI_COMM_SELF show as K in the
 * :comm=self binding and not in the MPI_COMM_WORLD one.
 * ranks: 2 4 */
#include "check.h"

#define U        10
#define TAG_DATA 7
#define TAG_MARK 8

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    const char *elem0 = NULL, *sum;
    if (check_is_openmpi()) {
        elem0 = "mpit:::pml_ob1_unexpected_msgq_length:elem=0";
        sum = "mpit:::pml_ob1_unexpected_msgq_length";
    } else {
        sum = "mpit:::unexpected_recvq_length";
    }
    if (!check_has_event(sum)) check_skip("this MPI has no unexpected-queue length variable");

    int size, data[U], es = PAPI_NULL;
    long long v[2];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (check_rank == 1) {
        CHECK_PAPI(PAPI_create_eventset(&es));
        CHECK_PAPI(PAPI_add_named_event(es, sum));
        if (elem0) CHECK_PAPI(PAPI_add_named_event(es, elem0));
        PAPI_event_info_t info;
        int code;
        CHECK_PAPI(PAPI_event_name_to_code(sum, &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(strcmp(info.units, "messages") == 0, "units '%s'", info.units);
        CHECK(info.value_type == PAPI_VALUETYPE_ABSOLUTE, "value_type %d", info.value_type);
        CHECK(info.timescope == PAPI_TIMESCOPE_POINT, "timescope %d", info.timescope);
        CHECK(info.data_type == PAPI_DATATYPE_INT64, "data_type %d", info.data_type);
        CHECK_PAPI(PAPI_start(es));
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (check_rank == 0) {
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&size, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    }
    if (check_rank == 1) {
        /* Messages from one peer are matched in order: once the marker is
         * in, all U data messages sit in the unexpected queue. */
        int mark;
        MPI_Recv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_read(es, v));
        CHECK(v[0] == U, "queue length %lld, expected %d", v[0], U);
        if (elem0) CHECK(v[1] == U, "rank-0 element %lld, expected %d", v[1], U);
        for (int i = 0; i < U; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_read(es, v));
        CHECK(v[0] == 0, "queue length %lld after receiving, expected 0", v[0]);
        if (elem0) CHECK(v[1] == 0, "rank-0 element %lld after receiving", v[1]);
        for (int i = 0; i < U; i++) CHECK(data[i] == i, "message %d carried %d", i, data[i]);
        CHECK_PAPI(PAPI_stop(es, v));
    }
    check_release(1); /* no message of a later collective reaches rank 1 while it measures */
    if (elem0 && check_rank == 1) {
        enum { K = 6 };
        int self_es = PAPI_NULL, out[K], in[K];
        long long s[2];
        MPI_Request req[K];
        CHECK_PAPI(PAPI_create_eventset(&self_es));
        CHECK_PAPI(PAPI_add_named_event(self_es, "mpit:::pml_ob1_unexpected_msgq_length:comm=self"));
        CHECK_PAPI(PAPI_add_named_event(self_es, sum));
        CHECK_PAPI(PAPI_start(self_es));
        for (int i = 0; i < K; i++) {
            out[i] = i;
            MPI_Isend(&out[i], 1, MPI_INT, 0, 5, MPI_COMM_SELF, &req[i]);
        }
        MPI_Status st[K];
        MPI_Waitall(K, req, st); /* sending to oneself completes at once */
        CHECK_PAPI(PAPI_read(self_es, s));
        CHECK(s[0] == K, ":comm=self queue length %lld, expected %d", s[0], K);
        CHECK(s[1] == 0, "MPI_COMM_WORLD queue length %lld with messages only on MPI_COMM_SELF", s[1]);
        for (int i = 0; i < K; i++) MPI_Recv(&in[i], 1, MPI_INT, 0, 5, MPI_COMM_SELF, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_stop(self_es, s));
        CHECK(s[0] == 0, ":comm=self queue length %lld after receiving", s[0]);
    }
    int rc = check_finish("unexpected");
    MPI_Finalize();
    return rc;
}
