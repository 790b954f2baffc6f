/* What BYTES_GET and BYTES_PUT count: Open MPI's SPCs OMPI_SPC_BYTES_GET and
 * _PUT are recorded by ob1 when it moves a point-to-point message by RDMA
 * (its rendezvous protocols), not by MPI_Get and MPI_Put, whatever Open MPI's
 * own description says.  The component describes them as they are (the
 * descriptions are checked too), and this checks the counts on the tests'
 * transports (ob1 over shared memory):
 *   - a 1 MiB MPI_Send: the receiver's BYTES_GET is 1 MiB (it fetched the
 *     message with a single-copy get) and the sender's 0, BYTES_RECEIVED 1
 *     MiB; where the transport has no single-copy mechanism BYTES_GET stays
 *     0 and the test says so and skips;
 *   - a small message (100 bytes, eager): neither moves;
 *   - MPI_Put and MPI_Get of 1 MiB between fences (osc rdma): neither moves
 *     on either rank;
 *   - BYTES_SENT and BYTES_SENT_MPI, where SPCs serve them, say in their
 *     descriptions that Open MPI files some sends under the other one.
 * flavors: openmpi-spc openmpi-5.0.7-spc
 * ranks: 2 */
#include "check.h"

#define BIG   (1 << 20)
#define SMALL 100

enum { PUT, GET, RECEIVED, SENT, SENT_MPI, NAMES };
static const char *const names[NAMES] = {"mpit:::BYTES_PUT", "mpit:::BYTES_GET", "mpit:::BYTES_RECEIVED",
                                         "mpit:::BYTES_SENT", "mpit:::BYTES_SENT_MPI"};
static int es = PAPI_NULL, rank;
static char *buf;
static MPI_Win win;

enum what { SEND_BIG, SEND_SMALL, ONE_SIDED_PUT, ONE_SIDED_GET };

/* The counts of one step on this rank, between two barriers. */
static void step(enum what w, long long *v)
{
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_reset(es));
    int size = w == SEND_SMALL ? SMALL : BIG;
    switch (w) {
    case SEND_BIG:
    case SEND_SMALL:
        if (rank == 0)
            MPI_Send(buf, size, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        else
            MPI_Recv(buf, size, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        break;
    case ONE_SIDED_PUT:
    case ONE_SIDED_GET:
        MPI_Win_fence(0, win);
        if (rank == 0 && w == ONE_SIDED_PUT) MPI_Put(buf, BIG, MPI_CHAR, 1, 0, BIG, MPI_CHAR, win);
        if (rank == 0 && w == ONE_SIDED_GET) MPI_Get(buf, BIG, MPI_CHAR, 1, 0, BIG, MPI_CHAR, win);
        MPI_Win_fence(0, win);
        break;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_read(es, v));
}

int main(int argc, char **argv)
{
    long long v[NAMES];
    char *base;
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es)); /* before MPI_Init: the component attaches the SPCs */
    for (int i = 0; i < NAMES; i++) CHECK_PAPI(PAPI_add_named_event(es, names[i]));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    buf = calloc(BIG, 1);
    MPI_Win_allocate(BIG, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    CHECK_PAPI(PAPI_start(es));

    step(SEND_BIG, v);
    /* rank 1 tells whether ob1 used a get at all */
    int no_rdma = rank == 1 && v[GET] == 0 && v[PUT] == 0;
    MPI_Bcast(&no_rdma, 1, MPI_INT, 1, MPI_COMM_WORLD);
    if (no_rdma) {
        PAPI_stop(es, v);
        MPI_Win_free(&win);
        check_skip(
            "ob1 moved the 1 MiB message without RDMA (no single-copy mechanism here): nothing to check");
    }
    CHECK(v[GET] == (rank == 1 ? BIG : 0), "1 MiB MPI_Send: BYTES_GET %lld on rank %d, %d expected", v[GET],
          rank, rank == 1 ? BIG : 0);
    CHECK(v[PUT] == 0, "1 MiB MPI_Send: BYTES_PUT %lld on rank %d, 0 expected", v[PUT], rank);
    CHECK(v[RECEIVED] == (rank == 1 ? BIG : 0), "1 MiB MPI_Send: BYTES_RECEIVED %lld on rank %d", v[RECEIVED],
          rank);

    step(SEND_SMALL, v);
    CHECK(v[GET] == 0 && v[PUT] == 0,
          "%d-byte MPI_Send: BYTES_GET %lld, BYTES_PUT %lld on rank %d, 0 expected", SMALL, v[GET], v[PUT],
          rank);

    static const char *const one_sided[] = {"MPI_Put", "MPI_Get"};
    for (int k = 0; k < 2; k++) {
        step(k == 0 ? ONE_SIDED_PUT : ONE_SIDED_GET, v);
        CHECK(v[GET] == 0 && v[PUT] == 0, "1 MiB %s: BYTES_GET %lld, BYTES_PUT %lld on rank %d, 0 expected",
              one_sided[k], v[GET], v[PUT], rank);
    }
    CHECK_PAPI(PAPI_stop(es, v));
    MPI_Win_free(&win);
    /* and the descriptions say so */
    for (int i = PUT; i <= GET; i++) {
        PAPI_event_info_t info;
        int code;
        CHECK_PAPI(PAPI_event_name_to_code(names[i], &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(strstr(info.long_descr, "point-to-point") &&
                  strstr(info.long_descr, i == PUT ? "MPI_Put" : "MPI_Get"),
              "%s is described as \"%s\"", names[i], info.long_descr);
    }
    /* BYTES_SENT and BYTES_SENT_MPI from the SPCs say how Open MPI files sends */
    for (int i = SENT; i <= SENT_MPI; i++) {
        PAPI_event_info_t info;
        int code;
        CHECK_PAPI(PAPI_event_name_to_code(names[i], &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(!strstr(info.long_descr, "OMPI_SPC_") || strstr(info.long_descr, "status tag"),
              "%s from an SPC does not say how Open MPI files sends: \"%s\"", names[i], info.long_descr);
    }
    MPI_Finalize();
    return check_finish("t_spc_rdma");
}
