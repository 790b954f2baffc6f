/* Helper program of t_scorep.sh: prints, after MPI_Init, every mpit event
 * the listing offers (one name a line, qualified names included, as
 * papi_native_avail shows them), leaving out those whose description says
 * they cannot be added; those go to stderr, "unusable NAME". */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <string.h>

static void print_event(int code)
{
    PAPI_event_info_t info;
    if (PAPI_get_event_info(code, &info) != PAPI_OK) return;
    if (strstr(info.long_descr, "cannot be added"))
        fprintf(stderr, "unusable %s\n", info.symbol);
    else
        printf("%s\n", info.symbol);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) return 1;
    int cidx = PAPI_get_component_index("mpit"), code = PAPI_NATIVE_MASK;
    if (cidx < 0) return 1;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK) {
        do {
            print_event(code);
            int sub = code;
            if (PAPI_enum_cmp_event(&sub, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
                do print_event(sub);
                while (PAPI_enum_cmp_event(&sub, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK);
            }
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    }
    MPI_Finalize();
    return 0;
}
