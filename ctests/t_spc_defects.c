/* Open MPI 5.0's SPC defects, seen through MPI_T itself, and the component's
 * answer to them.  With every SPC attached from MPI_Init and U messages
 * waiting unexpected at rank 1, Open MPI's UNEXPECTED_IN_QUEUE reads U while
 * its MAX_UNEXPECTED_IN_QUEUE reads 0: ompi_spc_update_watermark compares the
 * watermark with itself.  The component refuses that watermark and
 * OOS_IN_QUEUE (never decremented) with the reason, and UNEXPECTED_QUEUE_MAX
 * still reads U, kept over the level.  Should Open MPI fix the watermark,
 * this test fails and says to lift the row of backend/known_defects.c.
 * Open MPI 4.1 maintains both: skipped there.
 * flavors: openmpi-spc
 * ranks: 2 */
#include "check.h"
#include "papi_mpit.h"

#define U        8
#define TAG_DATA 7
#define TAG_MARK 8
#define SPC(x)   "runtime_spc_OMPI_SPC_" x

/* A started handle of an SPC pvar; MPI_T_PVAR_HANDLE_NULL when absent. */
static MPI_T_pvar_handle spc_handle(MPI_T_pvar_session s, const char *name)
{
    int index, count;
    MPI_T_pvar_handle h = MPI_T_PVAR_HANDLE_NULL;
    if (MPI_T_pvar_get_index(name, MPI_T_PVAR_CLASS_SIZE, &index) != MPI_SUCCESS) return h;
    if (MPI_T_pvar_handle_alloc(s, index, NULL, &h, &count) != MPI_SUCCESS) return MPI_T_PVAR_HANDLE_NULL;
    MPI_T_pvar_start(s, h); /* 5.0: attaches; the MCA parameter attached it too */
    return h;
}

static void refused(const char *name)
{
    char full[256], why[512] = "";
    int es = PAPI_NULL;
    snprintf(full, sizeof full, "mpit:::%s", name);
    CHECK_PAPI(PAPI_create_eventset(&es));
    int rc = PAPI_add_named_event(es, full);
    CHECK(rc != PAPI_OK, "%s was accepted: Open MPI 5.0 does not maintain it", name);
    papi_mpit_why(full + strlen("mpit:::"), why, sizeof why);
    CHECK(strstr(why, "not maintained") != NULL, "%s refused without the reason: '%s'", name, why);
    PAPI_destroy_eventset(&es);
}

int main(int argc, char **argv)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len, provided;
    MPI_Get_library_version(version, &len);
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    if (strncmp(version, "Open MPI v5.0.", strlen("Open MPI v5.0.")) != 0 &&
        strncmp(version, "Open MPI v6.0.", strlen("Open MPI v6.0.")) != 0)
        check_skip("Open MPI 4.1 maintains its SPC watermarks: the defects are 5.0's and 6.0's");
    check_papi_init();
    MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
    MPI_T_pvar_session session;
    MPI_T_pvar_session_create(&session);
    int es = PAPI_NULL, data[U], mark = 0;
    long long qmax = -1;
    if (check_rank == 1) {
        refused(SPC("MAX_UNEXPECTED_IN_QUEUE"));
        refused(SPC("MAX_OOS_IN_QUEUE"));
        refused(SPC("OOS_IN_QUEUE"));
        CHECK_PAPI(PAPI_create_eventset(&es));
        CHECK_PAPI(PAPI_add_named_event(es, "mpit:::UNEXPECTED_QUEUE_MAX"));
        CHECK_PAPI(PAPI_start(es));
    }
    MPI_T_pvar_handle level = spc_handle(session, SPC("UNEXPECTED_IN_QUEUE"));
    MPI_T_pvar_handle max = spc_handle(session, SPC("MAX_UNEXPECTED_IN_QUEUE"));
    CHECK(level != MPI_T_PVAR_HANDLE_NULL && max != MPI_T_PVAR_HANDLE_NULL, "no SPC handles");
    MPI_Barrier(MPI_COMM_WORLD);
    if (check_rank == 0) {
        for (int i = 0; i < U; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_DATA, MPI_COMM_WORLD);
        MPI_Send(&mark, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
    }
    if (check_rank == 1) {
        unsigned long long n_level = 0, n_max = 0;
        MPI_Recv(&mark, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_T_pvar_read(session, level, &n_level);
        MPI_T_pvar_read(session, max, &n_max);
        CHECK_PAPI(PAPI_read(es, &qmax));
        printf("with %d messages waiting: UNEXPECTED_IN_QUEUE %llu, MAX_UNEXPECTED_IN_QUEUE %llu, "
               "UNEXPECTED_QUEUE_MAX %lld\n",
               U, n_level, n_max, qmax);
        CHECK(n_level == U, "Open MPI's UNEXPECTED_IN_QUEUE %llu, expected %d", n_level, U);
        CHECK(n_max == 0,
              "Open MPI's MAX_UNEXPECTED_IN_QUEUE reads %llu: the watermark works now; lift its row in "
              "components/mpit/backend/known_defects.c",
              n_max);
        CHECK(qmax == U, "UNEXPECTED_QUEUE_MAX %lld, expected %d", qmax, U);
        for (int i = 0; i < U; i++)
            MPI_Recv(&data[i], 1, MPI_INT, 0, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_stop(es, &qmax));
        CHECK(qmax == U, "UNEXPECTED_QUEUE_MAX %lld once received, expected %d", qmax, U);
    }
    check_release(1);
    MPI_T_pvar_stop(session, level);
    MPI_T_pvar_stop(session, max);
    MPI_T_pvar_handle_free(session, &level);
    MPI_T_pvar_handle_free(session, &max);
    MPI_T_pvar_session_free(&session);
    int rc = check_finish("spc_defects");
    MPI_Finalize();
    return rc;
}
