/* A set started before MPI_Init counts from MPI_Init, or each event's
 * description says where it counts from (issue 31, case 3).  Open MPI's
 * coll_monitoring_o2a_count is a counter whose MPI_T handle counts only
 * while started (not continuous): started before MPI_Init, with nothing
 * between MPI_Init and the broadcast, rank 0's first read must be 1, unless
 * the description says counting starts later (then a second broadcast
 * between two reads must read 1).  COLL_MSGS_SENT, read beside it, counts
 * from MPI_Init.
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#include "check.h"

#define BCAST_INTS 100

int main(int argc, char **argv)
{
    static const char *const names[] = {"mpit:::coll_monitoring_o2a_count", "mpit:::COLL_MSGS_SENT"};
    int rank, size, es = PAPI_NULL, ints[BCAST_INTS] = {0};
    long long v[2] = {-1, -1}, w[2] = {-1, -1};
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < 2; i++) CHECK_PAPI(PAPI_add_named_event(es, names[i]));
    CHECK_PAPI(PAPI_start(es));
    MPI_Init(&argc, &argv);
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD); /* no PAPI call since MPI_Init */
    CHECK_PAPI(PAPI_read(es, v));
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    PAPI_event_info_t info;
    int code;
    CHECK_PAPI(PAPI_event_name_to_code(names[0], &code));
    CHECK_PAPI(PAPI_get_event_info(code, &info));
    int says_later = strstr(info.long_descr, "counts it from the first PAPI call") != NULL;
    long long o2a = rank == 0, msgs = rank == 0 ? size - 1 : 0;
    /* at least: a collective inside MPI_Init counts too (Open MPI built
     * with SPCs sends 4 bytes to every peer there) */
    if (!says_later)
        CHECK(v[0] >= o2a,
              "%s started before MPI_Init read %lld after one broadcast, at least %lld expected (%s)",
              names[0], v[0], o2a, info.long_descr);
    CHECK(v[1] >= msgs, "%s started before MPI_Init read %lld, at least %lld expected", names[1], v[1], msgs);
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_read(es, w));
    CHECK(w[0] - v[0] == o2a, "%s counted %lld for the second broadcast, expected %lld", names[0],
          w[0] - v[0], o2a);
    CHECK(w[1] - v[1] == msgs, "%s counted %lld for the second broadcast, expected %lld", names[1],
          w[1] - v[1], msgs);
    CHECK_PAPI(PAPI_stop(es, w));
    MPI_Finalize();
    return check_finish("t_count_from_init");
}
