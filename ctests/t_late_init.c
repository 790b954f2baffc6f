/* PAPI initialised only after MPI_Finalize (a library that starts late, or
 * a tool's exit handler): PAPI works, mpit names fail with PAPI_ENOEVNT and
 * a reason, nothing crashes, and perf_event events still count.
 * ranks: 2 */
#include "check.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Finalize();
    check_papi_init();
    int es = PAPI_NULL, code;
    CHECK_PAPI(PAPI_create_eventset(&es));
    check_capture_begin();
    int rc = PAPI_add_named_event(es, "mpit:::UNEXPECTED_QUEUE_LENGTH");
    int rc2 = PAPI_event_name_to_code("mpit:::pml_ob1_unexpected_msgq_length", &code);
    const char *err = check_capture_end(1);
    CHECK(rc == PAPI_ENOEVNT, "adding an mpit event after MPI_Finalize returned %d", rc);
    CHECK(rc2 == PAPI_ENOEVNT, "looking up an mpit name after MPI_Finalize returned %d", rc2);
    CHECK(strstr(err, "finalized") != NULL, "no reason given: '%s'", err);
    /* the rest of PAPI is unaffected */
    long long v = 0;
    CHECK_PAPI(PAPI_add_named_event(es, "perf::TASK-CLOCK"));
    CHECK_PAPI(PAPI_start(es));
    for (volatile int i = 0; i < 1000000; i++) {}
    CHECK_PAPI(PAPI_stop(es, &v));
    CHECK(v > 0, "perf::TASK-CLOCK %lld", v);
    PAPI_shutdown();
    if (check_rank == 0 && !check_failures) printf("PASS late_init\n");
    return check_failures ? 1 : 0;
}
