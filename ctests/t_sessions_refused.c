/* A program of MPI_Session_init without MPI_Init (issue 35, case 3): an mpit
 * name added under the session is refused, with the very reason it gets
 * after MPI_Init, when the running MPICH can never give it (its build has
 * no MPI_T events, no recvq variables, and no Open MPI monitoring at all);
 * a name that counts after MPI_Init is accepted under the session too, and
 * its set starts and reads.  The same names are added again once MPI_Init
 * has run (the world model beside the session) and compared.
 * flavors: mpich mpich-events
 * ranks: 1 2 */
#include "check.h"
#include "papi_mpit.h"

static const char *const names[] = {"mpit:::COLL_BYTES_SENT", "mpit:::UNEXPECTED_MSGS",
                                    "mpit:::POSTED_QUEUE_LENGTH"};
#define NUM ((int)(sizeof names / sizeof names[0]))

/* PAPI_add_named_event in a new set; the reason in why when refused. */
static int add(const char *name, int *es, char *why, size_t len)
{
    *es = PAPI_NULL;
    why[0] = '\0';
    CHECK_PAPI(PAPI_create_eventset(es));
    int rc = PAPI_add_named_event(*es, name);
    if (rc != PAPI_OK) papi_mpit_why(name, why, len);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Session session;
    static char why_s[NUM][1024], why_w[NUM][1024];
    int es_s[NUM], es_w[NUM], rc_s[NUM], rc_w[NUM], rank;
    if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL: MPI_Session_init\n");
        return 1;
    }
    check_papi_init();
    papi_mpit_quiet(1);
    for (int i = 0; i < NUM; i++) {
        rc_s[i] = add(names[i], &es_s[i], why_s[i], sizeof why_s[i]);
        if (rc_s[i] != PAPI_OK) continue;
        long long v = -1;
        CHECK_PAPI(PAPI_start(es_s[i]));
        CHECK_PAPI(PAPI_read(es_s[i], &v));
        CHECK_PAPI(PAPI_stop(es_s[i], &v));
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    check_rank = rank;
    int stock = strcmp(getenv("KIND") ? getenv("KIND") : "", "mpich") == 0;
    for (int i = 0; i < NUM; i++) {
        rc_w[i] = add(names[i], &es_w[i], why_w[i], sizeof why_w[i]);
        /* what the flavor gives: Debian's MPICH none of them, and no MPICH the Open MPI monitoring */
        int want = !stock && i != 0;
        CHECK((rc_w[i] == PAPI_OK) == want, "%s after MPI_Init: %d (%s), expected %s", names[i], rc_w[i],
              why_w[i], want ? "PAPI_OK" : "a refusal");
        CHECK(rc_s[i] == rc_w[i], "%s under the session: %d (%s); after MPI_Init: %d (%s)", names[i], rc_s[i],
              why_s[i], rc_w[i], why_w[i]);
        CHECK(strcmp(why_s[i], why_w[i]) == 0,
              "%s: the reason under the session \"%s\", after MPI_Init \"%s\"", names[i], why_s[i], why_w[i]);
        CHECK(rc_w[i] == PAPI_OK || strstr(why_w[i], "is not available on the running MPICH"),
              "%s: the reason %s", names[i], why_w[i]);
    }
    MPI_Finalize();
    MPI_Session_finalize(&session);
    return check_finish("t_sessions_refused");
}
