#include "check.h"

#include <unistd.h>

int check_failures;
int check_rank;

int check_is_openmpi(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    return strstr(v, "Open MPI") != NULL;
}

int check_event_data_unreadable(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n;
    MPI_Get_library_version(v, &n);
    const char *label = "MPICH Version:";
    if (strncmp(v, label, strlen(label)) != 0) return 0;
    const char *p = v + strlen(label);
    p += strspn(p, " \t");
    return strncmp(p, "5.0.", 4) == 0;
}

int check_mpich_at_least(int major, int minor)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int n, ma = 0, mi = 0;
    MPI_Get_library_version(v, &n);
    if (sscanf(v, "MPICH Version: %d.%d", &ma, &mi) != 2) return 0;
    return ma > major || (ma == major && mi >= minor);
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
    if (!finalized)
        MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    else
        any = mine;
    if (check_rank == 0 && !any) printf("PASS %s\n", test);
    return mine ? 1 : 0;
}

#define RELEASE_TAG 32000

void check_release(int measuring_rank)
{
    int size, token = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (check_rank == measuring_rank) {
        for (int r = 0; r < size; r++)
            if (r != measuring_rank) MPI_Send(&token, 1, MPI_INT, r, RELEASE_TAG, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, measuring_rank, RELEASE_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static char captured[16384];
static FILE *capture_file;
static int saved_fd = -1;

void check_capture_begin(void)
{
    fflush(stderr);
    capture_file = tmpfile();
    saved_fd = dup(2);
    dup2(fileno(capture_file), 2);
}

const char *check_capture_end(int echo)
{
    fflush(stderr);
    dup2(saved_fd, 2);
    close(saved_fd);
    rewind(capture_file);
    size_t n = fread(captured, 1, sizeof captured - 1, capture_file);
    captured[n] = '\0';
    fclose(capture_file);
    if (echo) fputs(captured, stderr);
    return captured;
}

void check_skip(const char *why)
{
    if (check_rank == 0) printf("SKIP %s\n", why);
    MPI_Finalize();
    exit(TEST_SKIP);
}

int check_one_event_set(const char *name)
{
    int es = PAPI_NULL;
    CHECK_PAPI(PAPI_create_eventset(&es));
    if (PAPI_add_named_event(es, name) != PAPI_OK) {
        PAPI_destroy_eventset(&es);
        return PAPI_NULL;
    }
    return es;
}
