/*
 * A program with known call sites for papi-mpit-report's site table
 * (t_report_sites.sh, report_sites_check.py).  Each MPI call that the check
 * names carries a marker comment "site:NAME" at the end of its statement
 * (the call's line is where the statement starts); the check reads
 * the line numbers from this file and the counts it expects from the
 * comments below.  4 ranks (or more: the extra ranks take part in the
 * collectives and the ring only).
 *
 * - blocking: rank 0 sends rank 1 seven 100-byte messages (send_a), then a
 *   4-byte go (go_send); rank 1 receives the go (go_recv), then the seven
 *   from MPI_ANY_SOURCE (recv_a), which were all waiting in its unexpected
 *   queue (where the MPI tells, by MPI_T events: 7 found waiting)
 * - nonblocking, completed elsewhere: rank 1 sends rank 0 three messages of
 *   1000 doubles (isend_b, completed by waitall_b); rank 0 posts three
 *   receives (irecv_b) and completes each at wait_b.  The messages are
 *   charged to isend_b and irecv_b; waitall_b and wait_b get calls and time
 * - persistent: rank 2 sends rank 3 five 64-byte messages with one request
 *   (psend_c, started at start_c, completed at pwait_c); rank 3 receives
 *   with recv_init (precv_c, start at start_d, wait at pwait_d).  Messages
 *   are charged to psend_c and precv_c
 * - sendrecv ring (ring): every rank sends 16 ints to the right, receives
 *   from the left
 * - a split communicator (sub_send / sub_recv): the even ranks; sub-rank 0
 *   (world 0) sends sub-rank 1 (world 2) 12 bytes: the matrix says 0 -> 2
 * - collectives: MPI_Bcast of 10 ints from root 1 (bcast), MPI_Allreduce of
 *   3 doubles (allreduce), MPI_Reduce of 2 ints to root 0 (reduce)
 * - threads (with MPI_THREAD_MULTIPLE): rank 0's two threads each send rank
 *   1 nine 8-byte messages from one line (thread_send), rank 1's two
 *   threads receive them (thread_recv); without the level, or with the
 *   argument --no-threads (an MPI whose threads lose messages: the test
 *   says which), no thread part and "threads: no" on stdout
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define THREAD_MSGS 9

static int rank;

static void *thread_main(void *arg)
{
    int t = *(int *)arg;
    long long v = t;
    for (int i = 0; i < THREAD_MSGS; i++) {
        if (rank == 0)
            MPI_Send(&v, 1, MPI_LONG_LONG, 1, 100 + t, MPI_COMM_WORLD); /* site:thread_send */
        else
            MPI_Recv(&v, 1, MPI_LONG_LONG, 0, 100 + t, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE); /* site:thread_recv */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int size, provided;
    char a[100] = {0};
    double b[3][1000];
    char c[64] = {0};
    MPI_Request r[3];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    int threads = provided == MPI_THREAD_MULTIPLE && !(argc > 1 && strcmp(argv[1], "--no-threads") == 0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 4) {
        if (rank == 0) fprintf(stderr, "report_sites_app: needs 4 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* blocking; the seven arrive before their receives are posted (the go
     * message comes after them: MPI does not let it overtake them) */
    int go = 1;
    if (rank == 0) {
        for (int i = 0; i < 7; i++) MPI_Send(a, 100, MPI_CHAR, 1, 1, MPI_COMM_WORLD); /* site:send_a */
        MPI_Send(&go, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);                              /* site:go_send */
    }
    if (rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:go_recv */
        for (int i = 0; i < 7; i++)
            MPI_Recv(a, 100, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE); /* site:recv_a */
    }

    /* nonblocking, completed at another site */
    if (rank == 1) {
        for (int i = 0; i < 3; i++)
            MPI_Isend(b[i], 1000, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, &r[i]); /* site:isend_b */
        MPI_Waitall(3, r, MPI_STATUSES_IGNORE);                             /* site:waitall_b */
    }
    if (rank == 0) {
        for (int i = 0; i < 3; i++)
            MPI_Irecv(b[i], 1000, MPI_DOUBLE, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &r[i]); /* site:irecv_b */
        for (int i = 0; i < 3; i++) MPI_Wait(&r[i], MPI_STATUS_IGNORE);                  /* site:wait_b */
    }

    /* persistent */
    MPI_Request p;
    if (rank == 2) {
        MPI_Send_init(c, 64, MPI_BYTE, 3, 3, MPI_COMM_WORLD, &p); /* site:psend_c */
        for (int i = 0; i < 5; i++) {
            MPI_Start(&p);                   /* site:start_c */
            MPI_Wait(&p, MPI_STATUS_IGNORE); /* site:pwait_c */
        }
        MPI_Request_free(&p);
    }
    if (rank == 3) {
        MPI_Recv_init(c, 64, MPI_BYTE, 2, 3, MPI_COMM_WORLD, &p); /* site:precv_c */
        for (int i = 0; i < 5; i++) {
            MPI_Start(&p);                   /* site:start_d */
            MPI_Wait(&p, MPI_STATUS_IGNORE); /* site:pwait_d */
        }
        MPI_Request_free(&p);
    }

    /* ring */
    int out[16] = {0}, in[16];
    MPI_Sendrecv(out, 16, MPI_INT, (rank + 1) % size, 4, in, 16, MPI_INT, (rank + size - 1) % size, 4,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:ring */

    /* a communicator of the even ranks */
    MPI_Comm even;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &even);
    if (rank == 0) MPI_Send(a, 12, MPI_BYTE, 1, 5, even);                    /* site:sub_send */
    if (rank == 2) MPI_Recv(a, 12, MPI_BYTE, 0, 5, even, MPI_STATUS_IGNORE); /* site:sub_recv */
    MPI_Comm_free(&even);

    /* collectives */
    int ten[10] = {0}, two[2] = {1, 2}, sum2[2];
    double three[3] = {1, 2, 3}, sum3[3];
    MPI_Bcast(ten, 10, MPI_INT, 1, MPI_COMM_WORLD);                     /* site:bcast */
    MPI_Allreduce(three, sum3, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* site:allreduce */
    MPI_Reduce(two, sum2, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);      /* site:reduce */

    /* threads */
    if (threads) {
        if (rank <= 1) {
            pthread_t th[2];
            int id[2] = {0, 1};
            for (int t = 0; t < 2; t++) pthread_create(&th[t], NULL, thread_main, &id[t]);
            for (int t = 0; t < 2; t++) pthread_join(th[t], NULL);
        }
        if (rank == 0) printf("threads: yes\n");
    } else if (rank == 0) {
        printf("threads: no\n");
    }
    MPI_Finalize();
    return 0;
}
