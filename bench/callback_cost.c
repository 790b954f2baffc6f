/* What the component adds to each MPI_T event the MPI delivers (MPICH with
 * events): rank 1 receives BURSTS bursts of 100 messages that arrive before
 * their receives are posted, so MPICH raises unexp_message_enqueued and
 * unexp_message_dequeued for each, with either
 *   empty: a callback that does nothing, registered directly on every event
 *          at every safety level (MPI's own cost of delivering), or
 *   a mode of the table below: the component's callbacks, with an event set
 *          of that mode's events started (one rule kind of the engine each,
 *          and the portable metrics together).
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

/* MPICH's rows of the rule table: a COUNT, a LEVEL by count, a GROUP; SUM
 * and MAX of an element are the raw event aggregates.  mpit and mpit-queue
 * are the sets measured before (doc/performance.md). */
static const struct {
    const char *mode, *events[4];
} modes[] = {
    {"mpit", {"mpit:::UNEXPECTED_MSGS"}},
    {"mpit-queue", {"mpit:::UNEXPECTED_MSGS", "mpit:::UNEXPECTED_QUEUE_TIME"}},
    {"count", {"mpit:::UNEXPECTED_MSGS"}},
    {"level-max", {"mpit:::UNEXPECTED_QUEUE_MAX"}},
    {"level-time", {"mpit:::UNEXPECTED_QUEUE_TIME"}},
    {"portable", {"mpit:::UNEXPECTED_MSGS", "mpit:::UNEXPECTED_QUEUE_MAX", "mpit:::UNEXPECTED_QUEUE_TIME"}},
    {"group", {"mpit:::derived.unexpected_by_source"}},
    {"sum-max", {"mpit:::event.unexp_message_enqueued:sum=0", "mpit:::event.unexp_message_enqueued:max=0"}},
};

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
    int m = -1;
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strcmp(mode, modes[i].mode) == 0) m = (int)i;
    if (rank == 1 && m >= 0) {
        PAPI_library_init(PAPI_VER_CURRENT);
        PAPI_create_eventset(&es);
        for (int i = 0; i < 4 && modes[m].events[i]; i++)
            if (PAPI_add_named_event(es, modes[m].events[i]) != PAPI_OK)
                fprintf(stderr, "rank 1: %s refused\n", modes[m].events[i]);
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
        printf("rank 1, %s:", mode);
        for (int i = 0; i < 4 && modes[m].events[i]; i++) printf(" %s %lld", modes[m].events[i] + 7, v[i]);
        printf(" (%d messages)\n", bursts * PER);
    }
    for (int i = 0; i < nregs; i++) MPI_T_event_handle_free(regs[i], NULL, free_cb);
    MPI_Finalize();
    return 0;
}
