/* One-sided bytes exactly: RMA_BYTES_SENT and RMA_BYTES_RECEIVED (Open MPI's
 * osc monitoring, switched on by naming them before MPI_Init) on the origin
 * of MPI_Put, MPI_Accumulate and MPI_Get of 8 bytes, 1000 bytes and 1 MiB,
 * each between fences, with :peer=1 beside the totals: a put or accumulate
 * of N bytes is N sent (to peer 1), a get of N is N received (from peer 1),
 * and the target counts nothing of it.  The other ranks take no part.
 * flavors: openmpi openmpi-spc openmpi-5.0.7-spc debian13-openmpi
 * ranks: 2 3 */
#include "check.h"

enum { SENT, RECEIVED, SENT_1, RECEIVED_1, NAMES };
static const char *const names[NAMES] = {"mpit:::RMA_BYTES_SENT", "mpit:::RMA_BYTES_RECEIVED",
                                         "mpit:::RMA_BYTES_SENT:peer=1", "mpit:::RMA_BYTES_RECEIVED:peer=1"};
enum op { PUT, ACCUMULATE, GET, OPS };
static const char *const op_names[OPS] = {"MPI_Put", "MPI_Accumulate", "MPI_Get"};

int main(int argc, char **argv)
{
    static const int sizes[] = {8, 1000, 1 << 20};
    int es = PAPI_NULL, rank;
    long long before[NAMES], after[NAMES];
    char *base, *buf = calloc(1 << 20, 1);
    MPI_Win win;
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < NAMES; i++) CHECK_PAPI(PAPI_add_named_event(es, names[i]));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    MPI_Win_allocate(1 << 20, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    CHECK_PAPI(PAPI_start(es));
    for (int op = 0; op < OPS; op++)
        for (int k = 0; k < 3; k++) {
            int n = sizes[k];
            MPI_Win_fence(0, win);
            CHECK_PAPI(PAPI_read(es, before));
            if (rank == 0 && op == PUT) MPI_Put(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
            if (rank == 0 && op == ACCUMULATE)
                MPI_Accumulate(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, MPI_BOR, win);
            if (rank == 0 && op == GET) MPI_Get(buf, n, MPI_CHAR, 1, 0, n, MPI_CHAR, win);
            MPI_Win_fence(0, win);
            CHECK_PAPI(PAPI_read(es, after));
            long long origin = rank == 0 ? n : 0;
            long long want[NAMES] = {op == GET ? 0 : origin, op == GET ? origin : 0, op == GET ? 0 : origin,
                                     op == GET ? origin : 0};
            for (int i = 0; i < NAMES; i++)
                CHECK(after[i] - before[i] == want[i],
                      "%s of %d bytes: %s counted %lld on rank %d, %lld expected", op_names[op], n, names[i],
                      after[i] - before[i], rank, want[i]);
        }
    CHECK_PAPI(PAPI_stop(es, after));
    MPI_Win_free(&win);
    free(buf);
    MPI_Finalize();
    return check_finish("t_rma_bytes");
}
