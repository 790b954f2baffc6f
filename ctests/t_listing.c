/* The mpit listing equals a raw MPI_T enumeration of the valid variables:
 * every (name, class) that MPI_T_pvar_get_info accepts is listed once, and
 * nothing else.  On an MPI with no variables both are empty.
 * Qualifiers are listed under their events (PAPI_NTV_ENUM_UMASKS), not as
 * events: each is the event's name qualified, with a text after "masks:",
 * and that name is one PAPI_event_name_to_code accepts; every variable
 * bound to a communicator lists :comm=self, every usable variable :elem=0,
 * the plain name of an MPICH twin the other's :class= (one per listed
 * "name:class=" event), and on an MPI with events some event.<name> lists
 * :sum= and :max=.
 * ranks: 2 */
#include "check.h"

#define MAXV 4096

typedef struct {
    char name[256];
    int cls;
} var_t;

static int contains(var_t *v, int n, const char *name, int cls)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v[i].name, name) == 0 && (cls < 0 || v[i].cls == cls)) return 1;
    return 0;
}

static var_t raw[MAXV];

typedef struct {
    int comm_self, elem, cls, sum, max; /* qualifiers of one event, by kind */
} quals_t;

/* Walks the qualifiers listed under event code (symbol sym), checking each;
 * counts them by kind. */
static quals_t walk_qualifiers(int code, const char *sym, int cidx)
{
    quals_t n = {0, 0, 0, 0, 0};
    size_t len = strlen(sym);
    int q = code;
    while (PAPI_enum_cmp_event(&q, PAPI_NTV_ENUM_UMASKS, cidx) == PAPI_OK) {
        PAPI_event_info_t info;
        int back;
        CHECK_PAPI(PAPI_get_event_info(q, &info));
        const char *qual = info.symbol + len;
        CHECK(strncmp(info.symbol, sym, len) == 0 && *qual == ':', "qualifier %s is not %s qualified",
              info.symbol, sym);
        const char *text = strstr(info.long_descr, "masks:");
        CHECK(text && text[6] != '\0', "qualifier %s has no text after masks: (%s)", info.symbol,
              info.long_descr);
        CHECK(info.units[0] == '\0', "qualifier %s has units %s", info.symbol, info.units);
        CHECK_PAPI(PAPI_event_name_to_code(info.symbol, &back));
        n.comm_self += strcmp(qual, ":comm=self") == 0;
        n.elem += strcmp(qual, ":elem=0") == 0;
        n.cls += strncmp(qual, ":class=", 7) == 0;
        n.sum += strncmp(qual, ":sum=", 5) == 0;
        n.max += strncmp(qual, ":max=", 5) == 0;
    }
    return n;
}

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
        if (MPI_T_pvar_get_info(i, name, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro, &cont, &at) !=
            MPI_SUCCESS)
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
    int nevents = 0, ntwins = 0, nclassq = 0, nsum = 0, nmax = 0;
    while (rc == PAPI_OK) {
        PAPI_event_info_t info;
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        const char *sym = info.symbol;
        CHECK(strncmp(sym, "mpit:::", 7) == 0, "symbol %s", sym);
        char name[256];
        snprintf(name, sizeof name, "%s", sym + 7);
        char *q = strstr(name, ":class=");
        if (q) *q = '\0';
        ntwins += q != NULL;
        int usable = strstr(info.long_descr, "(cannot be added:") == NULL;
        quals_t n = walk_qualifiers(code, sym, cidx);
        if (strncmp(name, "event.", 6) != 0 && strncmp(name, "derived.", 8) != 0 &&
            !(name[0] >= 'A' && name[0] <= 'Z')) {
            /* a pvar: must be in the raw enumeration */
            CHECK(contains(raw, nraw, name, -1), "listed %s is not a valid MPI_T variable", sym);
            nlisted++;
            int bound = strstr(info.long_descr, "; bound to a communicator]") != NULL;
            CHECK(n.comm_self == (usable && bound), "%s lists :comm=self %d times", sym, n.comm_self);
            CHECK(n.elem == usable, "%s lists :elem=0 %d times", sym, n.elem);
            CHECK(n.sum + n.max == 0, "variable %s lists :sum=/:max=", sym);
        } else {
            CHECK(n.comm_self + n.elem + n.cls == 0, "%s lists variable qualifiers", sym);
            CHECK(n.sum == n.max, "%s lists %d :sum= and %d :max=", sym, n.sum, n.max);
            CHECK(n.sum == 0 || strncmp(name, "event.", 6) == 0, "%s lists :sum=", sym);
        }
        nclassq += n.cls;
        nsum += n.sum;
        nmax += n.max;
        nevents += strncmp(name, "event.", 6) == 0;
        CHECK(info.long_descr[0] != '\0', "%s has no description", sym);
        CHECK(info.units[0] != '\0', "%s has no units", sym);
        rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
    }
    CHECK(nlisted == nraw, "listed %d variables, MPI_T has %d valid ones", nlisted, nraw);
    CHECK(nclassq == ntwins, "%d :class= qualifiers listed for %d twin variables", nclassq, ntwins);
    /* (MPICH 5.0's event data cannot be read: no element aggregates there) */
    CHECK(nevents == 0 || nsum > 0 || check_event_data_unreadable(),
          "%d MPI_T events listed, none with a :sum= qualifier", nevents);
    if (check_rank == 0)
        printf("qualifiers: %d :class= (twins %d), %d :sum=, %d :max= over %d MPI_T events\n", nclassq,
               ntwins, nsum, nmax, nevents);
    if (check_rank == 0) printf("MPI_T valid variables: %d, listed: %d\n", nraw, nlisted);
    MPI_T_finalize();
    rc = check_finish("listing");
    MPI_Finalize();
    return rc;
}
