/* What the component adds to each MPI_T event the MPI delivers (MPICH with
 * events): rank 1 receives BURSTS bursts of 100 messages that arrive before
 * their receives are posted, so MPICH raises unexp_message_enqueued and
 * unexp_message_dequeued for each, with either
 *   empty: a callback that does nothing, registered directly on every event
 *          at every safety level (MPI's own cost of delivering), or
 *   mpit:  the component's callbacks (an event set with mpit:::UNEXPECTED_MSGS
 *          started), or
 *   mpit-queue: the same plus the queue statistics (derived.unexpected_queue.*,
 *          which need the events' timestamps).
 * Run rank 1 under callgrind and compare MPIR_T_event_instance inclusive per
 * event (bench/callback_cost.sh does it):
 *   mpiexec -np 1 ./callback_cost MODE : -np 1 valgrind --tool=callgrind ./callback_cost MODE
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PER 100
#define TAG 3

static void empty_cb(MPI_T_event_instance i, MPI_T_event_registration r, MPI_T_cb_safety s, void *u)
{
    (void)i;
    (void)r;
    (void)s;
    (void)u;
}

static void free_cb(MPI_T_event_registration r, MPI_T_cb_safety s, void *u)
{
    (void)r;
    (void)s;
    (void)u;
}

static MPI_T_event_registration regs[64];
static int nregs;

static void register_empty(void)
{
    int provided, num = 0;
    static const MPI_T_cb_safety levels[] = {MPI_T_CB_REQUIRE_NONE, MPI_T_CB_REQUIRE_MPI_RESTRICTED,
                                             MPI_T_CB_REQUIRE_THREAD_SAFE,
                                             MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE};
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_event_get_num(&num);
    for (int e = 0; e < num && nregs < 64; e++) {
        if (MPI_T_event_handle_alloc(e, NULL, MPI_INFO_NULL, &regs[nregs]) != MPI_SUCCESS) continue;
        for (int l = 0; l < 4; l++)
            MPI_T_event_register_callback(regs[nregs], levels[l], MPI_INFO_NULL, NULL, empty_cb);
        nregs++;
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "empty";
    int bursts = argc > 2 ? atoi(argv[2]) : 20, rank, es = PAPI_NULL, data[PER], go = 0;
    long long v[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1 && strcmp(mode, "empty") == 0) register_empty();
    if (rank == 1 && strncmp(mode, "mpit", 4) == 0) {
        PAPI_library_init(PAPI_VER_CURRENT);
        PAPI_create_eventset(&es);
        PAPI_add_named_event(es, "mpit:::UNEXPECTED_MSGS");
        if (strcmp(mode, "mpit-queue") == 0) PAPI_add_named_event(es, "mpit:::UNEXPECTED_QUEUE_TIME");
        PAPI_start(es);
    }
    for (int b = 0; b < bursts; b++) {
        if (rank == 0) {
            MPI_Recv(&go, 1, MPI_INT, 1, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < PER; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD);
            MPI_Send(&go, 1, MPI_INT, 1, TAG + 2, MPI_COMM_WORLD);
        } else if (rank == 1) {
            MPI_Request r;
            MPI_Irecv(&go, 1, MPI_INT, 0, TAG + 2, MPI_COMM_WORLD, &r);
            MPI_Send(&go, 1, MPI_INT, 0, TAG + 1, MPI_COMM_WORLD);
            MPI_Wait(&r, MPI_STATUS_IGNORE); /* all PER data messages are queued, unexpected */
            for (int i = 0; i < PER; i++)
                MPI_Recv(&data[i], 1, MPI_INT, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (es != PAPI_NULL) {
        PAPI_stop(es, v);
        printf("rank 1: %lld unexpected messages counted (%d expected)\n", v[0], bursts * PER);
    }
    for (int i = 0; i < nregs; i++) MPI_T_event_handle_free(regs[i], NULL, free_cb);
    MPI_Finalize();
    return 0;
}
