/* The calls papi-mpit-report wraps beyond report_sites_app.c's: the
 * nonblocking collectives MPI_Ialltoallw, MPI_Ireduce_scatter and
 * MPI_Ineighbor_*, MPI 4.0's persistent collectives (each started and
 * waited for once), MPI_Isendrecv, MPI_Isendrecv_replace and
 * MPI_Comm_disconnect.  Each call the check names carries a marker
 * comment (site: and its name) at the end of its statement; every rank makes each
 * call once.  The neighbor calls run on a periodic ring (MPI_Cart_create).
 * report_mpi4_check.py says what the report must count. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 64

static MPI_Request req;

/* a persistent collective: started and completed once, then freed */
static void run_once(void)
{
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Request_free(&req);
}

static void done(void) { MPI_Wait(&req, MPI_STATUS_IGNORE); }

int main(int argc, char **argv)
{
    int rank, np;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    if (np > MAXP) MPI_Abort(MPI_COMM_WORLD, 2);

    static int si[8 * MAXP], ri[8 * MAXP];
    static double sd[8 * MAXP], rd[8 * MAXP];
    int ones[MAXP], twos[MAXP], threes[MAXP], displs[MAXP], displs2[MAXP];
    MPI_Datatype ints[MAXP];
    for (int i = 0; i < MAXP; i++) {
        ones[i] = 1, twos[i] = 2, threes[i] = 3, displs[i] = i, displs2[i] = 2 * i;
        ints[i] = MPI_INT;
    }
    for (int i = 0; i < 8 * MAXP; i++) si[i] = i, sd[i] = i;
    int wdispls[MAXP], wdispls2[MAXP];
    for (int i = 0; i < MAXP; i++) wdispls[i] = i * (int)sizeof(int), wdispls2[i] = 2 * i * (int)sizeof(int);

    /* the ring: two neighbors each */
    MPI_Comm ring;
    int dims[1] = {np}, periods[1] = {1};
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    int nb2[2] = {2, 2}, nbd[2] = {0, 2}, nb1[2] = {1, 1}, nbd1[2] = {0, 1};
    MPI_Aint nbad[2] = {0, sizeof(int)};
    MPI_Datatype nbt[2] = {MPI_INT, MPI_INT};

    /* each call on one line with its marker, however long: the marker's
     * line is the call's (clang-format would move the marker below it) */
    /* clang-format off */
    /* nonblocking collectives */
    MPI_Ialltoallw(si, twos, wdispls2, ints, ri, twos, wdispls2, ints, MPI_COMM_WORLD, &req); /* site:ialltoallw */
    done();
    MPI_Ireduce_scatter(sd, rd, threes, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req); /* site:ireduce_scatter */
    done();
    MPI_Ineighbor_allgather(si, 5, MPI_INT, ri, 5, MPI_INT, ring, &req); /* site:ineighbor_allgather */
    done();
    MPI_Ineighbor_allgatherv(si, 4, MPI_INT, ri, (int[]){4, 4}, (int[]){0, 4}, MPI_INT, ring, &req); /* site:ineighbor_allgatherv */
    done();
    MPI_Ineighbor_alltoall(si, 3, MPI_INT, ri, 3, MPI_INT, ring, &req); /* site:ineighbor_alltoall */
    done();
    MPI_Ineighbor_alltoallv(si, nb2, nbd, MPI_INT, ri, nb2, nbd, MPI_INT, ring, &req); /* site:ineighbor_alltoallv */
    done();
    MPI_Ineighbor_alltoallw(si, nb1, nbad, nbt, ri, nb1, nbad, nbt, ring, &req); /* site:ineighbor_alltoallw */
    done();

    /* persistent collectives (MPI 4.0) */
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:barrier_init */
    run_once();
    MPI_Bcast_init(si, 6, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:bcast_init */
    run_once();
    MPI_Reduce_init(sd, rd, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:reduce_init */
    run_once();
    MPI_Allreduce_init(sd, rd, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:allreduce_init */
    run_once();
    MPI_Gather_init(sd, 2, MPI_DOUBLE, rd, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:gather_init */
    run_once();
    MPI_Gatherv_init(si, 1, MPI_INT, ri, ones, displs, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:gatherv_init */
    run_once();
    MPI_Scatter_init(si, 2, MPI_INT, ri, 2, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:scatter_init */
    run_once();
    MPI_Scatterv_init(si, ones, displs, MPI_INT, ri, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:scatterv_init */
    run_once();
    MPI_Allgather_init(si, 2, MPI_INT, ri, 2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:allgather_init */
    run_once();
    MPI_Allgatherv_init(si, 3, MPI_INT, ri, threes, displs2, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:allgatherv_init */
    run_once();
    MPI_Alltoall_init(sd, 1, MPI_DOUBLE, rd, 1, MPI_DOUBLE, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:alltoall_init */
    run_once();
    MPI_Alltoallv_init(si, ones, displs, MPI_INT, ri, ones, displs, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:alltoallv_init */
    run_once();
    MPI_Alltoallw_init(si, ones, wdispls, ints, ri, ones, wdispls, ints, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:alltoallw_init */
    run_once();
    MPI_Reduce_scatter_init(si, ri, twos, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:reduce_scatter_init */
    run_once();
    MPI_Reduce_scatter_block_init(si, ri, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:reduce_scatter_block_init */
    run_once();
    MPI_Scan_init(sd, rd, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:scan_init */
    run_once();
    MPI_Exscan_init(si, ri, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* site:exscan_init */
    run_once();
    MPI_Neighbor_allgather_init(si, 1, MPI_INT, ri, 1, MPI_INT, ring, MPI_INFO_NULL, &req); /* site:neighbor_allgather_init */
    run_once();
    MPI_Neighbor_allgatherv_init(si, 2, MPI_INT, ri, nb2, nbd, MPI_INT, ring, MPI_INFO_NULL, &req); /* site:neighbor_allgatherv_init */
    run_once();
    MPI_Neighbor_alltoall_init(si, 1, MPI_INT, ri, 1, MPI_INT, ring, MPI_INFO_NULL, &req); /* site:neighbor_alltoall_init */
    run_once();
    MPI_Neighbor_alltoallv_init(si, nb1, nbd1, MPI_INT, ri, nb1, nbd1, MPI_INT, ring, MPI_INFO_NULL, &req); /* site:neighbor_alltoallv_init */
    run_once();
    MPI_Neighbor_alltoallw_init(si, nb1, nbad, nbt, ri, nb1, nbad, nbt, ring, MPI_INFO_NULL, &req); /* site:neighbor_alltoallw_init */
    run_once();

    /* MPI 4.0's nonblocking sendrecv: 40 bytes to the next rank, 16 back */
    int next = (rank + 1) % np, prev = (rank + np - 1) % np;
    MPI_Isendrecv(si, 10, MPI_INT, next, 7, ri, 10, MPI_INT, prev, 7, MPI_COMM_WORLD, &req); /* site:isendrecv */
    done();
    MPI_Isendrecv_replace(sd, 2, MPI_DOUBLE, prev, 8, next, 8, MPI_COMM_WORLD, &req); /* site:isendrecv_replace */
    done();

#if defined(HAVE_LARGE_COUNT)
    /* MPI 4.0's large-count calls (t_report_mpi4.sh defines HAVE_LARGE_COUNT
     * where mpi.h declares them): MPI_Count counts, MPI_Aint displacements */
    MPI_Count cones[MAXP], cthrees[MAXP];
    MPI_Aint cdispls[MAXP], cdispls3[MAXP], cwdispls[MAXP]; /* elements; bytes for the w form */
    for (int i = 0; i < MAXP; i++)
        cones[i] = 1, cthrees[i] = 3, cdispls[i] = i, cdispls3[i] = 3 * i, cwdispls[i] = i * (MPI_Aint)sizeof(int);
    MPI_Count six = 6;
    MPI_Isend_c(si, six, MPI_INT, next, 9, MPI_COMM_WORLD, &req); /* site:isend_c */
    MPI_Recv_c(ri, six, MPI_INT, prev, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* site:recv_c */
    done();
    MPI_Send_c(sd, (MPI_Count)2, MPI_DOUBLE, prev, 10, MPI_COMM_WORLD); /* site:send_c */
    MPI_Irecv_c(rd, (MPI_Count)2, MPI_DOUBLE, next, 10, MPI_COMM_WORLD, &req); /* site:irecv_c */
    done();
    MPI_Allreduce_c(sd, rd, (MPI_Count)4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* site:allreduce_c */
    MPI_Ibcast_c(si, (MPI_Count)7, MPI_INT, 1, MPI_COMM_WORLD, &req); /* site:ibcast_c */
    done();
    MPI_Alltoallv_c(si, cones, cdispls, MPI_INT, ri, cones, cdispls, MPI_INT, MPI_COMM_WORLD); /* site:alltoallv_c */
    MPI_Allgatherv_c(sd, (MPI_Count)3, MPI_DOUBLE, rd, cthrees, cdispls3, MPI_DOUBLE, MPI_COMM_WORLD); /* site:allgatherv_c */
    MPI_Ialltoallw_c(si, cones, cwdispls, ints, ri, cones, cwdispls, ints, MPI_COMM_WORLD, &req); /* site:ialltoallw_c */
    done();
#endif

    /* a communicator freed by MPI_Comm_disconnect */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_disconnect(&dup); /* site:disconnect */
    /* clang-format on */

    MPI_Comm_free(&ring);
    if (rank == 0) printf("report_mpi4_app: %d ranks done\n", np);
    MPI_Finalize();
    return 0;
}
