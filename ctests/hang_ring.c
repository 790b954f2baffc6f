/*
 * A ring deadlock, for the merge of many ranks' snapshots
 * (t_report_merge_scale.sh, bench/report_merge_scale.sh): each rank first sends
 * 5 messages of 8 B to its right neighbour and receives its left
 * neighbour's 5 (tag 2: every message sent is received), then receives
 * from its left neighbour before sending to its right one: no receive of
 * the second round is ever matched, a cycle of every rank.  Rank 0 waits
 * at a site and tag of its own (tag 4), the others at another (tag 3).
 * The lines the tests assert are marked "site:NAME".
 */
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank, size, buf = 0, msg[2] = {0, 0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    for (int i = 0; i < 5; i++) {
        MPI_Request req;
        MPI_Isend(msg, 2, MPI_INT, right, 2, MPI_COMM_WORLD, &req);            /* site:isend */
        MPI_Recv(msg, 2, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv2 */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    if (rank == 0)
        MPI_Recv(&buf, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:ring0 */
    else
        MPI_Recv(&buf, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:ring */
    MPI_Send(&buf, 1, MPI_INT, right, 3, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
