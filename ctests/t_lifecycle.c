/* PAPI before MPI_Init and after MPI_Finalize, as TAU and HPCToolkit use it.
 *  - PAPI_library_init and PAPI_add_named_event of names that MPI_T knows only
 *    after MPI_Init (Open MPI: the SPC runtime_spc_OMPI_SPC_SEND, which the
 *    component must also attach, since this test leaves mpi_spc_attach unset,
 *    and the communicator-bound pml_ob1_unexpected_msgq_length; MPICH:
 *    unexpected_recvq_length and unexpected_recvq_match_attempts) succeed
 *    before MPI_Init;
 *  - MPI_Init_thread(MPI_THREAD_MULTIPLE) after that still provides MULTIPLE;
 *  - set A, started before MPI_Init, counts exactly after it: the queue length
 *    is U1 while U1 messages wait; the SEND counter counts every MPI_Send since
 *    PAPI_start, those made before the first read after MPI_Init included;
 *  - set B, added before MPI_Init and started after it, counts exactly too;
 *  - a name MPI_Init did not bring: set A reads it as 0 and says why on stderr
 *    (its other events still count); set B's PAPI_start fails, PAPI_ENOEVNT;
 *  - after MPI_Finalize, PAPI_read and PAPI_stop of the running set return the
 *    last values; set A started again counts nothing and reads 0 (MPI is
 *    gone: a tool's thread born then must be able to start its set, as
 *    Score-P's does), and says so once on stderr; PAPI_shutdown does not crash.
 * What exists is decided independently of the component, by MPI_T itself.
 * ranks: 2 4 */

#include "check.h"

#define TAG_GO   31
#define TAG_MARK 32
#define TAG_Q    33

enum { U1 = 7, U2 = 5 };

static int openmpi;
static const char *qname, *cname; /* queue length, counter */

/* Whether MPI_T has a valid variable of that name (the truth, asked directly). */
static int mpit_has(const char *name)
{
    int provided, num = 0, found = 0;
    MPI_T_init_thread(MPI_THREAD_MULTIPLE, &provided);
    MPI_T_pvar_get_num(&num);
    for (int i = 0; i < num && !found; i++) {
        char n[256], desc[1024];
        int nl = sizeof n, dl = sizeof desc, verb, cls, bind, ro, cont, at;
        MPI_Datatype dt;
        MPI_T_enum et;
        if (MPI_T_pvar_get_info(i, n, &nl, &verb, &cls, &dt, &et, desc, &dl, &bind, &ro, &cont, &at) ==
            MPI_SUCCESS)
            found = strcmp(n, name) == 0;
    }
    return found;
}

static int make_set(void)
{
    int es = PAPI_NULL;
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, qname));
    CHECK_PAPI(PAPI_add_named_event(es, cname));
    return es;
}

/* One round: rank 1 posts the marker's receive and tells rank 0 to go; rank 0
 * sends n messages and the marker; once the marker is in, all n wait in rank
 * 1's unexpected queue.  read_full runs then, read_empty after rank 1 has
 * received them in order. */
static void round_trip(int n, int es, long long *full, long long *empty)
{
    int go = 1, m, x;
    MPI_Request mark;
    if (check_rank == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++) MPI_Send(&i, 1, MPI_INT, 1, TAG_Q, MPI_COMM_WORLD);
        MPI_Send(&go, 1, MPI_INT, 1, TAG_MARK, MPI_COMM_WORLD);
        CHECK_PAPI(PAPI_read(es, full));
        CHECK_PAPI(PAPI_read(es, empty));
    } else if (check_rank == 1) {
        MPI_Irecv(&m, 1, MPI_INT, 0, TAG_MARK, MPI_COMM_WORLD, &mark);
        MPI_Send(&go, 1, MPI_INT, 0, TAG_GO, MPI_COMM_WORLD);
        MPI_Wait(&mark, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_read(es, full));
        for (int i = 0; i < n; i++) MPI_Recv(&x, 1, MPI_INT, 0, TAG_Q, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK_PAPI(PAPI_read(es, empty));
    } else {
        CHECK_PAPI(PAPI_read(es, full));
        CHECK_PAPI(PAPI_read(es, empty));
    }
}

/* Exact values of one round for this rank.  c_base: the counter before the
 * round. */
static void expect_round(const char *set, int n, int have_q, int have_c, const long long *full,
                         const long long *empty, long long c_base)
{
    if (check_rank == 1 || !have_q) {
        long long q_full = have_q ? n : 0;
        CHECK(full[0] == q_full, "set %s: %s %lld with the messages waiting, expected %lld", set, qname,
              full[0], q_full);
        CHECK(empty[0] == 0, "set %s: %s %lld after receiving, expected 0", set, qname, empty[0]);
    } else {
        /* not in the exchange; a message of an earlier collective may still
         * wait here (MPICH's barrier leaves one behind on some ranks) */
        CHECK(full[0] == empty[0], "set %s: %s moved from %lld to %lld on a rank outside the exchange", set,
              qname, full[0], empty[0]);
    }
    if (!have_c) {
        CHECK(full[1] == 0 && empty[1] == 0, "set %s: %s does not exist but read %lld, %lld", set, cname,
              full[1], empty[1]);
    } else if (openmpi) {
        /* MPI_Send calls: rank 0 sends n and the marker, rank 1 the go */
        long long sends = check_rank == 0 ? n + 1 : check_rank == 1 ? 1 : 0;
        CHECK(full[1] == c_base + sends, "set %s: %s %lld after the round's sends, expected %lld", set, cname,
              full[1], c_base + sends);
        CHECK(empty[1] == full[1], "set %s: %s went from %lld to %lld with no send", set, cname, full[1],
              empty[1]);
    } else {
        /* unexpected-queue searches: rank 1's in-order receives look once each */
        long long looks = check_rank == 1 ? n : 0;
        CHECK(empty[1] - full[1] == looks, "set %s: %s grew by %lld over %d in-order receives, expected %lld",
              set, cname, empty[1] - full[1], n, looks);
    }
}

int main(int argc, char **argv)
{
    int provided = -1, level = -1, size, rc;
    long long full[2] = {-1, -1}, empty[2] = {-1, -1}, last[2], after[2];
    /* the component has to attach the SPC itself (it does, for a name added before MPI_Init) */
    unsetenv("OMPI_MCA_mpi_spc_attach");

    /* ---- before MPI_Init */
    check_papi_init();
    openmpi = check_is_openmpi(); /* MPI_Get_library_version works before MPI_Init */
    qname = openmpi ? "mpit:::pml_ob1_unexpected_msgq_length" : "mpit:::unexpected_recvq_length";
    cname = openmpi ? "mpit:::runtime_spc_OMPI_SPC_SEND" : "mpit:::unexpected_recvq_match_attempts";
    int a = make_set(), b = make_set();
    CHECK_PAPI(PAPI_start(a));

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_Init_thread after PAPI init provided %d, asked %d", provided,
          MPI_THREAD_MULTIPLE);
    MPI_Query_thread(&level);
    CHECK(level == MPI_THREAD_MULTIPLE, "MPI_Query_thread says %d, asked %d", level, MPI_THREAD_MULTIPLE);
    int have_q = mpit_has(qname + 7), have_c = mpit_has(cname + 7);
    if (check_rank == 0)
        printf("%s: %s; %s: %s\n", qname, have_q ? "exists" : "absent", cname, have_c ? "exists" : "absent");
    MPI_Barrier(MPI_COMM_WORLD); /* the last collective until rank 1 releases everyone */

    /* ---- set A, started before MPI_Init: its first read binds it */
    check_capture_begin();
    round_trip(U1, a, full, empty);
    const char *err = check_capture_end(1);
    expect_round("A (started before MPI_Init)", U1, have_q, have_c, full, empty, 0);
    if (!have_q) CHECK(strstr(err, qname + 7), "no reason on stderr for the absent %s: '%s'", qname, err);
    if (!have_c) CHECK(strstr(err, cname + 7), "no reason on stderr for the absent %s: '%s'", cname, err);
    CHECK_PAPI(PAPI_stop(a, full));

    /* ---- set B, added before MPI_Init, started after it */
    rc = PAPI_start(b);
    if (have_q && have_c) {
        CHECK(rc == PAPI_OK, "PAPI_start of set B after MPI_Init: %d (%s)", rc, PAPI_strerror(rc));
        CHECK_PAPI(PAPI_read(b, full));
        CHECK(full[1] == 0, "set B right after start: %s %lld, expected 0", cname, full[1]);
        if (check_rank == 1)
            CHECK(full[0] == 0, "set B right after start: %s %lld, expected 0", qname, full[0]);
        round_trip(U2, b, full, empty);
        expect_round("B (started after MPI_Init)", U2, have_q, have_c, full, empty, 0);
    } else {
        CHECK(rc == PAPI_ENOEVNT,
              "PAPI_start of a set with a name MPI_Init did not bring: %d (%s), expected %d", rc,
              PAPI_strerror(rc), PAPI_ENOEVNT);
        CHECK_PAPI(PAPI_cleanup_eventset(b)); /* keep a running set for what follows */
        if (have_q) CHECK_PAPI(PAPI_add_named_event(b, qname));
        if (have_c) CHECK_PAPI(PAPI_add_named_event(b, cname));
        if (have_q || have_c) CHECK_PAPI(PAPI_start(b));
    }

    check_release(1);
    MPI_Query_thread(&level);
    CHECK(level == MPI_THREAD_MULTIPLE, "thread level %d after PAPI use, expected %d", level,
          MPI_THREAD_MULTIPLE);

    /* ---- MPI_Finalize with set B running */
    int nb = PAPI_num_events(b);
    CHECK(nb == have_q + have_c, "set B holds %d events, expected %d", nb, have_q + have_c);
    last[0] = last[1] = -2;
    if (nb > 0) CHECK_PAPI(PAPI_read(b, last));
    MPI_Finalize();
    if (nb > 0) {
        after[0] = after[1] = -2;
        CHECK_PAPI(PAPI_read(b, after));
        CHECK(after[0] == last[0] && after[1] == last[1],
              "read after MPI_Finalize: %lld %lld, last values %lld %lld", after[0], after[1], last[0],
              last[1]);
        after[0] = after[1] = -2;
        CHECK_PAPI(PAPI_stop(b, after));
        CHECK(after[0] == last[0] && after[1] == last[1],
              "stop after MPI_Finalize: %lld %lld, last values %lld %lld", after[0], after[1], last[0],
              last[1]);
    }
    int na = PAPI_num_events(a);
    check_capture_begin();
    rc = PAPI_start(a);
    const char *said = check_capture_end(1);
    CHECK(rc == PAPI_OK, "PAPI_start after MPI_Finalize returned %d", rc);
    CHECK(strstr(said, "after MPI_Finalize") != NULL,
          "nothing said of a set started after MPI_Finalize: '%s'", said);
    if (rc == PAPI_OK) {
        full[0] = full[1] = -1;
        CHECK_PAPI(PAPI_read(a, full));
        for (int i = 0; i < na && i < 2; i++)
            CHECK(full[i] == 0, "after MPI_Finalize, event %d of set A read %lld", i, full[i]);
        CHECK_PAPI(PAPI_stop(a, full));
        for (int i = 0; i < na && i < 2; i++)
            CHECK(full[i] == 0, "after MPI_Finalize, event %d of set A stopped at %lld", i, full[i]);
    }
    CHECK_PAPI(PAPI_cleanup_eventset(a));
    CHECK_PAPI(PAPI_destroy_eventset(&a));
    CHECK_PAPI(PAPI_cleanup_eventset(b));
    CHECK_PAPI(PAPI_destroy_eventset(&b));
    PAPI_shutdown();
    return check_finish("lifecycle");
}
