/* Helper program of t_report_reasons.sh: the mpit component's own words for
 * an event it refuses, as a program using PAPI sees them.
 *
 *   report_why EVENT
 *
 * After MPI_Init adds EVENT to an event set; rank 0 prints on stdout the
 * add's status and the component's reason (papi_mpit_why) whole, one line:
 * "EVENT: REASON".  Exit 0.
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>

#include "papi_mpit.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, es = PAPI_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    static char why[4096];
    if (argc > 1 && PAPI_library_init(PAPI_VER_CURRENT) == PAPI_VER_CURRENT &&
        PAPI_create_eventset(&es) == PAPI_OK) {
        int rc = PAPI_add_named_event(es, argv[1]);
        if (rank == 0 && rc != PAPI_OK && papi_mpit_why(argv[1], why, sizeof why))
            printf("%s: %s\n", argv[1], why);
    }
    MPI_Finalize();
    return 0;
}
