/* Names get the answer they deserve, before and after MPI_Init:
 *  - a misspelt portable metric (UNEXPECTED_MSG) fails at once with
 *    PAPI_ENOEVNT and a "did you mean UNEXPECTED_MSGS?" line, even before
 *    MPI_Init (the metric table is fixed);
 *  - a derived counter no rule can produce fails at once too;
 *  - an unknown lower-case name before MPI_Init is pending (MPI_Init may
 *    still register it) and described as unknown so far; after MPI_Init the
 *    same name fails with PAPI_ENOEVNT;
 *  - after MPI_Init, a variable name with one letter missing fails and the
 *    message names the real variable.
 * ranks: 2 */
#include "check.h"

/* Looks name up with stderr captured; returns the PAPI code. */
static int lookup(const char *name, const char **said)
{
    int code;
    check_capture_begin();
    int rc = PAPI_event_name_to_code(name, &code);
    *said = check_capture_end(1);
    return rc;
}

static void expect_refused(const char *name, const char *hint)
{
    const char *said;
    int rc = lookup(name, &said);
    CHECK(rc == PAPI_ENOEVNT, "%s: %d, expected PAPI_ENOEVNT", name, rc);
    if (hint) CHECK(strstr(said, hint) != NULL, "%s: the message does not say '%s': %s", name, hint, said);
}

int main(int argc, char **argv)
{
    const char *said;
    int code;
    check_papi_init();
    expect_refused("mpit:::UNEXPECTED_MSG", "did you mean UNEXPECTED_MSGS?");
    expect_refused("mpit:::NO_SUCH_METRIC", "no portable metric named NO_SUCH_METRIC");
    expect_refused("mpit:::derived.no_such_rule.count", "no_such_rule");

    int rc = lookup("mpit:::no_such_variable_yet", &said);
    CHECK(rc == PAPI_OK, "an unknown variable name before MPI_Init: %d, expected pending (PAPI_OK)", rc);
    PAPI_event_info_t info;
    if (rc == PAPI_OK && PAPI_event_name_to_code("mpit:::no_such_variable_yet", &code) == PAPI_OK) {
        CHECK_PAPI(PAPI_get_event_info(code, &info));
        CHECK(strstr(info.long_descr, "Unknown so far") != NULL, "pending description: %s", info.long_descr);
    }

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    /* "no MPI_T variable named ...", or that the MPI has none at all */
    expect_refused("mpit:::no_such_variable_yet", "no_such_variable_yet: the running");
    expect_refused("mpit:::UNEXPECTED_MSG", NULL); /* the same message is said once per process */

    /* a listed variable with its last letter dropped */
    int cidx = PAPI_get_component_index("mpit"), e = 0 | PAPI_NATIVE_MASK;
    char real[PAPI_MAX_STR_LEN] = "", typo[PAPI_MAX_STR_LEN + 8], hint[PAPI_MAX_STR_LEN + 32];
    if (PAPI_enum_cmp_event(&e, PAPI_ENUM_FIRST, cidx) == PAPI_OK) {
        do {
            char n[PAPI_MAX_STR_LEN];
            /* a variable: lower-case, no event./derived. prefix */
            if (PAPI_event_code_to_name(e, n) == PAPI_OK && strncmp(n, "mpit:::", 7) == 0 && n[7] >= 'a' &&
                n[7] <= 'z' && strncmp(n + 7, "event.", 6) && strncmp(n + 7, "derived.", 8) &&
                !strchr(n + 7, ':') && strlen(n) > 12) {
                snprintf(real, sizeof real, "%s", n);
                break;
            }
        } while (PAPI_enum_cmp_event(&e, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    }
    if (real[0]) {
        snprintf(typo, sizeof typo, "%.*s", (int)strlen(real) - 1, real);
        snprintf(hint, sizeof hint, "did you mean %s?", real + 7);
        expect_refused(typo, hint);
    } else if (check_rank == 0) {
        printf("no MPI_T variable listed: the misspelt-variable case is not checked on this MPI\n");
    }
    int rc2 = check_finish("t_names");
    MPI_Finalize();
    return rc2;
}
