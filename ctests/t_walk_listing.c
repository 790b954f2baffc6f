/* Every event the listing shows, after MPI_Init, can be added, started,
 * read, reset, read and stopped without a crash, alone and then all together
 * (in sets of at most 64, the mpit limit); an event whose description says
 * it cannot be added is refused with an error, never read.  Open MPI lists
 * variables of components it did not select (the PSM2 MTL on a machine
 * without PSM2 hardware crashes inside psm2_mq_get_stats when read): they
 * must be among the refused ones.
 * ranks: 2 */
#include "check.h"

#define MAX_EVENTS 4096
#define SET_MAX    64

static int codes[MAX_EVENTS];
static char names[MAX_EVENTS][PAPI_MAX_STR_LEN];

/* Runs one set through its life; returns the PAPI_start code. */
static int exercise(const int *list, int n, int *added)
{
    int es = PAPI_NULL, rc;
    long long v[SET_MAX];
    *added = 0;
    CHECK_PAPI(PAPI_create_eventset(&es));
    for (int i = 0; i < n; i++) *added += PAPI_add_event(es, list[i]) == PAPI_OK;
    rc = *added ? PAPI_start(es) : PAPI_OK;
    if (*added && rc == PAPI_OK) {
        CHECK_PAPI(PAPI_read(es, v));
        CHECK_PAPI(PAPI_reset(es));
        CHECK_PAPI(PAPI_read(es, v));
        CHECK_PAPI(PAPI_stop(es, v));
    }
    CHECK_PAPI(PAPI_cleanup_eventset(es));
    CHECK_PAPI(PAPI_destroy_eventset(&es));
    return rc;
}

int main(int argc, char **argv)
{
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1); /* every SPC counts, so every one is read */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    setenv("PAPI_MPIT_QUIET", "1", 1);
    int cidx = PAPI_get_component_index("mpit"), n = 0, code = 0 | PAPI_NATIVE_MASK;
    CHECK(cidx >= 0, "no mpit component");
    if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK) {
        do {
            if (n < MAX_EVENTS && PAPI_event_code_to_name(code, names[n]) == PAPI_OK) codes[n++] = code;
        } while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    }
    if (n == 0) check_skip("this MPI lists no mpit events");

    int usable[MAX_EVENTS], nusable = 0, refused = 0, psm2 = 0;
    for (int i = 0; i < n; i++) {
        PAPI_event_info_t info;
        CHECK_PAPI(PAPI_get_event_info(codes[i], &info));
        int says_unusable = strstr(info.long_descr, "cannot be added") != NULL;
        int added, rc = exercise(&codes[i], 1, &added);
        if (says_unusable) {
            CHECK(!added, "%s is listed as unusable but could be added", names[i]);
            refused++;
        } else if (added && rc == PAPI_OK) {
            usable[nusable++] = codes[i];
        } else {
            refused++; /* e.g. an SPC that is not attached: refused with a reason */
        }
        if (strstr(names[i], "mtl_psm2_")) {
            psm2++;
            CHECK(says_unusable, "%s (PSM2 MTL, not selected) is not listed as unusable", names[i]);
        }
    }
    for (int i = 0; i < nusable; i += SET_MAX) {
        int added, len = nusable - i < SET_MAX ? nusable - i : SET_MAX;
        int rc = exercise(&usable[i], len, &added);
        CHECK(added == len && rc == PAPI_OK, "together: %d of %d added, start %d", added, len, rc);
    }
    if (check_rank == 0)
        printf("%d listed: %d counted alone and together, %d refused (%d PSM2 MTL)\n", n, nusable, refused,
               psm2);
    int rc = check_finish("t_walk_listing");
    MPI_Finalize();
    return rc;
}
