/* Helper program of t_hosts.sh: a plain PAPI program (no tool around it)
 * that counts mpit:::UNEXPECTED_MSGS, BYTES_SENT and BYTES_RECEIVED in an
 * event set of its own over traffic whose counts are known exactly.
 *
 *   hosts_papi_app [-s SMALL] [-l LARGE]
 *
 * Started right after MPI_Init, the set counts a ring: every rank sends SMALL
 * messages of 100 bytes (eager) and LARGE of 100000 bytes (rendezvous over
 * TCP) to its right neighbour, then a one-int "go", and posts no data
 * receive before MPI_Probe has seen the go of its left neighbour.  Messages
 * of one sender on one communicator are matched in order, so all SMALL +
 * LARGE + 1 arrive unexpected on every rank.  Before sending, a rank waits
 * for a one-int "ready" from its right neighbour (which has then started
 * counting); the ready's receive is posted before any call that makes
 * progress, so it is never unexpected (as in ring_app.c).  Per rank:
 *   UNEXPECTED_MSGS = SMALL + LARGE + 1
 *   BYTES_SENT = BYTES_RECEIVED = 100 SMALL + 100000 LARGE + 4 (go) + 4 (ready)
 * No collective runs inside the counted region, so BYTES_SENT_MPI counts only
 * user sends that Open MPI 4.1.4 files under "MPI" (see t_hosts.sh).  Each
 * rank prints
 *   hosts_papi_app rank R host H UNEXPECTED_MSGS=u BYTES_SENT=s BYTES_RECEIVED=r BYTES_SENT_MPI=m go=1
 * to stdout; exit 1 if a PAPI call fails (the reason on stderr).
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { TAG_READY = 30, TAG_SMALL = 31, TAG_LARGE = 32, TAG_GO = 33 };
enum { SMALL_BYTES = 100, LARGE_BYTES = 100000 };

static const char *events[] = {"mpit:::UNEXPECTED_MSGS", "mpit:::BYTES_SENT", "mpit:::BYTES_RECEIVED",
                               "mpit:::BYTES_SENT_MPI"};
#define NEV ((int)(sizeof events / sizeof events[0]))

static void die(int rank, const char *what, int rc)
{
    fprintf(stderr, "hosts_papi_app rank %d: %s: %s\n", rank, what, PAPI_strerror(rc));
    MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv)
{
    int small = 20, large = 3, opt;
    while ((opt = getopt(argc, argv, "s:l:")) != -1) {
        switch (opt) {
        case 's': small = atoi(optarg); break;
        case 'l': large = atoi(optarg); break;
        default: fprintf(stderr, "usage: hosts_papi_app [-s SMALL] [-l LARGE]\n"); return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size, rc, es = PAPI_NULL;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;

    /* no MPI progress between MPI_Init and the ready's receive below */
    if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) die(rank, "PAPI_library_init", rc);
    if ((rc = PAPI_create_eventset(&es)) != PAPI_OK) die(rank, "PAPI_create_eventset", rc);
    for (int i = 0; i < NEV; i++)
        if ((rc = PAPI_add_named_event(es, events[i])) != PAPI_OK) die(rank, events[i], rc);
    if ((rc = PAPI_start(es)) != PAPI_OK) die(rank, "PAPI_start", rc);

    int n = small + large;
    char *sbuf = calloc(LARGE_BYTES, 1), *rbuf = malloc(LARGE_BYTES);
    MPI_Request *req = malloc(((size_t)n + 1) * sizeof *req);
    MPI_Status *st = malloc(((size_t)n + 1) * sizeof *st); /* not IGNORE: gcc warns on MPICH's */
    if (!sbuf || !rbuf || !req || !st) MPI_Abort(MPI_COMM_WORLD, 1);

    int ready = 1, peer_ready = 0, go = 1, got = 0;
    MPI_Request ready_req[2];
    MPI_Irecv(&peer_ready, 1, MPI_INT, right, TAG_READY, MPI_COMM_WORLD, &ready_req[0]);
    MPI_Isend(&ready, 1, MPI_INT, left, TAG_READY, MPI_COMM_WORLD, &ready_req[1]);
    MPI_Waitall(2, ready_req, st);

    for (int i = 0; i < small; i++)
        MPI_Isend(sbuf, SMALL_BYTES, MPI_CHAR, right, TAG_SMALL, MPI_COMM_WORLD, &req[i]);
    for (int i = small; i < n; i++)
        MPI_Isend(sbuf, LARGE_BYTES, MPI_CHAR, right, TAG_LARGE, MPI_COMM_WORLD, &req[i]);
    MPI_Isend(&go, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, &req[n]);
    MPI_Probe(left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < small; i++)
        MPI_Recv(rbuf, SMALL_BYTES, MPI_CHAR, left, TAG_SMALL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < large; i++)
        MPI_Recv(rbuf, LARGE_BYTES, MPI_CHAR, left, TAG_LARGE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(n + 1, req, st);

    long long v[NEV];
    if ((rc = PAPI_stop(es, v)) != PAPI_OK) die(rank, "PAPI_stop", rc);
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    printf("hosts_papi_app rank %d host %s UNEXPECTED_MSGS=%lld BYTES_SENT=%lld BYTES_RECEIVED=%lld "
           "BYTES_SENT_MPI=%lld "
           "go=%d\n",
           rank, host, v[0], v[1], v[2], v[3], got && peer_ready);
    fflush(stdout);
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
