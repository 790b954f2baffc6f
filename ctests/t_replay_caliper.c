/* Caliper's use of PAPI, replayed in plain PAPI: its papi service makes and
 * starts the event set once MPI runs, and at every snapshot (each begin and
 * end of a wrapped MPI call) reads the set and resets it, recording what was
 * read; a region's value is the sum of its records.
 * Asserted on rank 1, which receives exactly U unexpected messages (flood.h):
 * every read and reset succeeds, no record is negative, the records taken
 * during the traffic add up to exactly U, and a snapshot taken right after
 * another, with no MPI call between them, records 0.
 * Open MPI 4.1 attaches SPCs only in MPI_Init, so a Caliper user attaches
 * the counter up front (doc/tools.md, "With Caliper"); the test does the same.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "flood.h"
#include "replay_wrappers.h"

enum { U = 12 };

static int es = PAPI_NULL, started;
static long long recorded; /* the sum of the records */
static int records, failed, negative;

static long long snapshot(void)
{
    long long v = 0;
    if (!started) return 0;
    if (PAPI_read(es, &v) != PAPI_OK || PAPI_reset(es) != PAPI_OK) {
        failed++;
        return 0;
    }
    if (v < 0) negative++;
    recorded += v;
    records++;
    return v;
}

void replay_enter(enum replay_region r)
{
    (void)r;
    snapshot();
}
void replay_leave(enum replay_region r)
{
    (void)r;
    snapshot();
}

int main(int argc, char **argv)
{
    setenv("OMPI_MCA_mpi_spc_attach", "OMPI_SPC_UNEXPECTED", 0);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, "mpit:::UNEXPECTED_MSGS"));
    CHECK_PAPI(PAPI_start(es));
    started = 1;
    MPI_Barrier(MPI_COMM_WORLD); /* every rank counts before the traffic */

    snapshot();
    long long before = recorded;
    int before_records = records;
    flood(check_rank, U, NULL);
    snapshot();
    long long during = recorded - before;
    int during_records = records - before_records;
    long long again = snapshot(); /* no MPI call since the last one */
    check_release(1);

    if (check_rank == 1) {
        CHECK(during == U, "records during the traffic add up to %lld, expected %d", during, U);
        CHECK(during_records >= 2 * (U + 3), "only %d snapshots during the traffic", during_records);
        CHECK(again == 0, "a snapshot right after another recorded %lld", again);
        printf("rank 1: %lld unexpected messages in %d records\n", during, during_records);
    }
    CHECK(failed == 0, "%d reads or resets failed", failed);
    CHECK(negative == 0, "%d records were negative", negative);
    long long last = 0;
    CHECK_PAPI(PAPI_stop(es, &last));
    started = 0;
    int rc = check_finish("t_replay_caliper");
    MPI_Finalize();
    return rc;
}
