#include "check.h"

int check_failures;
int check_rank;

int check_is_openmpi(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    return strstr(v, "Open MPI") != NULL;
}

int check_has_event(const char *name)
{
    int es = PAPI_NULL, ok;
    if (PAPI_create_eventset(&es) != PAPI_OK) return 0;
    ok = PAPI_add_named_event(es, name) == PAPI_OK;
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return ok;
}

void check_papi_init(void)
{
    int rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed: %d\n", rc);
        exit(1);
    }
}

int check_finish(const char *test)
{
    int any = 0, mine = check_failures > 0, finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    else any = mine;
    if (check_rank == 0 && !any) printf("PASS %s\n", test);
    return mine ? 1 : 0;
}

void check_skip(const char *why)
{
    if (check_rank == 0) printf("SKIP %s\n", why);
    MPI_Finalize();
    exit(TEST_SKIP);
}
