/* A read goes straight down (issue 31): PAPI_read of a started set enters
 * MPI only through MPI_T_pvar_read; it looks up no name, binds no variable
 * and runs no catch-up.  Checked by counting the MPI_T calls the component
 * makes: this program defines the PMPI_T_ names the component looks up and
 * binds with (linked with -rdynamic, so the backend module binds to them),
 * and each counts its calls by phase.
 *   - Set A is named and started before MPI_Init.  This program's MPI_Init
 *     wrapper calls papi_mpit_after_init right after PMPI_Init, as a tool's
 *     wrapper does: the lookups and bindings happen there (at least one
 *     handle where A has a variable), and A's reads make none.  Open MPI's
 *     coll_monitoring_o2a_count, not continuous, counts from MPI_Init: one
 *     broadcast before A's first read reads exactly 1 on the root.
 *   - Set B is named and started after MPI_Init: its reads make none.
 *   - papi_mpit_after_init before MPI_Init and after MPI_Finalize says
 *     PAPI_ENOINIT; called a second time it has nothing left to do.
 * ranks: 2 4 */
/* RTLD_NEXT: glibc declares it only with _GNU_SOURCE, before any header
 * (glibc 2.31's mpi.h does not bring it) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>

#include "check.h"
#include "papi_mpit.h"

#define ROUNDS     50
#define BCAST_INTS 100
#define MAX_NAMES  48
#define NAME_LEN   128

enum phase { PH_OTHER, PH_HOOK, PH_READ, PHASES };
/* names and information; sessions, handles and starts; reads */
enum call { C_LOOKUP, C_SESSION, C_HANDLE, C_START, C_READ, CALLS };
static const char *const call_names[CALLS] = {"lookup", "session_create", "handle_alloc", "pvar_start",
                                              "pvar_read"};
static int phase;
static long calls[PHASES][CALLS];

#define NEXT(type, name) ((type)dlsym(RTLD_NEXT, #name))

int PMPI_T_init_thread(int required, int *provided)
{
    calls[phase][C_LOOKUP]++;
    return NEXT(int (*)(int, int *), PMPI_T_init_thread)(required, provided);
}

int PMPI_T_pvar_get_num(int *num)
{
    calls[phase][C_LOOKUP]++;
    return NEXT(int (*)(int *), PMPI_T_pvar_get_num)(num);
}

int PMPI_T_pvar_get_info(int i, char *name, int *name_len, int *verbosity, int *cls, MPI_Datatype *type,
                         MPI_T_enum *enumtype, char *desc, int *desc_len, int *bind, int *readonly,
                         int *continuous, int *atomic)
{
    typedef int (*fn_t)(int, char *, int *, int *, int *, MPI_Datatype *, MPI_T_enum *, char *, int *, int *,
                        int *, int *, int *);
    calls[phase][C_LOOKUP]++;
    return NEXT(fn_t, PMPI_T_pvar_get_info)(i, name, name_len, verbosity, cls, type, enumtype, desc, desc_len,
                                            bind, readonly, continuous, atomic);
}

int PMPI_T_pvar_get_index(const char *name, int cls, int *index)
{
    calls[phase][C_LOOKUP]++;
    return NEXT(int (*)(const char *, int, int *), PMPI_T_pvar_get_index)(name, cls, index);
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session *s)
{
    calls[phase][C_SESSION]++;
    return NEXT(int (*)(MPI_T_pvar_session *), PMPI_T_pvar_session_create)(s);
}

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session s, int index, void *obj, MPI_T_pvar_handle *h, int *count)
{
    typedef int (*fn_t)(MPI_T_pvar_session, int, void *, MPI_T_pvar_handle *, int *);
    calls[phase][C_HANDLE]++;
    return NEXT(fn_t, PMPI_T_pvar_handle_alloc)(s, index, obj, h, count);
}

int PMPI_T_pvar_start(MPI_T_pvar_session s, MPI_T_pvar_handle h)
{
    calls[phase][C_START]++;
    return NEXT(int (*)(MPI_T_pvar_session, MPI_T_pvar_handle), PMPI_T_pvar_start)(s, h);
}

int PMPI_T_pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf)
{
    calls[phase][C_READ]++;
    return NEXT(int (*)(MPI_T_pvar_session, MPI_T_pvar_handle, void *), PMPI_T_pvar_read)(s, h, buf);
}

static int hook_rc = -1;

/* What a tool's wrapper does (the report tool's does the same) */
int MPI_Init(int *argc, char ***argv)
{
    int rc = PMPI_Init(argc, argv);
    phase = PH_HOOK;
    hook_rc = papi_mpit_after_init();
    phase = PH_OTHER;
    return rc;
}

/* Adds every portable metric and the extras; names[] gets those taken. */
static int add_all(int es, const char *const *extra, char (*names)[NAME_LEN])
{
    const char *m;
    char name[128];
    int n = 0;
    for (int i = 0; (m = papi_mpit_metric(i, NULL)) != NULL && n < MAX_NAMES - 4; i++) {
        snprintf(name, sizeof name, "mpit:::%s", m);
        if (PAPI_add_named_event(es, name) == PAPI_OK) snprintf(names[n++], NAME_LEN, "%s", name);
    }
    for (; *extra; extra++)
        if (PAPI_add_named_event(es, *extra) == PAPI_OK) snprintf(names[n++], NAME_LEN, "%s", *extra);
    return n;
}

/* Traffic, then reads of es counted as the read phase. */
static void read_rounds(int es, const char *set, int rank, int size)
{
    long long v[MAX_NAMES];
    int ints[BCAST_INTS] = {0};
    long before[CALLS];
    memcpy(before, calls[PH_READ], sizeof before);
    for (int r = 0; r < ROUNDS; r++) {
        int to = (rank + 1) % size, from = (rank + size - 1) % size, out = r, in = -1;
        MPI_Sendrecv(&out, 1, MPI_INT, to, 0, &in, 1, MPI_INT, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
        phase = PH_READ;
        int rc = PAPI_read(es, v);
        phase = PH_OTHER;
        CHECK(rc == PAPI_OK, "set %s: PAPI_read returned %d", set, rc);
    }
    for (int c = 0; c < CALLS; c++)
        if (c != C_READ)
            CHECK(calls[PH_READ][c] == before[c], "set %s: %ld MPI_T %s calls inside %d reads, none expected",
                  set, calls[PH_READ][c] - before[c], call_names[c], ROUNDS);
}

int main(int argc, char **argv)
{
    static const char *const ompi_extra[] = {"mpit:::coll_monitoring_o2a_count", NULL};
    static const char *const no_extra[] = {NULL};
    static char names_a[MAX_NAMES][NAME_LEN], names_b[MAX_NAMES][NAME_LEN];
    int a = PAPI_NULL, b = PAPI_NULL, rank, size, ints[BCAST_INTS] = {0};
    long long v[MAX_NAMES];
    int ompi = check_is_openmpi();
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&a));
    int na = add_all(a, ompi ? ompi_extra : no_extra, names_a);
    CHECK(na > 0, "no mpit event could be named before MPI_Init");
    CHECK_PAPI(PAPI_start(a));
    int early = papi_mpit_after_init();
    CHECK(early == PAPI_ENOINIT, "papi_mpit_after_init before MPI_Init returned %d, PAPI_ENOINIT expected",
          early);

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK(hook_rc == PAPI_OK, "papi_mpit_after_init after MPI_Init returned %d", hook_rc);
    /* kept unless the catch-up refused it (a release without monitoring) */
    char why[2048];
    int has_o2a = ompi && na > 0 && strcmp(names_a[na - 1], ompi_extra[0]) == 0 &&
                  !papi_mpit_why(ompi_extra[0], why, sizeof why);
    long handles = calls[PH_OTHER][C_HANDLE] + calls[PH_HOOK][C_HANDLE];

    /* counting from MPI_Init: nothing between it and this broadcast */
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    phase = PH_READ;
    CHECK_PAPI(PAPI_read(a, v));
    phase = PH_OTHER;
    if (has_o2a)
        CHECK(v[na - 1] == (rank == 0), "%s read %lld after one broadcast since MPI_Init, %d expected",
              ompi_extra[0], v[na - 1], rank == 0);
    for (int c = 0; c < CALLS; c++)
        if (c != C_READ)
            CHECK(calls[PH_READ][c] == 0,
                  "set A's first read after MPI_Init made %ld MPI_T %s calls: it caught up",
                  calls[PH_READ][c], call_names[c]);
    read_rounds(a, "A (started before MPI_Init)", rank, size);
    /* (after the first read: called earlier, it would be the catch-up of a
     * wrapper that did not call it) */
    long hook_calls = calls[PH_HOOK][C_LOOKUP] + calls[PH_HOOK][C_HANDLE];
    phase = PH_HOOK;
    CHECK(papi_mpit_after_init() == PAPI_OK, "a second papi_mpit_after_init failed");
    phase = PH_OTHER;
    CHECK(calls[PH_HOOK][C_LOOKUP] + calls[PH_HOOK][C_HANDLE] == hook_calls,
          "a second papi_mpit_after_init looked up or bound again");
    CHECK(calls[PH_READ][C_READ] > 0 || handles == 0,
          "no MPI_T_pvar_read was seen in a read: the counting wrappers are not in use");
    CHECK_PAPI(PAPI_stop(a, v));

    CHECK_PAPI(PAPI_create_eventset(&b));
    int nb = add_all(b, ompi ? ompi_extra : no_extra, names_b);
    if (nb == 0) check_skip("the running MPI offers none of the portable metrics: no read to look at");
    CHECK_PAPI(PAPI_start(b));
    read_rounds(b, "B (started after MPI_Init)", rank, size);
    CHECK_PAPI(PAPI_stop(b, v));
    if (rank == 0)
        printf("set A: %d events, set B: %d; MPI_T calls in papi_mpit_after_init: %ld lookups, %ld handles; "
               "in reads: %ld lookups, %ld handles, %ld pvar_reads\n",
               na, nb, calls[PH_HOOK][C_LOOKUP], calls[PH_HOOK][C_HANDLE], calls[PH_READ][C_LOOKUP],
               calls[PH_READ][C_HANDLE], calls[PH_READ][C_READ]);
    MPI_Finalize();
    int late = papi_mpit_after_init();
    CHECK(late == PAPI_ENOINIT, "papi_mpit_after_init after MPI_Finalize returned %d, PAPI_ENOINIT expected",
          late);
    return check_finish("t_read_straight");
}
