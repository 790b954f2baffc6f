/* A program of MPI sessions only (MPI_Session_init, the group of
 * "mpi://WORLD", MPI_Comm_create_from_group; never MPI_Init) that tells the
 * component its session runs (papi_mpit_after_session_init right after
 * MPI_Session_init, papi_mpit_before_session_finalize right before
 * MPI_Session_finalize, as a tool wrapping MPI_Session_init would): mpit
 * events added under the session count as after MPI_Init, or are refused
 * with the reason (issue 35, case 3).  Rank 0 sends N messages and then a
 * "go" to rank 1, whose receive for the go was posted before anything was
 * sent and whose receives for the N are posted only once the go has come:
 * rank 1 counts UNEXPECTED_MSGS = N, every other rank 0.  Twice: with a set
 * started before the session (its name pending then, caught up by the
 * hook; only one set of a component runs at a time), then with one added
 * under the session.  Rank 1's posted queue holds the K receives it posts
 * and nobody matches yet, the other ranks' none.  On stock MPICH (no MPI_T events, no variables)
 * each name is refused with the reason it gets after MPI_Init.
 * flavors: mpich mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

#define N       16 /* unexpected messages */
#define K       5  /* receives left posted */
#define TAG_MSG 1
#define TAG_GO  2
#define TAG_RDY 3
#define TAG_K   4
#define TAG_END 5

static int add(const char *name, int *es, char *why, size_t len)
{
    *es = PAPI_NULL;
    why[0] = '\0';
    CHECK_PAPI(PAPI_create_eventset(es));
    int rc = PAPI_add_named_event(*es, name);
    if (rc != PAPI_OK) papi_mpit_why(name, why, len);
    return rc;
}

/* Rank 0 sends N messages and then a go to rank 1, which posted its
 * receive for the go before anything was sent (its ready says so) and posts
 * those for the N once the go has come: the N arrive unexpected, nothing
 * else does.  Returns what set es (running) counted in between, read once
 * this rank's receives for the ready and the go are posted.  The other
 * ranks wait for rank 1's end of round: nothing they send later (the
 * collectives that follow) reaches rank 1 while it counts. */
static long long round_of_messages(MPI_Comm comm, int rank, int es)
{
    MPI_Request go, rdy;
    long long before = -1, after = -1;
    if (rank == 1) MPI_Irecv(NULL, 0, MPI_INT, 0, TAG_GO, comm, &go);
    if (rank == 0) MPI_Irecv(NULL, 0, MPI_INT, 1, TAG_RDY, comm, &rdy);
    CHECK_PAPI(PAPI_read(es, &before));
    if (rank == 0) {
        MPI_Wait(&rdy, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_MSG, comm);
        MPI_Send(NULL, 0, MPI_INT, 1, TAG_GO, comm);
    } else if (rank == 1) {
        MPI_Send(NULL, 0, MPI_INT, 0, TAG_RDY, comm);
        MPI_Wait(&go, MPI_STATUS_IGNORE); /* the N came before it */
        for (int i = 0, x; i < N; i++) MPI_Recv(&x, 1, MPI_INT, 0, TAG_MSG, comm, MPI_STATUS_IGNORE);
    }
    CHECK_PAPI(PAPI_read(es, &after));
    int size;
    MPI_Comm_size(comm, &size);
    if (rank == 1)
        for (int r = 0; r < size; r++)
            if (r != 1) MPI_Send(NULL, 0, MPI_INT, r, TAG_END, comm);
    if (rank != 1) MPI_Recv(NULL, 0, MPI_INT, 1, TAG_END, comm, MPI_STATUS_IGNORE);
    return after - before;
}

int main(void)
{
    MPI_Session session;
    MPI_Group group;
    MPI_Comm comm;
    char why[1024], why_early[1024], why_posted[1024];
    int rank, es, es_early, es_posted;
    long long v = -1, early = -1, posted = -1;
    int events = strcmp(getenv("KIND") ? getenv("KIND") : "", "mpich-events") == 0;

    check_papi_init();
    papi_mpit_quiet(1);
    /* before the session: the name waits, its set starts and waits too */
    int rc_early = add("mpit:::UNEXPECTED_MSGS", &es_early, why_early, sizeof why_early);
    if (rc_early == PAPI_OK) CHECK_PAPI(PAPI_start(es_early));

    if (MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &session) != MPI_SUCCESS) {
        fprintf(stderr, "FAIL: MPI_Session_init\n");
        return 1;
    }
    int rc = papi_mpit_after_session_init();
    CHECK(rc == PAPI_OK, "papi_mpit_after_session_init: %d", rc);
    rc = papi_mpit_after_init();
    CHECK(rc == PAPI_ENOINIT, "papi_mpit_after_init under a session, without MPI_Init: %d", rc);
    MPI_Group_from_session_pset(session, "mpi://WORLD", &group);
    MPI_Comm_create_from_group(group, "org.papi-mpit.t_sessions_count", MPI_INFO_NULL, MPI_ERRORS_RETURN,
                               &comm);
    MPI_Comm_rank(comm, &rank);
    check_rank = rank;

    /* under the session */
    int rc_add = add("mpit:::UNEXPECTED_MSGS", &es, why, sizeof why);
    int rc_posted = add("mpit:::POSTED_QUEUE_LENGTH", &es_posted, why_posted, sizeof why_posted);
    CHECK((rc_add == PAPI_OK) == events, "UNEXPECTED_MSGS under the session: %d (%s), expected %s", rc_add,
          why, events ? "PAPI_OK" : "a refusal");
    CHECK((rc_posted == PAPI_OK) == events, "POSTED_QUEUE_LENGTH under the session: %d (%s), expected %s",
          rc_posted, why_posted, events ? "PAPI_OK" : "a refusal");
    CHECK(rc_early == rc_add, "UNEXPECTED_MSGS before the session: %d (%s); under it: %d", rc_early,
          why_early, rc_add);
    if (!events) {
        CHECK(strstr(why, "UNEXPECTED_MSGS is not available on the running MPICH") != NULL, "the reason: %s",
              why);
        CHECK(strstr(why_posted, "POSTED_QUEUE_LENGTH is not available on the running MPICH") != NULL,
              "the reason: %s", why_posted);
        CHECK(strcmp(why, why_early) == 0, "the reason before the session \"%s\", under it \"%s\"", why_early,
              why);
    }

    if (rc_early == PAPI_OK) {
        /* caught up by the hook: counts from the session's start */
        long long d = round_of_messages(comm, rank, es_early);
        CHECK(d == (rank == 1 ? N : 0),
              "UNEXPECTED_MSGS started before the session counted %lld, expected %d", d, rank == 1 ? N : 0);
        CHECK_PAPI(PAPI_stop(es_early, &early));
    }
    if (rc_add == PAPI_OK) {
        CHECK_PAPI(PAPI_start(es));
        long long d = round_of_messages(comm, rank, es);
        CHECK_PAPI(PAPI_stop(es, &v));
        CHECK(d == (rank == 1 ? N : 0), "UNEXPECTED_MSGS added under the session counted %lld, expected %d",
              d, rank == 1 ? N : 0);
        CHECK(v == d, "UNEXPECTED_MSGS at stop %lld, the round %lld (nothing else unexpected)", v, d);
    }
    /* rank 1 posts K receives, reads its posted queue, and only then lets
     * rank 0 send what they wait for */
    MPI_Request k[K];
    MPI_Status st[K];
    if (rank == 1)
        for (int i = 0; i < K; i++) MPI_Irecv(NULL, 0, MPI_INT, 0, TAG_K, comm, &k[i]);
    if (rc_posted == PAPI_OK) {
        CHECK_PAPI(PAPI_start(es_posted));
        CHECK_PAPI(PAPI_read(es_posted, &posted));
        CHECK(posted == (rank == 1 ? K : 0), "POSTED_QUEUE_LENGTH read %lld, expected %d", posted,
              rank == 1 ? K : 0);
        CHECK_PAPI(PAPI_stop(es_posted, &posted));
    }
    if (rank == 1) {
        MPI_Send(NULL, 0, MPI_INT, 0, TAG_RDY, comm);
        MPI_Waitall(K, k, st);
    }
    if (rank == 0) {
        MPI_Recv(NULL, 0, MPI_INT, 1, TAG_RDY, comm, MPI_STATUS_IGNORE);
        for (int i = 0; i < K; i++) MPI_Send(NULL, 0, MPI_INT, 1, TAG_K, comm);
    }

    /* check_finish would ask MPI_COMM_WORLD, which a session does not have */
    int mine = check_failures > 0, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
    MPI_Comm_free(&comm);
    MPI_Group_free(&group);
    rc = papi_mpit_before_session_finalize();
    CHECK(rc == PAPI_OK, "papi_mpit_before_session_finalize: %d", rc);
    MPI_Session_finalize(&session);
    rc = papi_mpit_before_session_finalize();
    CHECK(rc == PAPI_ENOINIT, "papi_mpit_before_session_finalize with no session left: %d", rc);
    if (rank == 0 && !any && !check_failures) printf("PASS t_sessions_count\n");
    return check_failures ? 1 : 0;
}
