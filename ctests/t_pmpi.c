/* The PMPI rule, checked the way a tool would break it: this program wraps,
 * like TAU or Caliper do, every MPI entry point the component could use, and
 * each wrapper reads PAPI on the running set, as a tool's wrapper does.  The
 * component enters MPI only through PMPI_ names, so no wrapper may ever run
 * while PAPI is working: the wrappers count the calls that reach them, and
 * the test makes none itself, so the count must stay 0 through
 * PAPI_library_init, lookups and adds before and after MPI_Init, start,
 * reads, stop, and shutdown after MPI_Finalize.
 * Linked with -rdynamic (see the build line below) so that the backend
 * module, loaded with dlopen, would bind to these definitions if it named
 * any MPI_ function.
 * ranks: 2 */
#include "check.h"

#include <stdatomic.h>

static atomic_int wrapped_calls;
static int running_set = PAPI_NULL;
static int watching; /* off for the test's own bookkeeping at the end */

/* What a tool's wrapper does: count, take a reading, call the real one. */
static void tool_hook(const char *name)
{
    long long v[8];
    if (!watching) return;
    atomic_fetch_add(&wrapped_calls, 1);
    fprintf(stderr, "rank %d: FAIL the component called %s by its MPI_ name\n", check_rank, name);
    if (running_set != PAPI_NULL) PAPI_read(running_set, v);
}

#define WRAP(ret, name, params, args)                                                                        \
    ret name params                                                                                          \
    {                                                                                                        \
        tool_hook(#name);                                                                                    \
        return P##name args;                                                                                 \
    }

WRAP(int, MPI_Get_library_version, (char *v, int *len), (v, len))
WRAP(int, MPI_Initialized, (int *f), (f))
WRAP(int, MPI_Finalized, (int *f), (f))
WRAP(int, MPI_Query_thread, (int *p), (p))
WRAP(int, MPI_T_init_thread, (int r, int *p), (r, p))
WRAP(int, MPI_T_finalize, (void), ())
WRAP(int, MPI_T_pvar_get_num, (int *n), (n))
WRAP(int, MPI_T_pvar_get_index, (const char *n, int c, int *i), (n, c, i))
WRAP(int, MPI_T_pvar_session_create, (MPI_T_pvar_session * s), (s))
WRAP(int, MPI_T_pvar_session_free, (MPI_T_pvar_session * s), (s))
WRAP(int, MPI_T_pvar_handle_alloc, (MPI_T_pvar_session s, int i, void *o, MPI_T_pvar_handle *h, int *c),
     (s, i, o, h, c))
WRAP(int, MPI_T_pvar_start, (MPI_T_pvar_session s, MPI_T_pvar_handle h), (s, h))
WRAP(int, MPI_T_pvar_stop, (MPI_T_pvar_session s, MPI_T_pvar_handle h), (s, h))
WRAP(int, MPI_T_pvar_reset, (MPI_T_pvar_session s, MPI_T_pvar_handle h), (s, h))
WRAP(int, MPI_T_pvar_read, (MPI_T_pvar_session s, MPI_T_pvar_handle h, void *b), (s, h, b))
WRAP(int, MPI_T_cvar_get_index, (const char *n, int *i), (n, i))
WRAP(int, MPI_T_cvar_read, (MPI_T_cvar_handle h, void *b), (h, b))
WRAP(int, MPI_Comm_create_keyval,
     (MPI_Comm_copy_attr_function * c, MPI_Comm_delete_attr_function *d, int *k, void *x), (c, d, k, x))
WRAP(int, MPI_Comm_set_attr, (MPI_Comm c, int k, void *a), (c, k, a))

/* Events a flavor may have; each one present joins the set. */
static const char *const candidates[] = {
    "mpit:::UNEXPECTED_MSGS",
    "mpit:::BYTES_SENT",
    "mpit:::unexpected_recvq_length",
    "mpit:::pml_ob1_unexpected_msgq_length",
    "mpit:::event.unexp_message_enqueued",
};

static int add_present(int es)
{
    int added = 0;
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++)
        added += PAPI_add_named_event(es, candidates[i]) == PAPI_OK;
    return added;
}

int main(int argc, char **argv)
{
    long long v[8];
    int es = PAPI_NULL, after = PAPI_NULL;
    setenv("PAPI_MPIT_QUIET", "1", 1); /* absent candidates are expected */
    watching = 1;
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    int before_init = add_present(es); /* names resolve at start or after MPI_Init */
    if (before_init > 0) {
        CHECK_PAPI(PAPI_start(es));
        running_set = es;
        CHECK_PAPI(PAPI_read(es, v));
    }
    MPI_Init(&argc, &argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    if (running_set != PAPI_NULL) {
        CHECK_PAPI(PAPI_read(es, v));
        running_set = PAPI_NULL; /* one running set per component and thread */
        CHECK_PAPI(PAPI_stop(es, v));
    }
    CHECK_PAPI(PAPI_create_eventset(&after));
    int after_init = add_present(after);
    if (after_init > 0) {
        CHECK_PAPI(PAPI_start(after));
        running_set = after;
        CHECK_PAPI(PAPI_read(after, v));
        CHECK_PAPI(PAPI_reset(after));
    }
    int num = 0;
    PAPI_enum_cmp_event(&num, PAPI_ENUM_FIRST, PAPI_get_component_index("mpit"));
    PMPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (running_set != PAPI_NULL) {
        running_set = PAPI_NULL;
        CHECK_PAPI(PAPI_stop(after, v));
    }
    PAPI_shutdown();
    watching = 0;
    CHECK(atomic_load(&wrapped_calls) == 0, "%d calls reached the tool's MPI_ wrappers",
          atomic_load(&wrapped_calls));
    printf("rank %d: %d events added before MPI_Init, %d after; 0 wrapped calls\n", check_rank, before_init,
           after_init);
    return check_finish("t_pmpi");
}
