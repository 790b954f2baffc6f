/* Events of the MPI's own objects (Open MPI 6.0's MPI_T events): between
 * PAPI_start and PAPI_read, 5 communicators created and freed (3 dups, 2
 * splits) read exactly 5 and 5, and 3 failing calls on a communicator with
 * a user error handler read 3 invocations, as portable metrics and as
 * event.<name> occurrence counters; then 2 windows created and freed read
 * 2 and 2 (the communicators a window makes for itself are counted too, and
 * must balance).  The element aggregate sums the created communicators'
 * sizes.  Where the MPI reports memory returned to the system (Open MPI's
 * memory patcher), freeing a 64 MiB block (mmap'ed by malloc, unmapped by
 * free) reads at least one release of at least 64 MiB by PAPI_stop.  On an MPI without these events each metric is refused with the
 * reason naming what gives it, and nothing crashes.
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

#define COMMS   5
#define WINS    2
#define ERRORS  3
#define CREATED "mpit:::event.ompi.mpi.communicator_created"

enum { COMMS_CREATED, COMMS_FREED, WINS_CREATED, WINS_FREED, ERRORS_HANDLED, EV_CREATED, EV_SIZES, NEV };
static const char *const names[NEV] = {
    "mpit:::COMMS_CREATED", "mpit:::COMMS_FREED",    "mpit:::WINS_CREATED",
    "mpit:::WINS_FREED",    "mpit:::ERRORS_HANDLED", CREATED,
    CREATED ":sum=size",
};

static int handled; /* invocations of our handler, the truth */
static void on_error(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
    handled++;
}

/* No events of this kind: every metric refused, with what would give it. */
static int refused_everywhere(void)
{
    int es = PAPI_NULL;
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < EV_CREATED; i++) {
        int rc = PAPI_add_named_event(es, names[i]);
        char why[512] = "";
        papi_mpit_why(names[i], why, sizeof why);
        CHECK(rc != PAPI_OK, "%s added on an MPI without object events", names[i]);
        CHECK(strstr(why, "Open MPI 6.0") != NULL, "%s refused without naming what gives it: '%s'", names[i],
              why);
    }
    CHECK_PAPI(PAPI_cleanup_eventset(es));
    CHECK_PAPI(PAPI_destroy_eventset(&es));
    return check_finish("object events (none on this MPI)");
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!check_has_event(CREATED)) {
        papi_mpit_quiet(1);
        int rc = refused_everywhere();
        MPI_Finalize();
        return rc;
    }
    int es = PAPI_NULL;
    long long v[NEV], w[NEV];
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < NEV; i++) CHECK_PAPI(PAPI_add_named_event(es, names[i]));

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);
    MPI_Barrier(MPI_COMM_WORLD);

    /* communicators and errors */
    CHECK_PAPI(PAPI_start(es));
    MPI_Comm c[COMMS];
    for (int i = 0; i < 3; i++) MPI_Comm_dup(MPI_COMM_WORLD, &c[i]);
    MPI_Comm_split(MPI_COMM_WORLD, check_rank % 2, check_rank, &c[3]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - check_rank, &c[4]);
    for (int i = 0; i < COMMS; i++) MPI_Comm_free(&c[i]);
    int byte = 0;
    for (int i = 0; i < ERRORS; i++) /* a rank that does not exist */
        CHECK(MPI_Send(&byte, 1, MPI_INT, size + i, 0, MPI_COMM_WORLD) != MPI_SUCCESS,
              "send to rank %d worked", size + i);
    CHECK_PAPI(PAPI_read(es, v));
    CHECK(handled == ERRORS, "the handler ran %d times, not %d", handled, ERRORS);
    CHECK(v[COMMS_CREATED] == COMMS, "COMMS_CREATED %lld, expected %d", v[COMMS_CREATED], COMMS);
    CHECK(v[COMMS_FREED] == COMMS, "COMMS_FREED %lld, expected %d", v[COMMS_FREED], COMMS);
    CHECK(v[EV_CREATED] == COMMS, "%s %lld, expected %d", CREATED, v[EV_CREATED], COMMS);
    int split_even = (size + 1) / 2, split_odd = size / 2;
    long long sizes = 3LL * size + (check_rank % 2 ? split_odd : split_even) + size;
    CHECK(v[EV_SIZES] == sizes, "sum of the created sizes %lld, expected %lld", v[EV_SIZES], sizes);
    CHECK(v[ERRORS_HANDLED] == ERRORS, "ERRORS_HANDLED %lld, expected %d", v[ERRORS_HANDLED], ERRORS);
    CHECK(v[WINS_CREATED] == 0 && v[WINS_FREED] == 0, "windows %lld/%lld with none made", v[WINS_CREATED],
          v[WINS_FREED]);

    /* windows: a window may make communicators of its own, which it frees */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Errhandler_free(&eh);
    int buf[4];
    void *mem;
    MPI_Win win[WINS];
    MPI_Win_create(buf, sizeof buf, sizeof buf[0], MPI_INFO_NULL, MPI_COMM_WORLD, &win[0]);
    MPI_Win_allocate(64, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win[1]);
    for (int i = 0; i < WINS; i++) MPI_Win_free(&win[i]);
    CHECK_PAPI(PAPI_stop(es, w));
    CHECK(w[WINS_CREATED] == WINS, "WINS_CREATED %lld, expected %d", w[WINS_CREATED], WINS);
    CHECK(w[WINS_FREED] == WINS, "WINS_FREED %lld, expected %d", w[WINS_FREED], WINS);
    CHECK(w[COMMS_CREATED] - v[COMMS_CREATED] == w[COMMS_FREED] - v[COMMS_FREED],
          "the windows' own communicators do not balance: %lld created, %lld freed",
          w[COMMS_CREATED] - v[COMMS_CREATED], w[COMMS_FREED] - v[COMMS_FREED]);
    CHECK(w[ERRORS_HANDLED] == ERRORS, "ERRORS_HANDLED %lld after the windows", w[ERRORS_HANDLED]);

    /* memory returned to the system, delivered when the source is drained
     * (the component drains it at PAPI_start and PAPI_stop) */
    if (check_has_event("mpit:::MEMORY_RELEASED")) {
        int ms = PAPI_NULL;
        long long m[2];
        CHECK_PAPI(PAPI_create_eventset(&ms));
        CHECK_PAPI(PAPI_add_named_event(ms, "mpit:::MEMORY_RELEASED"));
        CHECK_PAPI(PAPI_add_named_event(ms, "mpit:::MEMORY_RELEASES"));
        CHECK_PAPI(PAPI_start(ms));
        size_t big = (size_t)64 << 20;
        char *block = malloc(big);
        CHECK(block != NULL, "no 64 MiB");
        if (block) memset(block, 1, big);
        free(block);
        CHECK_PAPI(PAPI_stop(ms, m));
        CHECK(m[0] >= (long long)big && m[1] >= 1, "after freeing 64 MiB: %lld bytes in %lld releases", m[0],
              m[1]);
        if (check_rank == 0) printf("memory released: %lld bytes in %lld releases\n", m[0], m[1]);
        CHECK_PAPI(PAPI_cleanup_eventset(ms));
        CHECK_PAPI(PAPI_destroy_eventset(&ms));
    } else if (check_rank == 0) {
        char why[512] = "";
        papi_mpit_why("mpit:::MEMORY_RELEASED", why, sizeof why);
        printf("memory releases: not reported by this MPI (%s)\n", why);
    }
    if (check_rank == 0)
        printf(
            "object events: %d communicators, %d windows (and %lld communicators of their own), %d errors\n",
            COMMS, WINS, w[COMMS_CREATED] - v[COMMS_CREATED], ERRORS);
    CHECK_PAPI(PAPI_cleanup_eventset(es));
    CHECK_PAPI(PAPI_destroy_eventset(&es));
    int rc = check_finish("object events");
    MPI_Finalize();
    return rc;
}
