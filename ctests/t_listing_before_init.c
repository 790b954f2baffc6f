/* A listing before MPI_Init changes nothing a name means (issue 31, case
 * 4).  A tool's event chooser walks the component (every event and
 * qualifier) before MPI_Init; names given after that, still before
 * MPI_Init, must switch Open MPI's monitoring on as they do without the
 * walk, read exactly what one broadcast from rank 0 sent, and BYTES_SENT
 * must be what it is without the walk: exact on the point-to-point traffic
 * where the MPI gives it, else refused when added with Open MPI 4.1's
 * reason (ompi#9260).
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"
#include "peers.h"

#define BCAST_INTS 100

static const char *const names[] = {"mpit:::COLL_BYTES_SENT", "mpit:::COLL_MSGS_SENT", "mpit:::BYTES_SENT"};
enum { COLL_BYTES, COLL_MSGS, BYTES, NUM };

static int walk(void)
{
    int cidx = PAPI_get_component_index("mpit"), code = PAPI_NATIVE_MASK, n = 0;
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK) return 0;
    do {
        int q = code;
        n++;
        while (PAPI_enum_cmp_event(&q, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) n++;
    } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

int main(int argc, char **argv)
{
    int rank, size, es[NUM], added[NUM], ints[BCAST_INTS] = {0};
    static char why[NUM][1024];
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    unsetenv("OMPI_MCA_mpi_spc_attach");
    check_papi_init();
    int listed = walk();
    for (int i = 0; i < NUM; i++) {
        es[i] = PAPI_NULL;
        CHECK_PAPI(PAPI_create_eventset(&es[i]));
        added[i] = PAPI_add_named_event(es[i], names[i]);
        papi_mpit_why(names[i], why[i], sizeof why[i]);
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK(listed > 0, "the walk before MPI_Init listed nothing");
    const char *mon = getenv("OMPI_MCA_pml_monitoring_enable");
    CHECK(mon && strcmp(mon, "2") == 0,
          "monitoring not switched on after a listing (pml_monitoring_enable %s)", mon ? mon : "unset");
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(v, &len);
    int v5 = strncmp(v, "Open MPI v", 10) == 0 && atoi(v + 10) >= 5;
    int spc = strcmp(getenv("KIND") ? getenv("KIND") : "", "openmpi-spc") == 0;
    for (int i = 0; i < NUM; i++) {
        long long got = -1, truth = 0;
        char *buf;
        int n;
        for (int p = 0; p < size; p++)
            truth += i == BYTES ? peers_expected_bytes(rank, p)
                                : (rank == 0 && p != 0) *
                                      (i == COLL_BYTES ? BCAST_INTS * (long long)sizeof(int) : 1);
        MPI_Request *req = peers_post(rank, size, &buf, &n);
        MPI_Barrier(MPI_COMM_WORLD);
        check_capture_begin();
        int rc = added[i] == PAPI_OK ? PAPI_start(es[i]) : added[i];
        static char said[4096];
        snprintf(said, sizeof said, "%s", check_capture_end(1));
        peers_send(rank, size, req, n);
        if (i != BYTES) MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
        if (rc == PAPI_OK) CHECK_PAPI(PAPI_stop(es[i], &got));
        if (i == BYTES && !v5 && !spc) /* Open MPI 4.1 says so before MPI_Init: refused when added */
            CHECK(added[i] != PAPI_OK && strstr(why[i], "ompi#9260"), "%s after a listing: add %d, why: %s",
                  names[i], added[i], why[i]);
        else
            CHECK(rc == PAPI_OK && got == truth,
                  "%s after a listing: start %d, read %lld, expected %lld; said: %s", names[i], rc, got,
                  truth, said);
        free(req);
        free(buf);
    }
    MPI_Finalize();
    return check_finish("t_listing_before_init");
}
