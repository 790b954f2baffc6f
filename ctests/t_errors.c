/* Every mistake a user can make with an mpit name gets the documented PAPI
 * error code, a one-line "papi-mpit:" reason on stderr naming the event
 * (silenced by PAPI_MPIT_QUIET=1), and no crash; the event set stays usable.
 *   unknown name after MPI_Init              -> PAPI_ENOEVNT (lookup and add)
 *   malformed or unknown qualifier           -> PAPI_EINVAL  (lookup and add)
 *   :comm=self on a variable with no binding -> PAPI_EINVAL
 *   :class= the variable does not have       -> PAPI_ENOEVNT
 *   :elem=N past the variable's element count -> name accepted, add PAPI_EINVAL
 *   a window-bound variable                  -> listed, add PAPI_ENOSUPP
 *   a variable of another MPI (SPC name without SPC) -> PAPI_ENOEVNT
 *   an Open MPI SPC that is not attached      -> name accepted, add PAPI_ECMP
 *   an MPI_T event this MPI does not raise    -> PAPI_ENOEVNT
 *   a portable metric this MPI cannot provide -> PAPI_ENOEVNT, saying what would
 * Parts that need a kind of variable this MPI lacks are left out (said on
 * stdout); the name errors run everywhere, MPICH without variables included.
 * ranks: 2 */

#include "check.h"

/* The name must fail lookup with want, say why on stderr (a line starting
 * "papi-mpit:" that contains the name without its mpit::: prefix), and
 * PAPI_add_named_event must fail with the same code. */
static void expect_lookup_error(int es, const char *name, int want)
{
    int code = 0, rc;
    check_capture_begin();
    rc = PAPI_event_name_to_code(name, &code);
    const char *err = check_capture_end(0);
    CHECK(rc == want, "lookup of %s returned %d (%s), expected %d (%s)", name, rc, PAPI_strerror(rc), want,
          PAPI_strerror(want));
    const char *bare = strncmp(name, "mpit:::", 7) == 0 ? name + 7 : name;
    const char *line = strstr(err, "papi-mpit: ");
    CHECK(line && (line == err || line[-1] == '\n'), "no 'papi-mpit:' line on stderr for %s (got '%s')", name,
          err);
    CHECK(strstr(err, bare) != NULL, "the reason printed for %s does not name it: '%s'", name, err);
    rc = PAPI_add_named_event(es, name);
    CHECK(rc == want, "PAPI_add_named_event(%s) returned %d (%s), expected %d", name, rc, PAPI_strerror(rc),
          want);
}

/* The name is accepted, but adding it fails with want and a reason. */
static void expect_add_error(int es, const char *name, int want)
{
    int code = 0, rc = PAPI_event_name_to_code(name, &code);
    CHECK(rc == PAPI_OK, "lookup of %s returned %d (%s), expected PAPI_OK", name, rc, PAPI_strerror(rc));
    if (rc != PAPI_OK) return;
    check_capture_begin();
    rc = PAPI_add_event(es, code);
    const char *err = check_capture_end(0);
    CHECK(rc == want, "PAPI_add_event(%s) returned %d (%s), expected %d (%s)", name, rc, PAPI_strerror(rc),
          want, PAPI_strerror(want));
    CHECK(strstr(err, "papi-mpit: ") != NULL, "no 'papi-mpit:' reason on stderr when adding %s (got '%s')",
          name, err);
    int n = PAPI_num_events(es);
    CHECK(n == 0, "the set holds %d events after the failed add of %s", n, name);
}

static const char *first_present(const char *const *names)
{
    for (; *names; names++)
        if (check_has_event(*names)) return *names;
    return NULL;
}

/* Any listed event whose name starts with prefix, or NULL. */
static const char *listed_with_prefix(const char *prefix)
{
    static char found[PAPI_HUGE_STR_LEN];
    int cidx = PAPI_get_component_index("mpit");
    int code = PAPI_NATIVE_MASK;
    if (cidx < 0) return NULL;
    int rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx);
    while (rc == PAPI_OK) {
        PAPI_event_info_t info;
        if (PAPI_get_event_info(code, &info) == PAPI_OK &&
            strncmp(info.symbol, prefix, strlen(prefix)) == 0) {
            snprintf(found, sizeof found, "%s", info.symbol);
            return found;
        }
        rc = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx);
    }
    return NULL;
}

static void note(const char *what)
{
    if (check_rank == 0) printf("not on this MPI: %s\n", what);
}

int main(int argc, char **argv)
{
    char name[512];
    unsetenv("OMPI_MCA_mpi_spc_attach"); /* no SPC is attached in this test */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    unsetenv("PAPI_MPIT_QUIET");
    int size, es = PAPI_NULL;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK_PAPI(PAPI_create_eventset(&es));
    int code0, spc = PAPI_event_name_to_code("mpit:::runtime_spc_OMPI_SPC_SEND", &code0) == PAPI_OK;

    /* ---- names that cannot be anything */
    expect_lookup_error(es, "mpit:::no_such_variable_anywhere", PAPI_ENOEVNT);
    /* (a name not looked up before: the component says each reason once) */
    expect_lookup_error(
        es, spc ? "mpit:::runtime_spc_OMPI_SPC_NO_SUCH_COUNTER" : "mpit:::runtime_spc_OMPI_SPC_RECV",
        PAPI_ENOEVNT);
    expect_lookup_error(es, "mpit:::event.no_such_event_anywhere", PAPI_ENOEVNT);
    {
        int code, rc;
        check_capture_begin();
        rc = PAPI_event_name_to_code("mpit:::UNEXPECTED_MSGS", &code);
        const char *err = check_capture_end(0);
        if (rc != PAPI_OK) {
            CHECK(rc == PAPI_ENOEVNT,
                  "unavailable portable metric: lookup returned %d, expected PAPI_ENOEVNT", rc);
            CHECK(strstr(err, "UNEXPECTED_MSGS") && strstr(err, "needs"),
                  "the reason for an unavailable metric does not say what would provide it: '%s'", err);
        } else {
            note("a portable metric it cannot provide (this MPI provides UNEXPECTED_MSGS)");
        }
    }
    static const char *const malformed[] = {
        "mpit:::x:elem",          "mpit:::x:elem=",   "mpit:::x:foo=1",     "mpit:::x:elem=-1",
        "mpit:::x:elem=abc",      "mpit:::x:elem=1x", "mpit:::x:comm=moon", "mpit:::x:class=bogus",
        "mpit:::x:elem=1:elem=2", "mpit:::x:=1",      "mpit:::x::elem=1",   "mpit:::x:comm=self:comm=world",
    };
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
        expect_lookup_error(es, malformed[i], PAPI_EINVAL);

    /* ---- errors that need a variable of a given kind */
    static const char *const unbound_vars[] = {"mpit:::mpool_hugepage_bytes_allocated",
                                               "mpit:::unexpected_recvq_length", NULL};
    static const char *const bound_vars[] = {"mpit:::pml_ob1_unexpected_msgq_length", NULL};
    const char *unbound = first_present(unbound_vars), *bound = first_present(bound_vars);

    if (unbound) {
        /* qualifiers that parse but do not fit the variable */
        snprintf(name, sizeof name, "%s:elem", unbound);
        expect_lookup_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:frobnicate=2", unbound);
        expect_lookup_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:comm=self", unbound);
        expect_lookup_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:sum=size", unbound);
        expect_lookup_error(es, name, PAPI_EINVAL);
        /* a scalar has exactly element 0 */
        snprintf(name, sizeof name, "%s:elem=1", unbound);
        expect_add_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:elem=0", unbound);
        CHECK_PAPI(PAPI_add_named_event(es, name));
        CHECK_PAPI(PAPI_cleanup_eventset(es));
    } else {
        note("an unbound numeric variable (:comm=self and :elem on a scalar)");
    }

    if (bound) {
        /* one element per peer of MPI_COMM_WORLD: :elem=size is past the end */
        snprintf(name, sizeof name, "%s:elem=%d", bound, size);
        expect_add_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:elem=%d", bound, size + 1000);
        expect_add_error(es, name, PAPI_EINVAL);
        snprintf(name, sizeof name, "%s:class=counter", bound);
        expect_lookup_error(es, name, PAPI_ENOEVNT);
        /* what is allowed on it works */
        long long v[3] = {-1, -1, -1};
        snprintf(name, sizeof name, "%s:elem=%d", bound, size - 1);
        CHECK_PAPI(PAPI_add_named_event(es, name));
        snprintf(name, sizeof name, "%s:comm=self", bound);
        CHECK_PAPI(PAPI_add_named_event(es, name));
        CHECK_PAPI(PAPI_add_named_event(es, bound));
        CHECK_PAPI(PAPI_start(es));
        CHECK_PAPI(PAPI_stop(es, v));
        CHECK(v[0] == 0 && v[1] == 0 && v[2] == 0, "idle queue lengths %lld %lld %lld, expected 0", v[0],
              v[1], v[2]);
        CHECK_PAPI(PAPI_cleanup_eventset(es));
    } else {
        note("a communicator-bound array variable (:elem out of range)");
    }
    if (check_has_event("mpit:::unexpected_recvq_length")) {
        expect_lookup_error(es, "mpit:::unexpected_recvq_length:class=timer", PAPI_ENOEVNT);
        expect_add_error(es, "mpit:::unexpected_recvq_length:elem=2", PAPI_EINVAL);
    }

    if (spc) {
        /* SPCs exist but count only when attached: refused, not silent zeros.
         * Open MPI 5.0 attaches a counter when its handle starts, but a level
         * only counts right from MPI_Init; and it does not maintain the
         * watermark (t_spc_defects). */
        char version[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(version, &len);
        if (strncmp(version, "Open MPI v4.", strlen("Open MPI v4.")) == 0) /* 5.0 on attach per handle */
            expect_add_error(es, "mpit:::runtime_spc_OMPI_SPC_SEND", PAPI_ECMP);
        expect_add_error(es, "mpit:::runtime_spc_OMPI_SPC_UNEXPECTED_IN_QUEUE", PAPI_ECMP);
        expect_add_error(es, "mpit:::runtime_spc_OMPI_SPC_MAX_UNEXPECTED_IN_QUEUE", PAPI_ECMP);
        expect_lookup_error(es, "mpit:::runtime_spc_OMPI_SPC_SEND:comm=self", PAPI_EINVAL);
    }

    const char *win = listed_with_prefix("mpit:::osc_rdma_");
    if (win) {
        int code;
        PAPI_event_info_t info;
        CHECK_PAPI(PAPI_event_name_to_code(win, &code));
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(strstr(info.long_descr, "cannot be added") != NULL,
              "%s: description does not say it cannot be added: %s", win, info.long_descr);
        expect_add_error(es, win, PAPI_ENOSUPP);
    } else {
        note("a window-bound variable (osc_rdma_*)");
    }

    /* ---- PAPI_MPIT_QUIET=1 silences the reasons, not the error codes */
    {
        int code, rc;
        setenv("PAPI_MPIT_QUIET", "1", 1);
        check_capture_begin();
        rc = PAPI_event_name_to_code("mpit:::quiet_no_such_variable", &code);
        const char *err = check_capture_end(0);
        CHECK(rc == PAPI_ENOEVNT, "quiet lookup returned %d", rc);
        CHECK(strstr(err, "papi-mpit") == NULL, "PAPI_MPIT_QUIET=1 but stderr got '%s'", err);
        unsetenv("PAPI_MPIT_QUIET");
    }

    /* ---- after all that, the set still measures */
    if (unbound) {
        long long v = -1;
        CHECK_PAPI(PAPI_add_named_event(es, unbound));
        CHECK_PAPI(PAPI_start(es));
        CHECK_PAPI(PAPI_read(es, &v));
        CHECK(v >= 0, "%s read %lld", unbound, v);
        CHECK_PAPI(PAPI_stop(es, &v));
    }
    CHECK_PAPI(PAPI_cleanup_eventset(es));
    CHECK_PAPI(PAPI_destroy_eventset(&es));
    int rc = check_finish("errors");
    MPI_Finalize();
    return rc;
}
