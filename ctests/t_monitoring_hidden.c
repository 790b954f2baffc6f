/* Open MPI 4.1 removes its pml monitoring variables from MPI_T in MPI_Init
 * (open-mpi/ompi#9260), so MSGS_SENT, and BYTES_SENT where no SPC serves it,
 * can never count there (issue 35, case 4).  Before MPI_Init:
 *  - the listing says so: MSGS_SENT (and BYTES_SENT without SPCs) is listed
 *    as one that cannot be added, with the reason;
 *  - adding them fails at once with that reason, not a PAPI_OK that reads 0;
 *  - built with --enable-spc, BYTES_SENT comes from the SPC: added before
 *    MPI_Init it counts exactly the 4000 bytes rank 0 sends to rank 1.
 * flavors: openmpi openmpi-spc
 * ranks: 2 */
#include "check.h"
#include "papi_mpit.h"

#define SENT_INTS 1000

/* The listing's description of name ("" when not listed). */
static void listed(const char *name, char *descr, size_t len)
{
    int cidx = PAPI_get_component_index("mpit"), code = PAPI_NATIVE_MASK;
    PAPI_event_info_t info;
    descr[0] = '\0';
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) != PAPI_OK) return;
    do
        if (PAPI_get_event_info(code, &info) == PAPI_OK && strcmp(info.symbol, name) == 0) {
            snprintf(descr, len, "%s", info.long_descr);
            return;
        }
    while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
}

int main(int argc, char **argv)
{
    int rank, size, bytes = PAPI_NULL, msgs = PAPI_NULL, ints[SENT_INTS] = {0};
    static char descr[2][PAPI_HUGE_STR_LEN], why[2][1024];
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    unsetenv("OMPI_MCA_mpi_spc_attach");
    int spc = strcmp(getenv("KIND") ? getenv("KIND") : "", "openmpi-spc") == 0;
    check_papi_init();
    papi_mpit_quiet(1);
    listed("mpit:::MSGS_SENT", descr[0], sizeof descr[0]);
    listed("mpit:::BYTES_SENT", descr[1], sizeof descr[1]);
    CHECK_PAPI(PAPI_create_eventset(&msgs));
    CHECK_PAPI(PAPI_create_eventset(&bytes));
    int rc_msgs = PAPI_add_named_event(msgs, "mpit:::MSGS_SENT");
    papi_mpit_why("MSGS_SENT", why[0], sizeof why[0]);
    int rc_bytes = PAPI_add_named_event(bytes, "mpit:::BYTES_SENT");
    papi_mpit_why("BYTES_SENT", why[1], sizeof why[1]);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(v, &len);
    if (strncmp(v, "Open MPI v4.1.", 14) != 0) check_skip("Open MPI 4.1 only");

    CHECK(strstr(descr[0], "cannot be added") && strstr(descr[0], "ompi#9260"),
          "the listing of MSGS_SENT before MPI_Init: \"%s\"", descr[0]);
    CHECK(rc_msgs == PAPI_ENOEVNT && strstr(why[0], "ompi#9260"), "MSGS_SENT before MPI_Init: %d (%s)",
          rc_msgs, why[0]);
    if (!spc) {
        CHECK(strstr(descr[1], "cannot be added") && strstr(descr[1], "ompi#9260"),
              "the listing of BYTES_SENT before MPI_Init: \"%s\"", descr[1]);
        CHECK(rc_bytes == PAPI_ENOEVNT && strstr(why[1], "ompi#9260") && strstr(why[1], "--enable-spc"),
              "BYTES_SENT before MPI_Init: %d (%s)", rc_bytes, why[1]);
    } else {
        CHECK(!strstr(descr[1], "cannot be added"), "the listing of BYTES_SENT before MPI_Init: \"%s\"",
              descr[1]);
        CHECK(rc_bytes == PAPI_OK, "BYTES_SENT before MPI_Init with SPCs: %d (%s)", rc_bytes, why[1]);
    }
    if (rc_bytes == PAPI_OK) {
        long long got = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_PAPI(PAPI_start(bytes));
        if (rank == 0) MPI_Send(ints, SENT_INTS, MPI_INT, 1, 5, MPI_COMM_WORLD);
        if (rank == 1) MPI_Recv(ints, SENT_INTS, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_stop(bytes, &got));
        long long truth = rank == 0 ? SENT_INTS * (long long)sizeof(int) : 0;
        CHECK(got == truth, "BYTES_SENT %lld, sent %lld", got, truth);
    }
    (void)size;
    MPI_Finalize();
    return check_finish("t_monitoring_hidden");
}
