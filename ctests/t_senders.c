/* Unexpected messages by sender (papi_mpit.h): each rank r sends r+1 early
 * messages to its right neighbour, which receives them only once they are
 * queued.  The right neighbour then reads exactly r+1 for sender r and 0 for
 * every other sender: counted messages on MPICH with events, the largest
 * per-peer queue length seen at the read on Open MPI.  The messages that
 * order the exchange all meet receives posted before they are sent, and the
 * barrier runs before the counting starts.  MPICH 4.1 and later cannot
 * tell the sender (no communicator in the event; 5.0 aborts when event data
 * is read): refused there, with the reason.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

#define TAG_GO   51
#define TAG_DATA 52
#define TAG_MARK 53
#define TAG_DONE 54
#define MAXN     64

int main(int argc, char **argv)
{
    int size, go = 0, mark = 0, data[MAXN], kind = 0;
    long long counts[MAXN], other = -1;
    MPI_Request rg, rm, done[MAXN];
    int done_flags[MAXN];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_papi_init();
    int left = (check_rank + size - 1) % size, right = (check_rank + 1) % size;

    if (size > MAXN) check_skip("more ranks than the test's arrays");
    MPI_Irecv(&go, 1, MPI_INT, right, TAG_GO, MPI_COMM_WORLD, &rg);
    /* "done" receives posted up front: no rank may send anything else (a
     * collective) to a rank that has not read yet */
    for (int r = 0; r < size; r++)
        MPI_Irecv(&done_flags[r], 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD, &done[r]);
    MPI_Barrier(MPI_COMM_WORLD); /* every go receive is posted; no barrier message comes later */
    if (check_mpich_at_least(4, 1)) {
        /* MPICH 4.1 on names no communicator in its queue events, and 5.0
         * aborts when an event's data is read: refused, with why */
        char why[512] = "";
        int rc = papi_mpit_senders_start();
        papi_mpit_why("senders", why, sizeof why);
        CHECK(rc == PAPI_ECMP &&
                  strstr(why, check_event_data_unreadable() ? "MPI_T_event_read" : "communicator"),
              "senders on MPICH 4.1 or later: %d, '%s'", rc, why);
        for (int r = 0; r < size; r++) MPI_Cancel(&done[r]);
        MPI_Cancel(&rg);
        MPI_Status st[MAXN]; /* (MPICH 4.0's header makes gcc misread MPI_STATUSES_IGNORE) */
        MPI_Waitall(size, done, st);
        MPI_Wait(&rg, MPI_STATUS_IGNORE);
        rc = check_finish("senders (refused on MPICH 4.1 and later)");
        MPI_Finalize();
        return rc;
    }
    CHECK_PAPI(papi_mpit_senders_start());
    MPI_Irecv(&mark, 1, MPI_INT, left, TAG_MARK, MPI_COMM_WORLD, &rm);
    MPI_Send(&go, 1, MPI_INT, left, TAG_GO, MPI_COMM_WORLD); /* left may flood me now */
    MPI_Wait(&rg, MPI_STATUS_IGNORE);                        /* right's marker receive is posted */
    for (int i = 0; i <= check_rank; i++) MPI_Send(&i, 1, MPI_INT, right, TAG_DATA, MPI_COMM_WORLD);
    MPI_Send(&mark, 1, MPI_INT, right, TAG_MARK, MPI_COMM_WORLD);
    MPI_Wait(&rm, MPI_STATUS_IGNORE); /* one peer's messages match in order: left's data are queued */
    CHECK_PAPI(papi_mpit_senders_read(counts, size, &other, &kind));
    for (int i = 0; i <= left; i++)
        MPI_Recv(&data[i], 1, MPI_INT, left, TAG_DATA, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_PAPI(papi_mpit_senders_stop());
    for (int r = 0; r < size; r++) MPI_Send(&go, 1, MPI_INT, r, TAG_DONE, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++) MPI_Wait(&done[r], MPI_STATUS_IGNORE);

    int want_kind = check_is_openmpi() ? PAPI_MPIT_SENDERS_QUEUE_MAX : PAPI_MPIT_SENDERS_COUNT;
    CHECK(kind == want_kind, "kind %d, expected %d", kind, want_kind);
    for (int s = 0; s < size; s++) {
        long long want = s == left ? left + 1 : 0;
        CHECK(counts[s] == want, "from sender %d: %lld, expected %lld", s, counts[s], want);
    }
    CHECK(other == 0, "other %lld, expected 0", other);
    CHECK(papi_mpit_senders_read(counts, size, &other, &kind) == PAPI_ENOTRUN, "read after stop");
    if (check_rank == 0) printf("rank 0: %lld from sender %d (kind %d)\n", counts[left], left, kind);
    int rc = check_finish("t_senders");
    MPI_Finalize();
    return rc;
}
