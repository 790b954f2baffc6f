/* papi_mpit_after_init and papi_mpit_before_finalize answer what MPI does,
 * as papi_mpit.h promises (issue 35, case 5): PAPI_ENOINIT before
 * PAPI_library_init while MPI does not run, after PAPI_library_init before
 * MPI_Init (a program that never starts MPI is there for good) and after
 * MPI_Finalize; PAPI_OK while MPI runs, also when no mpit event was used.
 * ranks: 1 2 */
#include "check.h"
#include "papi_mpit.h"

int main(int argc, char **argv)
{
    int rank, rc;
    rc = papi_mpit_after_init();
    CHECK(rc == PAPI_ENOINIT, "after_init before PAPI_library_init and MPI_Init: %d", rc);
    rc = papi_mpit_before_finalize();
    CHECK(rc == PAPI_ENOINIT, "before_finalize before PAPI_library_init and MPI_Init: %d", rc);
    check_papi_init();
    rc = papi_mpit_after_init();
    CHECK(rc == PAPI_ENOINIT, "after_init after PAPI_library_init, before MPI_Init: %d", rc);
    rc = papi_mpit_before_finalize();
    CHECK(rc == PAPI_ENOINIT, "before_finalize after PAPI_library_init, before MPI_Init: %d", rc);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    rc = papi_mpit_after_init();
    CHECK(rc == PAPI_OK, "after_init after MPI_Init, no mpit event used: %d", rc);
    rc = papi_mpit_before_finalize();
    CHECK(rc == PAPI_OK, "before_finalize while MPI runs, no mpit event used: %d", rc);
    MPI_Finalize();
    rc = papi_mpit_after_init();
    CHECK(rc == PAPI_ENOINIT, "after_init after MPI_Finalize: %d", rc);
    return check_finish("t_after_init_enoinit");
}
