/* Score-P's use of PAPI, replayed in plain PAPI: before MPI_Init it looks
 * each metric up (a leading '!' marks an absolute metric and is not part of
 * the name), adds it to a throwaway set to test it, then makes the real set,
 * adds all and starts it; it reads at every region enter and exit, takes
 * every value as uint64, stores differences of the counters and the values
 * of the absolute metrics as read.
 * Asserted on rank 1, which receives exactly U unexpected messages (flood.h):
 * every call succeeds, before MPI_Init too; the counter's differences
 * during the traffic add up to exactly U; the absolute queue length reads U
 * at the peak (the marker in, the data not yet received) and 0 once drained.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "flood.h"
#include "replay_wrappers.h"
#include <stdint.h>

enum { U = 12, NMETRICS = 2 };

static const char *metrics[NMETRICS] = {"mpit:::UNEXPECTED_MSGS", "!mpit:::UNEXPECTED_QUEUE_LENGTH"};
static int es = PAPI_NULL, absolute[NMETRICS], failed;
static uint64_t last[NMETRICS], diff_sum;

static void scorep_read(void)
{
    long long v[NMETRICS] = {0};
    if (PAPI_read(es, v) != PAPI_OK) {
        failed++;
        return;
    }
    for (int i = 0; i < NMETRICS; i++) {
        uint64_t u = (uint64_t)v[i];
        if (!absolute[i]) diff_sum += u - last[i];
        last[i] = u;
    }
}

void replay_enter(enum replay_region r)
{
    (void)r;
    scorep_read();
}
void replay_leave(enum replay_region r)
{
    (void)r;
    scorep_read();
}

static uint64_t at_peak = UINT64_MAX;
static void peak(void)
{
    scorep_read();
    at_peak = last[1];
}

int main(int argc, char **argv)
{
    check_papi_init();
    int codes[NMETRICS];
    for (int i = 0; i < NMETRICS; i++) {
        const char *name = metrics[i];
        absolute[i] = name[0] == '!';
        name += absolute[i];
        CHECK_PAPI(PAPI_event_name_to_code(name, &codes[i]));
        int test = PAPI_NULL;
        CHECK_PAPI(PAPI_create_eventset(&test));
        CHECK_PAPI(PAPI_add_event(test, codes[i]));
        CHECK_PAPI(PAPI_cleanup_eventset(test));
        CHECK_PAPI(PAPI_destroy_eventset(&test));
    }
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < NMETRICS; i++) CHECK_PAPI(PAPI_add_event(es, codes[i]));
    CHECK_PAPI(PAPI_start(es));
    scorep_read(); /* the program's region begins */

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    scorep_read();
    uint64_t before = diff_sum;
    flood(check_rank, U, check_rank == 1 ? peak : NULL);
    scorep_read();
    uint64_t during = diff_sum - before, drained = last[1];
    check_release(1);

    if (check_rank == 1) {
        CHECK(during == U, "counter differences during the traffic add up to %llu, expected %d",
              (unsigned long long)during, U);
        CHECK(at_peak == U, "queue length %llu at the peak, expected %d", (unsigned long long)at_peak, U);
        CHECK(drained == 0, "queue length %llu once drained", (unsigned long long)drained);
        printf("rank 1: %llu unexpected messages, %llu waiting at the peak\n", (unsigned long long)during,
               (unsigned long long)at_peak);
    }
    CHECK(failed == 0, "%d reads failed", failed);
    int rc = check_finish(REPLAY_TOOL_HOOKS ? "t_replay_scorep_hooked" : "t_replay_scorep");
    MPI_Finalize();
    long long v[NMETRICS];
    CHECK_PAPI(PAPI_stop(es, v));
    return rc ? rc : (check_failures ? 1 : 0);
}
