/*
 * The figures mpiP users look for, at known lines (t_report_mpip.sh,
 * report_mpip_check.py): each MPI call the check names carries a marker
 * comment "site:NAME" at the end of its statement.  Every rank:
 *
 * - makes and frees communicators: 3 MPI_Comm_split (split), 2
 *   MPI_Comm_dup (dup), and frees all 5 at one line (comm_free);
 * - makes and frees datatypes: 1 MPI_Type_contiguous (contiguous), 1
 *   MPI_Type_vector (vector), 2 MPI_Type_commit (commit) and 2
 *   MPI_Type_free (type_free).
 *
 * Then the longest call by construction: rank 0 enters one MPI_Sendrecv
 * (long_sendrecv) that sends rank 1 a go and receives its answer; rank 1
 * receives the go (go_recv), which it can only do after rank 0 is inside
 * that call, computes for a while (at least COMPUTE_NS, measured with
 * CLOCK_MONOTONIC), then sends the answer (answer_send).  So rank 0's
 * MPI_Sendrecv lasts at least rank 1's measured compute time, which rank 1
 * prints as "compute_ns: N".  No sleep: the compute is a loop of
 * arithmetic that reads the clock.
 */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define COMPUTE_NS 50000000LL /* 50 ms */

static long long now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* arithmetic until at least COMPUTE_NS have passed; the time it took */
static long long compute(double *x)
{
    long long t0 = now_ns(), t;
    do {
        for (int i = 0; i < 100000; i++) *x = *x * 1.0000001 + 1e-9;
        t = now_ns();
    } while (t - t0 < COMPUTE_NS);
    return t - t0;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm comms[5];
    MPI_Datatype types[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    for (int i = 0; i < 3; i++)
        MPI_Comm_split(MPI_COMM_WORLD, (rank + i) % 2, rank, &comms[i]); /* site:split */
    for (int i = 0; i < 2; i++) MPI_Comm_dup(comms[i], &comms[3 + i]);   /* site:dup */
    MPI_Type_contiguous(4, MPI_INT, &types[0]);                          /* site:contiguous */
    MPI_Type_vector(3, 2, 4, MPI_DOUBLE, &types[1]);                     /* site:vector */
    for (int i = 0; i < 2; i++) MPI_Type_commit(&types[i]);              /* site:commit */
    for (int i = 0; i < 2; i++) MPI_Type_free(&types[i]);                /* site:type_free */
    for (int i = 0; i < 5; i++) MPI_Comm_free(&comms[i]);                /* site:comm_free */

    int go = 1, answer = 0;
    double x = 1;
    if (rank == 0) {
        MPI_Sendrecv(&go, 1, MPI_INT, 1, 7, &answer, 1, MPI_INT, 1, 8, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE); /* site:long_sendrecv */
    } else if (rank == 1) {
        MPI_Recv(&go, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:go_recv */
        long long took = compute(&x);
        answer = x > 0;
        MPI_Send(&answer, 1, MPI_INT, 0, 8, MPI_COMM_WORLD); /* site:answer_send */
        printf("compute_ns: %lld\n", took);
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
