/*
 * The program of issue 41's collection measurement: 64 call sites a rank
 * (each an MPI_Sendrecv of 8 bytes with both ring neighbours, at its own
 * call instruction) and a dense row (one 8-byte message to every other
 * rank).  bench/report_collection.sh runs it under papi-mpit-report
 * (APP=sites); ctests/t_report_collect.sh asserts what it sent, exactly.
 *   collection_app [rounds]   (default 1: each site called rounds times)
 * Site k (0..63) is called rounds * (k % 4 + 1) times, so every site's
 * count is known.
 */
#include <mpi.h>

#include <stdlib.h>

static int rank, size, left, right;

#define SITE(k)                                                                                              \
    for (int i_ = 0; i_ < rounds * ((k) % 4 + 1); i_++) {                                                    \
        long long out_ = rank, in_ = -1;                                                                     \
        MPI_Sendrecv(&out_, 1, MPI_LONG_LONG, right, k, &in_, 1, MPI_LONG_LONG, left, k, MPI_COMM_WORLD,     \
                     MPI_STATUS_IGNORE);                                                                     \
        if (in_ != left) MPI_Abort(MPI_COMM_WORLD, 1);                                                       \
    }
#define SITE4(k)  SITE(k) SITE(k + 1) SITE(k + 2) SITE(k + 3)
#define SITE16(k) SITE4(k) SITE4(k + 4) SITE4(k + 8) SITE4(k + 12)

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 1;
    left = (rank + size - 1) % size, right = (rank + 1) % size;
    SITE16(0)
    SITE16(16)
    SITE16(32)
    SITE16(48)
    /* the dense row: 8 bytes to every other rank, receives posted first */
    long long *in = malloc(sizeof *in * (size_t)size), out = rank;
    MPI_Request *r = malloc(sizeof *r * 2 * (size_t)size);
    int n = 0;
    for (int p = 0; p < size; p++)
        if (p != rank) MPI_Irecv(&in[p], 1, MPI_LONG_LONG, p, 100, MPI_COMM_WORLD, &r[n++]);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int p = 0; p < size; p++)
        if (p != rank) MPI_Send(&out, 1, MPI_LONG_LONG, p, 100, MPI_COMM_WORLD);
    MPI_Status *st = malloc(sizeof *st * (size_t)size); /* not MPI_STATUSES_IGNORE: GCC 12 warns on MPICH's */
    MPI_Waitall(n, r, st);
    free(st);
    for (int p = 0; p < size; p++)
        if (p != rank && in[p] != p) MPI_Abort(MPI_COMM_WORLD, 2);
    free(in);
    free(r);
    MPI_Finalize();
    return 0;
}
