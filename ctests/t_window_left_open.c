/* A program that leaves a window for MPI_Finalize to free does not crash
 * because the component attached SPCs: Open MPI 4.1 ends its SPCs before it
 * frees such windows, and the barrier of the free then recorded into the
 * freed counters (a segfault in ompi_spc_record, seen on 4.1.4).  Here
 * BYTES_SENT_MPI, which that barrier records, is named before MPI_Init (the
 * component attaches it), read once, and the window is left open; this
 * program's MPI_Finalize wrapper calls papi_mpit_before_finalize, as a
 * tool's does.  The run must end with every rank's PASS and status 0.
 * (MPICH's MPI_Finalize fails on a window left open by itself.)
 * flavors: openmpi-spc openmpi-5.0.7-spc
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

int MPI_Finalize(void)
{
    papi_mpit_before_finalize();
    return PMPI_Finalize();
}

int main(int argc, char **argv)
{
    int es = PAPI_NULL, rank, size, *base;
    long long v = -1;
    MPI_Win win;
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, "mpit:::BYTES_SENT_MPI"));
    MPI_Init(&argc, &argv);
    papi_mpit_after_init();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    CHECK_PAPI(PAPI_start(es));
    MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_stop(es, &v));
    CHECK(v > 0, "BYTES_SENT_MPI read %lld over a barrier and two fences", v);
    MPI_Finalize(); /* frees the window */
    return check_finish("t_window_left_open");
}
