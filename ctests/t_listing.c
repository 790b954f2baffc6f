/* The mpit listing equals a raw MPI_T enumeration of the valid variables:
 * every (name, class) that MPI_T_pvar_get_info accepts is listed once, and
 * nothing else.  On an MPI with no variables both are empty.
 * ranks: 2 */
#include "check.h"

#define MAXV 4096

typedef struct { char name[256]; int cls; } var_t;

static int contains(var_t *v, int n, const char *name, int cls)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0 && (cls < 0 || v[i].cls == cls)) return 1;
    return 0;
}

static var_t raw[MAXV];

int main(int argc, char **argv)
{
    int provided, num = 0, nraw = 0, nlisted = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();

    MPI_T_init_thread(provided, &provided);
    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && nraw < MAXV; i++) {
        char name[256], desc[1024];
        int nl = sizeof name, dl = sizeof desc, verb, cls, bind, ro, cont, at;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro, &cont, &at) != MPI_SUCCESS)
            continue; /* stale index (Open MPI) */
        if (contains(raw, nraw, name, cls)) continue;
        snprintf(raw[nraw].name, sizeof raw[nraw].name, "%s", name);
        raw[nraw++].cls = cls;
    }

    int cidx = PAPI_get_component_index("mpit");
    CHECK(cidx >= 0, "no mpit component (%d)", cidx);
    const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
    CHECK(ci && !ci->disabled, "mpit disabled: %s", ci ? ci->disabled_reason : "?");

    int code = PAPI_NATIVE_MASK, rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
    while (rc == PAPI_OK) {
        PAPI_event_info_t info;
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        const char *sym = info.symbol;
        CHECK(strncmp(sym, "mpit:::", 7) == 0, "symbol %s", sym);
        char name[256];
        snprintf(name, sizeof name, "%s", sym + 7);
        char *q = strstr(name, ":class=");
        if (q) *q = '\0';
        if (strncmp(name, "event.", 6) != 0 && strncmp(name, "derived.", 8) != 0 &&
            !(name[0] >= 'A' && name[0] <= 'Z')) {
            /* a pvar: must be in the raw enumeration */
            CHECK(contains(raw, nraw, name, -1), "listed %s is not a valid MPI_T variable", sym);
            nlisted++;
        }
        CHECK(info.long_descr[0] != '\0', "%s has no description", sym);
        CHECK(info.units[0] != '\0', "%s has no units", sym);
        rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
    }
    CHECK(nlisted == nraw, "listed %d variables, MPI_T has %d valid ones", nlisted, nraw);
    if (check_rank == 0) printf("MPI_T valid variables: %d, listed: %d\n", nraw, nlisted);
    MPI_T_finalize();
    rc = check_finish("listing");
    MPI_Finalize();
    return rc;
}
