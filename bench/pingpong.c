/* Overhead benchmark: 8-byte ping-pong between ranks 0 and 1, optionally with
 * a PAPI event set running and read on every iteration (as TAU does on every
 * region entry and exit).  Prints the best of several trials, in us per
 * round trip, and the cost of one PAPI_read.  A second workload, "burst",
 * makes every message unexpected (rank 0 sends 100 before rank 1 receives),
 * so that MPI raises its queue events and the callbacks run: us per message.
 *   mpirun -np 2 ./pingpong MODE [iterations] [pingpong|burst]
 * MODE: none (no PAPI at all), perf (perf::TASK-CLOCK), pvar (mpit pvars or
 * SPCs: UNEXPECTED_QUEUE_LENGTH or the first of a few names), events
 * (mpit event counters: callbacks inside MPI). */
#include <mpi.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIALS 5

static const char *const candidates[][4] = {
    [0] = {NULL},
    [1] = {"perf::TASK-CLOCK", NULL},
    [2] = {"mpit:::runtime_spc_OMPI_SPC_UNEXPECTED", "mpit:::runtime_spc_OMPI_SPC_SEND",
           "mpit:::UNEXPECTED_QUEUE_LENGTH", NULL},
    [3] = {"mpit:::UNEXPECTED_MSGS", "mpit:::UNEXPECTED_QUEUE_MAX", "mpit:::UNEXPECTED_QUEUE_TIME", NULL},
};

int main(int argc, char **argv)
{
    const char *modes[] = {"none", "perf", "pvar", "events"};
    int mode = -1, iters = argc > 2 ? atoi(argv[2]) : 20000, rank, es = PAPI_NULL, nev = 0;
    for (int m = 0; m < 4; m++)
        if (argc > 1 && strcmp(argv[1], modes[m]) == 0) mode = m;
    if (mode < 0) {
        fprintf(stderr, "usage: pingpong none|perf|pvar|events [iterations]\n");
        return 2;
    }
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (mode > 0) {
        if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) MPI_Abort(MPI_COMM_WORLD, 1);
        PAPI_create_eventset(&es);
        for (int i = 0; candidates[mode][i]; i++)
            if (PAPI_add_named_event(es, candidates[mode][i]) == PAPI_OK) nev++;
        if (nev == 0) {
            if (rank == 0) printf("%-6s  no event of this mode exists on this MPI\n", modes[mode]);
            MPI_Finalize();
            return 0;
        }
        PAPI_start(es);
    }
    long long values[8];
    char buf[8] = {0};
    int burst = argc > 3 && strcmp(argv[3], "burst") == 0, per = burst ? 100 : 1;
    if (burst) iters /= 100;
    double best = 1e30;
    for (int t = 0; t < TRIALS; t++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (mode > 0) PAPI_read(es, values);
            if (burst) {
                /* all 100 arrive before rank 1 posts a receive: unexpected */
                if (rank == 0) {
                    for (int m = 0; m < 100; m++) MPI_Send(buf, 8, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
                    MPI_Send(buf, 8, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
                    MPI_Recv(buf, 8, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                } else if (rank == 1) {
                    MPI_Recv(buf, 8, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    for (int m = 0; m < 100; m++)
                        MPI_Recv(buf, 8, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(buf, 8, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
                }
            } else if (rank == 0) {
                MPI_Send(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, 8, MPI_CHAR, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, 8, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
            }
            if (mode > 0) PAPI_read(es, values);
        }
        double us = (MPI_Wtime() - t0) * 1e6 / ((double)iters * per);
        if (us < best) best = us;
    }
    double read_ns = 0;
    if (mode > 0) {
        int n = 200000;
        double t0 = MPI_Wtime();
        for (int i = 0; i < n; i++) PAPI_read(es, values);
        read_ns = (MPI_Wtime() - t0) * 1e9 / n;
    }
    if (rank == 0)
        printf("%-6s  events %d  %s %.3f us  PAPI_read %.0f ns\n", modes[mode], nev,
               burst ? "per unexpected message" : "round trip", best, read_ns);
    if (mode > 0) {
        PAPI_stop(es, values);
        PAPI_shutdown();
    }
    MPI_Finalize();
    return 0;
}
