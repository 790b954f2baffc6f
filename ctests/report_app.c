/* Helper program of the papi-mpit-report tests (t_report*.sh): MPI traffic
 * with known volumes, a known stdout and a chosen exit status.
 *
 *   report_app [-m MESSAGES] [-b BYTES] [-x EXIT] [-t] [-c COMMS]
 *
 * Every rank sends MESSAGES messages of BYTES bytes to its right neighbour in
 * a ring (so summed over ranks, user bytes sent = bytes received =
 * ranks * MESSAGES * BYTES), all before the neighbour posts its receives, so
 * that they arrive unexpected.  -t initialises with MPI_Init_thread; -c
 * duplicates and frees COMMS communicators after the ring.  Rank 0
 * prints one line to stdout (with the thread level MPI_Query_thread gives:
 * the tool starts MPI_T before MPI_Init on Open MPI, which must not change
 * it); every rank exits with EXIT after MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TAG 11

int main(int argc, char **argv)
{
    int messages = 10, bytes = 64, code = 0, thread = 0, comms = 0, opt;
    while ((opt = getopt(argc, argv, "m:b:x:tc:")) != -1) {
        switch (opt) {
        case 'm': messages = atoi(optarg); break;
        case 'b': bytes = atoi(optarg); break;
        case 'x': code = atoi(optarg); break;
        case 't': thread = 1; break;
        case 'c': comms = atoi(optarg); break;
        default: fprintf(stderr, "usage: report_app [-m N] [-b BYTES] [-x EXIT] [-t] [-c COMMS]\n"); return 2;
        }
    }
    if (thread) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int rank, size, level = -1;
    MPI_Query_thread(&level);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    char *sbuf = calloc((size_t)messages, (size_t)bytes + 1),
         *rbuf = calloc((size_t)messages, (size_t)bytes + 1);
    MPI_Request *req = calloc((size_t)messages + 1, sizeof *req);
    MPI_Status *st = calloc((size_t)messages + 1, sizeof *st);
    for (int i = 0; i < messages * bytes; i++) sbuf[i] = (char)(rank + i);

    /* sends first; the receives only after the neighbour said it sent all */
    for (int i = 0; i < messages; i++)
        MPI_Isend(sbuf + (size_t)i * bytes, bytes, MPI_CHAR, right, TAG, MPI_COMM_WORLD, &req[i]);
    int token = 1, got;
    /* nonblocking: with one rank, the neighbour is this rank */
    MPI_Isend(&token, 1, MPI_INT, right, TAG + 1, MPI_COMM_WORLD, &req[messages]);
    MPI_Recv(&got, 1, MPI_INT, left, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < messages; i++)
        MPI_Recv(rbuf + (size_t)i * bytes, bytes, MPI_CHAR, left, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(messages + 1, req, st);

    for (int i = 0; i < comms; i++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_WORLD, &c);
        MPI_Comm_free(&c);
    }

    long local = 0, total = 0;
    for (int i = 0; i < messages * bytes; i++) local += (unsigned char)rbuf[i];
    MPI_Reduce(&local, &total, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* by name: the standard ABI's constants are not 0 to 3 */
        const char *lv = level == MPI_THREAD_SINGLE       ? "SINGLE"
                         : level == MPI_THREAD_FUNNELED   ? "FUNNELED"
                         : level == MPI_THREAD_SERIALIZED ? "SERIALIZED"
                         : level == MPI_THREAD_MULTIPLE   ? "MULTIPLE"
                                                          : "unknown";
        printf("report_app: %d ranks, %d messages of %d bytes each, checksum %ld, thread level %s\n", size,
               messages, bytes, total, lv);
        fflush(stdout);
    }
    free(sbuf);
    free(rbuf);
    free(req);
    free(st);
    MPI_Finalize();
    return code;
}
