/* What the mpit component adds to start-up: to MPI_Init and to the first
 * PAPI call after it, for a set started before MPI_Init as TAU and HPCToolkit
 * start theirs.  One measurement per process (MPI_Init runs once), so
 * bench/init_cost.sh runs the modes alternately many times:
 *   mpi     MPI_Init alone, no PAPI
 *   nompit  PAPI_library_init with the mpit component disabled, MPI_Init
 *   mpit    PAPI_library_init, a set of mpit EVENTS (comma-separated)
 *           created, filled and started, MPI_Init, then the first PAPI_read
 *           (the one-time bind: enumeration, handles, callback registration)
 *           and a second PAPI_read
 * Rank 0 prints one line, each figure the largest over ranks, in us:
 *   MODE papi_init=.. add_start=.. mpi_init=.. first_read=.. later_read=..
 * Usage: mpirun -np 4 ./init_cost MODE [EVENTS]
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { PAPI_INIT, ADD_START, MPI_INIT, FIRST_READ, LATER_READ, NFIG };
static const char *const fig_name[NFIG] = {"papi_init", "add_start", "mpi_init", "first_read", "later_read"};

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void die(const char *what, int rc)
{
    fprintf(stderr, "init_cost: %s: %s\n", what, PAPI_strerror(rc));
    exit(1);
}

/* Creates, fills and starts the set; returns the number of events. */
static int add_events(int *es, const char *list)
{
    char *copy = strdup(list), *save = NULL;
    int n = 0, rc;
    if ((rc = PAPI_create_eventset(es)) != PAPI_OK) die("PAPI_create_eventset", rc);
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++)
        if ((rc = PAPI_add_named_event(*es, tok)) != PAPI_OK) die(tok, rc);
    if ((rc = PAPI_start(*es)) != PAPI_OK) die("PAPI_start", rc);
    free(copy);
    return n;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "mpit";
    const char *events = argc > 2 ? argv[2] : "mpit:::UNEXPECTED_MSGS";
    double fig[NFIG] = {0}, t;
    long long values[64];
    int es = PAPI_NULL, n = 0, rc, mpit = strcmp(mode, "mpit") == 0;
    if (!mpit && strcmp(mode, "mpi") != 0 && strcmp(mode, "nompit") != 0) {
        fprintf(stderr, "usage: %s mpi|nompit|mpit [EVENTS]\n", argv[0]);
        return 2;
    }

    if (strcmp(mode, "mpi") != 0) {
        if (!mpit && (rc = PAPI_disable_component_by_name("mpit")) != PAPI_OK) die("disable mpit", rc);
        t = now_us();
        if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) die("PAPI_library_init", rc);
        fig[PAPI_INIT] = now_us() - t;
    }
    if (mpit) {
        t = now_us();
        n = add_events(&es, events);
        fig[ADD_START] = now_us() - t;
        if (n > 64) die("too many events", PAPI_EINVAL);
    }
    t = now_us();
    MPI_Init(&argc, &argv);
    fig[MPI_INIT] = now_us() - t;
    if (mpit) {
        t = now_us();
        if ((rc = PAPI_read(es, values)) != PAPI_OK) die("first PAPI_read", rc);
        fig[FIRST_READ] = now_us() - t;
        t = now_us();
        if ((rc = PAPI_read(es, values)) != PAPI_OK) die("second PAPI_read", rc);
        fig[LATER_READ] = now_us() - t;
        if ((rc = PAPI_stop(es, values)) != PAPI_OK) die("PAPI_stop", rc);
    }

    double worst[NFIG];
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Reduce(fig, worst, NFIG, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%s", mode);
        for (int i = 0; i < NFIG; i++) printf(" %s=%.1f", fig_name[i], worst[i]);
        printf(" events=%d\n", n);
    }
    MPI_Finalize();
    return 0;
}
