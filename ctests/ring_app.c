/* Helper program of the tool tests (t_tau.sh): a plain MPI program, no PAPI
 * call, whose unexpected messages are known exactly.
 *
 *   ring_app [-m MESSAGES] [-b BYTES]
 *
 * Every rank sends MESSAGES messages of BYTES bytes to its right neighbour,
 * then a one-int "go" message, and posts no receive before MPI_Probe has seen
 * the go from its left neighbour: messages of one sender on one communicator
 * arrive in order, so all MESSAGES + 1 are unexpected on every rank, whatever
 * the timing.  A rank sends only after its right neighbour said "ready":
 * an MPI receives messages while it finishes MPI_Init, before its counters
 * run (Open MPI's SPCs start after MPI_Init's last fence; MPICH's events
 * reach the component only from its first call after MPI_Init), so a message
 * sent to a rank that may still be in MPI_Init is counted or not by timing.
 * The ready itself is such a message; its receive is posted before any call
 * that makes progress, so it is never counted as unexpected: either it came
 * during MPI_Init, or it finds its receive posted.  No collectives (their
 * internal messages are unexpected or not by timing).  Each rank prints
 * "ring_app rank R done" to stdout.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

enum { TAG_READY = 20, TAG_DATA = 21, TAG_GO = 22 };

int main(int argc, char **argv)
{
    int messages = 10, bytes = 64, opt;
    while ((opt = getopt(argc, argv, "m:b:")) != -1) {
        switch (opt) {
        case 'm': messages = atoi(optarg); break;
        case 'b': bytes = atoi(optarg); break;
        default: fprintf(stderr, "usage: ring_app [-m MESSAGES] [-b BYTES]\n"); return 2;
        }
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    size_t n = (size_t)messages * (size_t)bytes + 1;
    char *sbuf = malloc(n), *rbuf = malloc(n);
    MPI_Request *req = malloc(((size_t)messages + 1) * sizeof *req);
    /* statuses, not MPI_STATUSES_IGNORE: gcc flags MPICH's (MPI_Status *)1 */
    MPI_Status *st = malloc(((size_t)messages + 2) * sizeof *st);
    if (!sbuf || !rbuf || !req || !st) MPI_Abort(MPI_COMM_WORLD, 1);
    for (size_t i = 0; i < n; i++) sbuf[i] = (char)(rank + (int)i);

    int ready = 1, peer_ready = 0;
    MPI_Request ready_req[2];
    MPI_Irecv(&peer_ready, 1, MPI_INT, right, TAG_READY, MPI_COMM_WORLD, &ready_req[0]);
    MPI_Isend(&ready, 1, MPI_INT, left, TAG_READY, MPI_COMM_WORLD, &ready_req[1]);
    MPI_Waitall(2, ready_req, st);

    for (int i = 0; i < messages; i++)
        MPI_Isend(sbuf + (size_t)i * bytes, bytes, MPI_CHAR, right, TAG_DATA, MPI_COMM_WORLD, &req[i]);
    int go = 1, got = 0;
    MPI_Isend(&go, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, &req[messages]);
    /* the go is behind every data message of the left neighbour */
    MPI_Probe(left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&got, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < messages; i++)
        MPI_Recv(rbuf + (size_t)i * bytes, bytes, MPI_CHAR, left, TAG_DATA, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Waitall(messages + 1, req, st);

    long sum = 0;
    for (size_t i = 0; i + 1 < n; i++) sum += (unsigned char)rbuf[i];
    printf("ring_app rank %d done: %d messages of %d bytes from rank %d, go %d, checksum %ld\n", rank,
           messages, bytes, left, got && peer_ready, sum);
    fflush(stdout);
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
    MPI_Finalize();
    return 0;
}
