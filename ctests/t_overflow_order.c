/* Sampling on an MPI event the way HPCToolkit's hpcrun drives PAPI (its papi-c
 * sample source, 2023.08.1): PAPI_library_init and PAPI_thread_init in a
 * constructor before main, then create a set, add mpit:::UNEXPECTED_MSGS,
 * PAPI_overflow(set, code, T, flags, handler) and PAPI_start, all before
 * MPI_Init; PAPI_stop just before MPI_Init and PAPI_start again after it;
 * PAPI_read inside the handler; PAPI_stop and PAPI_shutdown after
 * MPI_Finalize.  A second set counts perf::TASK-CLOCK beside it (a set holds
 * one component's events).  flags is 0 as hpcrun passes it (PAPI falls back to
 * software overflow for a component without interrupts); t_overflow_force_sw.c
 * builds this file with PAPI_OVERFLOW_FORCE_SW.
 *
 * Traffic (common/bursts.h): rank 1 receives B bursts of T unexpected
 * messages, with CPU work after each so that PAPI's 10 ms timer ticks while
 * the count stands at k*T.  Asserted: rank 1's handler runs B-1 to B times
 * (the n-th time with the event at index 0 in the overflow vector and a value
 * of at least n*T), rank 0's never (it receives 1 unexpected message); the
 * counts are exactly B*T and 1 before MPI_Finalize and at PAPI_stop after it;
 * TASK-CLOCK counted more than 0.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 */
#include "check.h"
#include "bursts.h"

#include <pthread.h>
#include <signal.h>

#ifndef OVERFLOW_FLAGS
#define OVERFLOW_FLAGS 0
#define TEST_NAME      "overflow_order"
#endif

#define EVENT        "mpit:::UNEXPECTED_MSGS"
#define B            5
#define T            20
#define WORK_SECONDS 0.06
#define MAX_CALLS    64

/* what the constructor did, checked in main once the rank is known */
static int init_rc, thread_rc, create_rc, add_rc, overflow_rc, start_rc;
static int clock_create_rc, clock_add_rc, clock_start_rc;
static int set = PAPI_NULL, clock_set = PAPI_NULL, code;

/* what the handler saw */
static volatile sig_atomic_t calls, wrong_set, wrong_index, read_failed;
static long long seen[MAX_CALLS];
static int calls_after_burst[B + 1];

static void handler(int event_set, void *address, long long vector, void *context)
{
    (void)address;
    (void)context;
    int n = calls;
    calls = n + 1;
    if (event_set != set) wrong_set++;
    int index[4], count = 4, codes[4], ncodes = 4;
    if (PAPI_get_overflow_event_index(event_set, vector, index, &count) != PAPI_OK || count != 1 ||
        PAPI_list_events(event_set, codes, &ncodes) != PAPI_OK || index[0] != 0 || codes[index[0]] != code)
        wrong_index++;
    long long v[1];
    if (PAPI_read(event_set, v) != PAPI_OK)
        read_failed++;
    else if (n < MAX_CALLS)
        seen[n] = v[0];
}

__attribute__((constructor)) static void before_main(void)
{
    init_rc = PAPI_library_init(PAPI_VER_CURRENT);
    thread_rc = PAPI_thread_init(pthread_self);
    create_rc = PAPI_create_eventset(&set);
    add_rc = PAPI_event_name_to_code(EVENT, &code);
    if (add_rc == PAPI_OK) add_rc = PAPI_add_event(set, code);
    overflow_rc = PAPI_overflow(set, code, T, OVERFLOW_FLAGS, handler);
    clock_create_rc = PAPI_create_eventset(&clock_set);
    clock_add_rc = PAPI_add_named_event(clock_set, "perf::TASK-CLOCK");
    start_rc = PAPI_start(set);
    clock_start_rc = PAPI_start(clock_set);
}

static void after_burst(int k) { calls_after_burst[k] = calls; }

int main(int argc, char **argv)
{
    long long v[1], before_init[1], clock_before[1], clock_v[1];
    /* hpcrun stops its sources around MPI_Init */
    int stop_rc = PAPI_stop(set, before_init), clock_stop_rc = PAPI_stop(clock_set, clock_before);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    CHECK_PAPI(PAPI_start(set));
    CHECK_PAPI(PAPI_start(clock_set));

    CHECK(init_rc == PAPI_VER_CURRENT, "PAPI_library_init returned %d", init_rc);
    CHECK_PAPI(thread_rc);
    CHECK_PAPI(create_rc);
    CHECK_PAPI(add_rc);
    CHECK_PAPI(overflow_rc);
    CHECK_PAPI(start_rc);
    CHECK_PAPI(stop_rc);
    CHECK_PAPI(clock_create_rc);
    CHECK_PAPI(clock_add_rc);
    CHECK_PAPI(clock_start_rc);
    CHECK_PAPI(clock_stop_rc);
    CHECK(before_init[0] == 0, "%s counted %lld before MPI_Init", EVENT, before_init[0]);

    bursts_run(check_rank, B, T, WORK_SECONDS, after_burst);
    CHECK_PAPI(PAPI_read(set, v));
    long long want = check_rank == 1 ? (long long)B * T : check_rank == 0 ? 1 : 0;
    CHECK(v[0] == want, "%s read %lld after the bursts, expected %lld", EVENT, v[0], want);
    MPI_Finalize();

    CHECK_PAPI(PAPI_stop(set, v));
    CHECK_PAPI(PAPI_stop(clock_set, clock_v));
    CHECK(v[0] == want, "%s stopped at %lld after MPI_Finalize, expected %lld", EVENT, v[0], want);
    CHECK(clock_v[0] > 0, "perf::TASK-CLOCK counted %lld", clock_v[0]);
    int n = calls;
    if (check_rank == 1) {
        CHECK(n >= B - 1 && n <= B, "handler ran %d times for %d bursts of %d", n, B, T);
        for (int k = 1; k <= B; k++)
            fprintf(stderr, "rank 1: %d handler calls after burst %d\n", calls_after_burst[k], k);
        for (int i = 0; i < n && i < MAX_CALLS; i++) {
            fprintf(stderr, "rank 1: call %d read %lld\n", i + 1, seen[i]);
            CHECK(seen[i] >= (long long)(i + 1) * T && seen[i] <= (long long)B * T,
                  "call %d read %lld, expected %d..%d", i + 1, seen[i], (i + 1) * T, B * T);
        }
    } else {
        CHECK(n == 0, "handler ran %d times on rank %d, which receives %lld unexpected messages", n,
              check_rank, want);
    }
    CHECK(wrong_set == 0, "handler got another event set %d times", (int)wrong_set);
    CHECK(wrong_index == 0, "overflow vector did not name %s (index 0) %d times", EVENT, (int)wrong_index);
    CHECK(read_failed == 0, "PAPI_read failed in the handler %d times", (int)read_failed);
    fprintf(stderr, "rank %d: %s = %lld, handler calls %d, TASK-CLOCK %lld ns\n", check_rank, EVENT, v[0], n,
            clock_v[0]);
    PAPI_shutdown();
    return check_finish(TEST_NAME);
}
