/* A variable the MPI cannot read for the object asked for changes no other
 * event of its set (issue 31, case 2).  Open MPI's coll monitoring keeps
 * data for MPI_COMM_WORLD only: coll_monitoring_messages_size:comm=self,
 * which the listing offers, cannot be read.  It must be refused when added,
 * with a line naming it; COLL_MSGS_SENT in the set still reads exactly what
 * one broadcast from rank 0 sent.  And the listing no longer offers it: no
 * qualifier of coll_monitoring_messages_size is :comm=self.
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#include "check.h"

#define BCAST_INTS 100

int main(int argc, char **argv)
{
    static const char good[] = "mpit:::COLL_MSGS_SENT",
                      bad[] = "mpit:::coll_monitoring_messages_size:comm=self";
    int rank, size, es = PAPI_NULL, ints[BCAST_INTS] = {0};
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    check_papi_init();
    int early = PAPI_NULL; /* named before MPI_Init: the component turns monitoring on */
    CHECK_PAPI(PAPI_create_eventset(&early));
    CHECK_PAPI(PAPI_add_named_event(early, good));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    long long truth = rank == 0 ? size - 1 : 0, v[2] = {-1, -1};

    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, good));
    check_capture_begin();
    int added = PAPI_add_named_event(es, bad) == PAPI_OK;
    static char said[4096];
    snprintf(said, sizeof said, "%s", check_capture_end(1));
    CHECK(added || strstr(said, "coll_monitoring_messages_size:comm=self"),
          "refused without a line naming it: %s", said);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_start(es));
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    int rc = PAPI_read(es, v);
    CHECK(rc != PAPI_OK || v[0] == truth, "%s read %lld beside %s (PAPI_read %d), expected %lld", good, v[0],
          added ? bad : "nothing", rc, truth);
    /* a read error is no way to say it: PAPI_stop reads first, and a set
     * whose read fails could never be stopped */
    CHECK(!added, "%s was added although the MPI cannot read it (PAPI_read %d, it read %lld)", bad, rc, v[1]);
    PAPI_stop(es, v);

    /* what papi_native_avail shows under the variable */
    int code, cidx, offered = 0;
    CHECK_PAPI(PAPI_event_name_to_code("mpit:::coll_monitoring_messages_size", &code));
    cidx = PAPI_get_event_component(code);
    for (int more = PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK; more;
         more = PAPI_enum_cmp_event(&code, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
        char name[PAPI_MAX_STR_LEN];
        CHECK_PAPI(PAPI_event_code_to_name(code, name));
        CHECK(!strstr(name, "comm=self"), "the listing offers %s, which the MPI cannot read", name);
        offered++;
    }
    CHECK(offered > 0, "no qualifier listed under coll_monitoring_messages_size (:elem= expected)");
    MPI_Finalize();
    return check_finish("t_bad_variable");
}
