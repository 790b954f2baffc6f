/* Helper program of t_hosts.sh: a plain PAPI program (no tool around it)
 * that counts mpit:::UNEXPECTED_MSGS, BYTES_SENT and BYTES_RECEIVED in an
 * event set of its own over traffic whose counts are known exactly.
 *
 *   hosts_papi_app [-s SMALL] [-l LARGE]
 *
 * Started right after MPI_Init, the set counts the early ring
 * (common/ring.h): SMALL messages of 100 bytes (eager) and LARGE of 100000
 * bytes (rendezvous over TCP) to the right neighbour, then the go, all
 * unexpected on every rank; the ready is never unexpected.  Per rank:
 *   UNEXPECTED_MSGS = SMALL + LARGE + 1
 *   BYTES_SENT = BYTES_RECEIVED = 100 SMALL + 100000 LARGE + 4 (go) + 4 (ready)
 * No collective runs inside the counted region, so BYTES_SENT_MPI counts only
 * user sends that Open MPI 4.1.4 files under "MPI" (see t_hosts.sh).  Each
 * rank prints
 *   hosts_papi_app rank R host H UNEXPECTED_MSGS=u BYTES_SENT=s BYTES_RECEIVED=r BYTES_SENT_MPI=m
 *     BYTES_RECEIVED_MPI=n go=1   (on one line)
 * to stdout; exit 1 if a PAPI call fails (the reason on stderr).
 */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/ring.h"

enum { SMALL_BYTES = 100, LARGE_BYTES = 100000 };

static const char *events[] = {"mpit:::UNEXPECTED_MSGS", "mpit:::BYTES_SENT", "mpit:::BYTES_RECEIVED",
                               "mpit:::BYTES_SENT_MPI", "mpit:::BYTES_RECEIVED_MPI"};
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

    /* no MPI progress between MPI_Init and the ready's receive below */
    if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT) die(rank, "PAPI_library_init", rc);
    if ((rc = PAPI_create_eventset(&es)) != PAPI_OK) die(rank, "PAPI_create_eventset", rc);
    for (int i = 0; i < NEV; i++)
        if ((rc = PAPI_add_named_event(es, events[i])) != PAPI_OK) die(rank, events[i], rc);
    if ((rc = PAPI_start(es)) != PAPI_OK) die(rank, "PAPI_start", rc);

    char *sbuf = calloc((size_t)small * SMALL_BYTES + (size_t)large * LARGE_BYTES + 1, 1);
    char *rbuf = malloc((size_t)small * SMALL_BYTES + (size_t)large * LARGE_BYTES + 1);
    if (!sbuf || !rbuf) MPI_Abort(MPI_COMM_WORLD, 1);
    ring_burst_t bursts[2] = {{small, SMALL_BYTES}, {large, LARGE_BYTES}};
    int ok = ring_exchange(bursts, 2, sbuf, rbuf);

    long long v[NEV];
    if ((rc = PAPI_stop(es, v)) != PAPI_OK) die(rank, "PAPI_stop", rc);
    char host[256] = "?";
    gethostname(host, sizeof host - 1);
    printf("hosts_papi_app rank %d host %s UNEXPECTED_MSGS=%lld BYTES_SENT=%lld BYTES_RECEIVED=%lld "
           "BYTES_SENT_MPI=%lld BYTES_RECEIVED_MPI=%lld go=%d\n",
           rank, host, v[0], v[1], v[2], v[3], v[4], ok);
    fflush(stdout);
    free(sbuf);
    free(rbuf);
    MPI_Finalize();
    return 0;
}
