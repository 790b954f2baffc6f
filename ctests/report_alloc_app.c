/* ctests/t_report_alloc.sh: under MPI_THREAD_MULTIPLE, 2 ranks of 2
 * threads each; 200 communicators (MPI_Comm_dup), each thread on half of
 * them: per communicator 64 MPI_Irecv and 64 MPI_Isend to the other rank,
 * then one MPI_Waitall of the 128 requests.  A first round, then the
 * counter (report_alloc_count.c) is armed and the same threads make five
 * more; each rank prints "allocations N" (the tool's, after the first
 * round), or "SKIP ..." when it cannot count. */
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define NCOMMS 200
#define NREQS  64
static MPI_Comm comms[NCOMMS];
static int peer;
static pthread_barrier_t bar;

static void one_round(int t)
{
    int in[NREQS], out[NREQS];
    MPI_Request r[2 * NREQS];
    for (int c = t; c < NCOMMS; c += 2) {
        for (int i = 0; i < NREQS; i++) {
            out[i] = i;
            MPI_Irecv(&in[i], 1, MPI_INT, peer, i, comms[c], &r[i]);
            MPI_Isend(&out[i], 1, MPI_INT, peer, i, comms[c], &r[NREQS + i]);
        }
        MPI_Waitall(2 * NREQS, r, MPI_STATUSES_IGNORE);
    }
}

static void *thread(void *arg)
{
    one_round((int)(long)arg);
    pthread_barrier_wait(&bar); /* the first round done */
    pthread_barrier_wait(&bar); /* the counter armed */
    for (int k = 0; k < 5; k++) one_round((int)(long)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int (*arm)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "count_arm");
    long long (*count)(void) = (long long (*)(void))dlsym(RTLD_DEFAULT, "count_tool");
    if (provided != MPI_THREAD_MULTIPLE || !arm || !count) {
        printf("SKIP rank %d: %s\n", rank, !arm ? "no counter preloaded" : "no MPI_THREAD_MULTIPLE");
        MPI_Finalize();
        return 0;
    }
    peer = rank ^ 1;
    for (int c = 0; c < NCOMMS; c++) MPI_Comm_dup(MPI_COMM_WORLD, &comms[c]);
    pthread_barrier_init(&bar, NULL, 3);
    pthread_t th[2];
    for (long t = 0; t < 2; t++) pthread_create(&th[t], NULL, thread, (void *)t);
    pthread_barrier_wait(&bar);
    int armed = arm();
    pthread_barrier_wait(&bar);
    for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
    if (armed)
        printf("rank %d: allocations %lld\n", rank, count());
    else
        printf("SKIP rank %d: the tool's interposer is not loaded\n", rank);
    for (int c = 0; c < NCOMMS; c++) MPI_Comm_free(&comms[c]);
    MPI_Finalize();
    return 0;
}
