/* A :peer=N named before MPI_Init reads what peer N got, not the sum over
 * every peer (issue 31, case 1): COLL_BYTES_SENT:peer=p and
 * COLL_MSGS_SENT:peer=p named before MPI_Init, then named again after it in
 * a second set, read exactly what one broadcast from rank 0 sent to p; a
 * :peer= beyond the job's size is refused when it is added, even before
 * MPI_Init (mpirun tells the size), or else when its set starts, with the
 * reason.
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#include "check.h"
#include "papi_mpit.h"

#define BCAST_INTS 100
#define MAX_PEERS  8

static const char *const metrics[] = {"mpit:::COLL_BYTES_SENT", "mpit:::COLL_MSGS_SENT"};
enum { NUM_METRICS = 2 };

static long long truth(int m, int rank, int p)
{
    long long msgs = rank == 0 && p != 0;
    return m == 0 ? msgs * BCAST_INTS * (long long)sizeof(int) : msgs;
}

/* one broadcast from rank 0 inside the set's window */
static long long measure(int es)
{
    int ints[BCAST_INTS] = {0};
    long long v = -1;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_start(es));
    MPI_Bcast(ints, BCAST_INTS, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK_PAPI(PAPI_stop(es, &v));
    return v;
}

static int one_set(const char *name)
{
    int es = PAPI_NULL;
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_add_named_event(es, name));
    return es;
}

int main(int argc, char **argv)
{
    int before[NUM_METRICS][MAX_PEERS], after[NUM_METRICS][MAX_PEERS], rank, size;
    char name[128];
    unsetenv("OMPI_MCA_pml_monitoring_enable");
    check_papi_init();
    /* the size mpirun gives the job, as the component may know it */
    const char *env = getenv("OMPI_COMM_WORLD_SIZE");
    int job = env ? atoi(env) : 0;
    int usable = job >= 1 && job <= MAX_PEERS; /* else skipped once MPI runs */
    for (int m = 0; m < NUM_METRICS && usable; m++)
        for (int p = 0; p < job; p++) {
            snprintf(name, sizeof name, "%s:peer=%d", metrics[m], p);
            before[m][p] = one_set(name);
        }
    /* beyond the job: refused now, saying why */
    int far = PAPI_NULL, far_rc;
    snprintf(name, sizeof name, "%s:peer=%d", metrics[0], job + 3);
    CHECK_PAPI(PAPI_create_eventset(&far));
    check_capture_begin();
    far_rc = PAPI_add_named_event(far, name);
    static char said[4096];
    snprintf(said, sizeof said, "%s", check_capture_end(1));

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    check_rank = rank;
    if (!usable) check_skip("no OMPI_COMM_WORLD_SIZE from mpirun, or more than 8 ranks");
    CHECK(size == job, "OMPI_COMM_WORLD_SIZE %d, MPI_COMM_WORLD has %d ranks", job, size);
    CHECK(far_rc != PAPI_OK && strstr(said, "out of range"), "%s before MPI_Init: %d, said: %s", name, far_rc,
          said);
    for (int m = 0; m < NUM_METRICS; m++)
        for (int p = 0; p < size; p++) {
            snprintf(name, sizeof name, "%s:peer=%d", metrics[m], p);
            after[m][p] = one_set(name);
        }
    for (int m = 0; m < NUM_METRICS; m++)
        for (int p = 0; p < size; p++) {
            long long b = measure(before[m][p]), a = measure(after[m][p]);
            CHECK(b == truth(m, rank, p), "%s:peer=%d named before MPI_Init read %lld, expected %lld",
                  metrics[m], p, b, truth(m, rank, p));
            CHECK(a == truth(m, rank, p), "%s:peer=%d named again after MPI_Init read %lld, expected %lld",
                  metrics[m], p, a, truth(m, rank, p));
        }
    MPI_Finalize();
    return check_finish("t_peer_before_init");
}
