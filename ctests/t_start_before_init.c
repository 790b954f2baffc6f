/* An event set started before MPI_Init (as TAU and HPCToolkit start theirs)
 * counts mpit:::UNEXPECTED_MSGS exactly after it, with a promise that
 * differs by source:
 *  - Open MPI (an SPC, which appears at the end of MPI_Init): counted from
 *    its appearance, so U1 messages that arrive before the first PAPI call
 *    after MPI_Init are counted: reads U1, then U1 + U2;
 *  - MPICH (MPI_T event callbacks, which can be registered only once MPI
 *    runs, and PAPI has no hook inside MPI_Init): counted from the first PAPI
 *    call of any kind after MPI_Init, so the U1 messages before it are
 *    missed: reads 0, then U2.
 * On Open MPI the component also leaves MPI_T alone until MPI runs (its
 * MPI_T_init_thread costs about 30 ms before MPI_Init, a few after): MPI_T
 * is still uninitialised when the set has started.
 * Rank 1 measures; its marker receive is posted before rank 0 sends, so
 * exactly the data messages arrive unexpected.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "flood.h"

enum { U1 = 6, U2 = 9 };

int main(int argc, char **argv)
{
    int es = PAPI_NULL;
    long long first = -1, second = -1;
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, "mpit:::UNEXPECTED_MSGS"));
    CHECK_PAPI(PAPI_start(es));
#ifdef OPEN_MPI
    int ncvars, cvar_rc = MPI_T_cvar_get_num(&ncvars); /* answers only once MPI_T is initialised */
#endif

    MPI_Init(&argc, &argv);
#ifdef OPEN_MPI
    CHECK(cvar_rc == MPI_T_ERR_NOT_INITIALIZED,
          "MPI_T was initialised before MPI_Init (MPI_T_cvar_get_num: %d)", cvar_rc);
#endif
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    int openmpi = check_is_openmpi();
    flood(check_rank, U1, NULL); /* no PAPI call on this rank since MPI_Init */
    CHECK_PAPI(PAPI_read(es, &first));
    flood(check_rank, U2, NULL);
    CHECK_PAPI(PAPI_read(es, &second));
    CHECK_PAPI(PAPI_stop(es, &second));
    check_release(1); /* keeps the other ranks' later collectives out of the count */
    if (check_rank == 1) {
        long long want1 = openmpi ? U1 : 0, want2 = openmpi ? U1 + U2 : U2;
        CHECK(first == want1, "first read after MPI_Init %lld, expected %lld", first, want1);
        CHECK(second == want2, "second read %lld, expected %lld", second, want2);
        printf("rank 1 (%s): %lld then %lld unexpected messages\n", openmpi ? "Open MPI SPC" : "MPICH events",
               first, second);
    }
    int rc = check_finish("t_start_before_init");
    MPI_Finalize();
    return rc;
}
