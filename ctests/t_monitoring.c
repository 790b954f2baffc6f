/* Open MPI's monitoring as portable metrics, exactly.  Every rank sends a
 * known number of messages and bytes to every peer (common/peers.h) and one
 * broadcast; BYTES_SENT and MSGS_SENT (user point-to-point), each
 * :peer=N form, and COLL_BYTES_SENT / COLL_MSGS_SENT read exactly that.
 * Here the events are named before MPI_Init, so the component turns
 * monitoring on itself (pml_monitoring_enable=2); t_monitoring_mca.c sets the
 * parameter as a user would and adds them after MPI_Init.  Where the MPI
 * cannot give a metric, adding it fails with the reason (Open MPI 4.1 hides
 * the pml variables after MPI_Init, so there they are refused even before
 * it; MPICH has no such variables).  A peer
 * out of range is an error, not a crash.
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#include <stdint.h>

#include "check.h"
#include "papi_mpit.h"
#include "peers.h"

#define BCAST_INTS 100

#ifndef MONITORING_BY_MCA
#define MONITORING_BY_MCA 0
#endif

enum { BYTES, MSGS, COLL_BYTES, COLL_MSGS, NUM_METRICS };
static const char *const metrics[NUM_METRICS] = {"mpit:::BYTES_SENT", "mpit:::MSGS_SENT",
                                                 "mpit:::COLL_BYTES_SENT", "mpit:::COLL_MSGS_SENT"};

static int open_mpi_at_least_5(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(v, &len);
    return strncmp(v, "Open MPI v", 10) == 0 && atoi(v + 10) >= 5;
}

/* sets of one metric each (PAPI_NULL where absent), and each :peer=p */
static int whole[NUM_METRICS], per_peer[NUM_METRICS][64];

static void add_all(int size)
{
    char name[128];
    for (int m = 0; m < NUM_METRICS; m++) {
        whole[m] = check_one_event_set(metrics[m]);
        for (int p = 0; p < size; p++) {
            snprintf(name, sizeof name, "%s:peer=%d", metrics[m], p);
            per_peer[m][p] = check_one_event_set(name);
        }
    }
}

/* PAPI runs one set per component at a time: one set after the other,
 * each around its own repetition of the traffic */
static long long measure(int es, int rank, int size, int with_bcast)
{
    char *buf;
    int n;
    long long v = -1;
    MPI_Request *req = peers_post(rank, size, &buf, &n);
    int ints[BCAST_INTS] = {0};
    MPI_Barrier(MPI_COMM_WORLD);
    if (es != PAPI_NULL) CHECK_PAPI(PAPI_start(es));
    peers_send(rank, size, req, n);
    if (with_bcast) MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    if (es != PAPI_NULL) CHECK_PAPI(PAPI_stop(es, &v));
    free(req);
    free(buf);
    return v;
}

static long long expected(int m, int rank, int p, int size)
{
    long long bcast = rank == 0 && p != 0 ? 1 : 0;
    switch (m) {
    case BYTES: return peers_expected_bytes(rank, p);
    case MSGS: return peers_expected_msgs(rank, p, size);
    case COLL_BYTES: return bcast * BCAST_INTS * (long long)sizeof(int);
    default: return bcast;
    }
}

int main(int argc, char **argv)
{
    int rank, size;
    if (MONITORING_BY_MCA) {
        /* as a user would: --mca pml_monitoring_enable 2 --mca pml ob1,monitoring */
        setenv("OMPI_MCA_pml_monitoring_enable", "2", 1);
        if (getenv("OMPI_MCA_pml") && strcmp(getenv("OMPI_MCA_pml"), "ob1") == 0)
            setenv("OMPI_MCA_pml", "ob1,monitoring", 1);
    } else {
        unsetenv("OMPI_MCA_pml_monitoring_enable");
    }
    unsetenv("OMPI_MCA_mpi_spc_attach");
    check_papi_init();
    if (!MONITORING_BY_MCA) {
        /* named before MPI_Init: the component turns monitoring on.  Open
         * MPI 4.1's own version says its pml variables cannot count: refused
         * at once (BYTES_SENT counts from an SPC where there is one) */
        int es = PAPI_NULL, early_v5 = open_mpi_at_least_5();
        int early_spc = strcmp(getenv("KIND") ? getenv("KIND") : "", "openmpi-spc") == 0;
        CHECK_PAPI(PAPI_create_eventset(&es));
        for (int m = 0; m < NUM_METRICS; m++) {
            int rc = PAPI_add_named_event(es, metrics[m]);
            int can = early_v5 || m == COLL_BYTES || m == COLL_MSGS || (m == BYTES && early_spc);
            CHECK((rc == PAPI_OK) == can, "%s named before MPI_Init: %d, expected %s", metrics[m], rc,
                  can ? "PAPI_OK" : "a refusal");
        }
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    if (size > 64) check_skip("at most 64 ranks");
    if (!MONITORING_BY_MCA)
        CHECK(getenv("OMPI_MCA_pml_monitoring_enable") &&
                  strcmp(getenv("OMPI_MCA_pml_monitoring_enable"), "2") == 0,
              "the component did not turn monitoring on before MPI_Init");
    add_all(size);
    int v5 = open_mpi_at_least_5();
    /* what each flavor must give: the pml metrics need Open MPI 5; BYTES_SENT
     * also comes from an attached SPC (named before MPI_Init) */
    int spc = strcmp(getenv("KIND") ? getenv("KIND") : "", "openmpi-spc") == 0;
    int want[NUM_METRICS] = {v5 || (spc && !MONITORING_BY_MCA), v5, 1, 1};
    for (int m = 0; m < NUM_METRICS; m++) {
        CHECK((whole[m] != PAPI_NULL) == want[m], "%s %s, expected %s", metrics[m],
              whole[m] != PAPI_NULL ? "available" : "absent", want[m] ? "available" : "absent");
        int peer_want = m == BYTES ? v5 : want[m];
        CHECK((per_peer[m][0] != PAPI_NULL) == peer_want, "%s:peer=0 %s", metrics[m],
              per_peer[m][0] != PAPI_NULL ? "available" : "absent");
    }
    /* the reason names what would provide it */
    if (!v5) {
        char why[1024] = "";
        CHECK(papi_mpit_why("mpit:::MSGS_SENT", why, sizeof why) && strstr(why, "ompi#9260"),
              "MSGS_SENT on Open MPI 4.1: the reason given: %s", why);
    }
    /* a peer out of range */
    if (per_peer[MSGS][0] != PAPI_NULL) {
        char name[64];
        snprintf(name, sizeof name, "mpit:::MSGS_SENT:peer=%d", size);
        int es = PAPI_NULL;
        CHECK_PAPI(PAPI_create_eventset(&es));
        check_capture_begin();
        int rc = PAPI_add_named_event(es, name);
        const char *said = check_capture_end(1);
        CHECK(rc != PAPI_OK && strstr(said, "out of range"), "%s: %d, said: %s", name, rc, said);
        PAPI_destroy_eventset(&es);
    }
    /* An SPC files the bytes of a send that does not go out inline under the
     * tag its request had before, often a user's (Open MPI 4.1: a 400-byte
     * MPI_Bcast adds 400 to BYTES_SENT_USER): where BYTES_SENT comes from the
     * SPC, it is measured without the broadcast.  Monitoring is exact with it. */
    int spc_bytes = 0, code;
    PAPI_event_info_t info;
    if (whole[BYTES] != PAPI_NULL && PAPI_event_name_to_code(metrics[BYTES], &code) == PAPI_OK &&
        PAPI_get_event_info(code, &info) == PAPI_OK)
        spc_bytes = strstr(info.long_descr, "runtime_spc_") != NULL;
    /* the SPC wins where it counts: attached by the early add, or (5.0) by a started handle */
    CHECK(spc_bytes == (spc && (!MONITORING_BY_MCA || v5)), "BYTES_SENT %s the SPC: %s",
          spc_bytes ? "from" : "not from", info.long_descr);
    for (int m = 0; m < NUM_METRICS; m++) {
        int with_bcast = !(m == BYTES && spc_bytes);
        long long v = measure(whole[m], rank, size, with_bcast), sum = 0;
        for (int p = 0; p < size; p++) sum += expected(m, rank, p, size);
        if (whole[m] != PAPI_NULL) CHECK(v == sum, "%s %lld, expected %lld", metrics[m], v, sum);
        for (int p = 0; p < size; p++) {
            v = measure(per_peer[m][p], rank, size, 1);
            if (per_peer[m][p] != PAPI_NULL)
                CHECK(v == expected(m, rank, p, size), "%s:peer=%d %lld, expected %lld", metrics[m], p, v,
                      expected(m, rank, p, size));
        }
    }
    /* where both are there, the SPC (attached by the early add) and the
     * monitoring (the :peer= forms) agree on the same point-to-point traffic */
    if (v5 && spc && !MONITORING_BY_MCA && size <= 8) {
        int both = PAPI_NULL;
        long long vals[9] = {0}, sum = 0, peers = 0;
        char *buf, name[64];
        int n;
        CHECK_PAPI(PAPI_create_eventset(&both));
        CHECK_PAPI(PAPI_add_named_event(both, "mpit:::runtime_spc_OMPI_SPC_BYTES_SENT_USER"));
        for (int p = 0; p < size; p++) {
            snprintf(name, sizeof name, "%s:peer=%d", metrics[BYTES], p);
            CHECK_PAPI(PAPI_add_named_event(both, name));
        }
        MPI_Request *req = peers_post(rank, size, &buf, &n);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK_PAPI(PAPI_start(both));
        peers_send(rank, size, req, n);
        CHECK_PAPI(PAPI_stop(both, vals));
        for (int p = 0; p < size; p++) sum += expected(BYTES, rank, p, size), peers += vals[1 + p];
        CHECK(vals[0] == sum && peers == sum,
              "SPC BYTES_SENT_USER %lld, monitoring (sum of :peer=) %lld, sent %lld", vals[0], peers, sum);
        free(req);
        free(buf);
    }

    /* the whole vectors (papi_mpit.h), as the report tool reads them */
    {
        static const int kinds[NUM_METRICS] = {PAPI_MPIT_PEERS_BYTES, PAPI_MPIT_PEERS_MSGS,
                                               PAPI_MPIT_PEERS_COLL_BYTES, PAPI_MPIT_PEERS_COLL_MSGS};
        long long vals[64];
        char *buf;
        int n, ints[BCAST_INTS] = {0};
        MPI_Request *req = peers_post(rank, size, &buf, &n);
        MPI_Barrier(MPI_COMM_WORLD); /* a collective: before the start */
        CHECK_PAPI(papi_mpit_peers_start());
        peers_send(rank, size, req, n);
        MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
        for (int m = 0; m < NUM_METRICS; m++) {
            int avail = m == BYTES ? v5 : want[m];
            int count = papi_mpit_peers_count(kinds[m]);
            CHECK(avail ? count == size : count == PAPI_ENOEVNT, "%s by peer: count %d", metrics[m], count);
            if (!avail) continue;
            CHECK_PAPI(papi_mpit_peers_read(kinds[m], vals, size));
            for (int p = 0; p < size; p++)
                CHECK(vals[p] == expected(m, rank, p, size), "%s by peer: %lld to %d, expected %lld",
                      metrics[m], vals[p], p, expected(m, rank, p, size));
        }
        CHECK_PAPI(papi_mpit_peers_stop());
        free(req);
        free(buf);
    }
    int rc = check_finish(MONITORING_BY_MCA ? "monitoring_mca" : "monitoring");
    MPI_Finalize();
    return rc;
}
