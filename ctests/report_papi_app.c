/* Helper program of t_report.sh: an MPI program that uses PAPI itself, as a
 * program instrumented with PAPI or run under TAU does.  After MPI_Init it
 * counts the first event of the mpit component in an event set of its own;
 * under papi-mpit-report (which counts mpit events too) its PAPI_start must
 * still succeed.  Prints "papi_app: ..." on rank 0; exit 1 if PAPI_start or
 * PAPI_stop failed on any rank. */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, bad = 0, anybad = 0, es = PAPI_NULL, code = PAPI_NATIVE_MASK, start = 0, stop = 0;
    long long v = 0;
    char name[PAPI_MAX_STR_LEN] = "";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) bad = 1;
    int cidx = PAPI_get_component_index("mpit");
    int have = !bad && cidx >= 0 && PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK &&
               PAPI_event_code_to_name(code, name) == PAPI_OK;
    if (have) {
        PAPI_create_eventset(&es);
        have = PAPI_add_event(es, code) == PAPI_OK;
    }
    if (have) {
        start = PAPI_start(es);
        MPI_Barrier(MPI_COMM_WORLD);
        stop = PAPI_stop(es, &v);
        bad |= start != PAPI_OK || stop != PAPI_OK;
    }
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        if (have)
            printf("papi_app: own set with %s: PAPI_start %d, PAPI_stop %d\n", name, start, stop);
        else
            printf("papi_app: no mpit event to count here\n");
    }
    MPI_Finalize();
    return anybad;
}
