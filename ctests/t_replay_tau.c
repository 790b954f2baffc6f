/* TAU's use of PAPI, replayed in plain PAPI: the event set is made and
 * started before MPI_Init (TAU starts its top-level timer first), and PAPI is
 * read at the entry and exit of every wrapped MPI call, MPI_Init and
 * MPI_Finalize included; TAU charges each difference to the region it spans.
 * Asserted on rank 1, which receives exactly U unexpected messages (flood.h):
 * every read succeeds and the counter never goes down; the differences
 * charged to the MPI calls during the traffic add up to exactly U; no
 * message is counted between two MPI calls (MPI progresses only inside
 * them), so TAU's attribution is whole.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "flood.h"
#include "replay_wrappers.h"

enum { U = 12 };

static int es = PAPI_NULL;
static long long last;            /* the value of the previous read */
static long long inside[R_COUNT]; /* differences charged to each region */
static long long outside;         /* differences between two MPI calls */
static int reads_failed, went_down, in_mpi;

static void tau_read(void)
{
    long long v = 0;
    if (PAPI_read(es, &v) != PAPI_OK) {
        reads_failed++;
        return;
    }
    if (v < last) went_down++;
    long long d = v - last;
    last = v;
    if (in_mpi) return;
    outside += d;
}

void replay_enter(enum replay_region r)
{
    (void)r;
    tau_read(); /* charges what happened since the last exit to the caller */
    in_mpi = 1;
}

void replay_leave(enum replay_region r)
{
    long long before = last;
    tau_read();
    inside[r] += last - before;
    in_mpi = 0;
}

int main(int argc, char **argv)
{
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, "mpit:::UNEXPECTED_MSGS"));
    CHECK_PAPI(PAPI_start(es));
    tau_read(); /* the top-level timer starts */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    long long out0 = outside, in0[R_COUNT];
    memcpy(in0, inside, sizeof in0);
    tau_read();
    long long at_start = last;
    flood(check_rank, U, NULL);
    tau_read();
    long long at_end = last;
    long long charged = 0;
    for (int r = 0; r < R_COUNT; r++) charged += inside[r] - in0[r];
    check_release(1);

    if (check_rank == 1) {
        CHECK(at_end - at_start == U, "%lld unexpected messages during the traffic, expected %d",
              at_end - at_start, U);
        CHECK(charged == U, "%lld charged to MPI calls during the traffic, expected %d", charged, U);
        CHECK(outside == out0, "%lld counted between two MPI calls", outside - out0);
        printf("rank 1: %lld in MPI_Recv, %lld in MPI_Wait, %lld elsewhere in MPI\n",
               inside[R_RECV] - in0[R_RECV], inside[R_WAIT] - in0[R_WAIT],
               charged - (inside[R_RECV] - in0[R_RECV]) - (inside[R_WAIT] - in0[R_WAIT]));
    }
    CHECK(reads_failed == 0, "%d reads failed", reads_failed);
    CHECK(went_down == 0, "the counter went down %d times", went_down);
    int rc = check_finish("t_replay_tau");
    MPI_Finalize();
    tau_read(); /* TAU's last read, after MPI_Finalize: still answers */
    CHECK(reads_failed == 0, "a read after MPI_Finalize failed");
    CHECK_PAPI(PAPI_stop(es, &last));
    return rc ? rc : (check_failures ? 1 : 0);
}
