/* When the MPI refuses a handle, the user is told, at once and with a code
 * that fits: this program stands in for an MPI whose
 * MPI_T_pvar_handle_alloc fails (it defines PMPI_T_pvar_handle_alloc, which
 * the component's backend calls, and fails it on demand).  Adding a variable
 * after MPI_Init then fails with PAPI_ESYS and a message naming the
 * variable; a set holding it, added before MPI_Init and started after it,
 * fails PAPI_start the same way instead of being deferred silently; and once
 * the MPI gives handles again the same set starts and counts.
 * Linked with -rdynamic, so the backend binds to this definition.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 */
/* RTLD_NEXT: glibc declares it only with _GNU_SOURCE, before any header
 * (glibc 2.31's mpi.h does not bring it) */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "check.h"

#include <dlfcn.h>

static int refuse_handles;

typedef int (*handle_alloc_fn)(MPI_T_pvar_session, int, void *, MPI_T_pvar_handle *, int *);

int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session s, int index, void *obj, MPI_T_pvar_handle *h, int *count)
{
    static handle_alloc_fn real;
    if (refuse_handles) return MPI_T_ERR_OUT_OF_HANDLES;
    if (!real) real = (handle_alloc_fn)dlsym(RTLD_NEXT, "PMPI_T_pvar_handle_alloc");
    return real(s, index, obj, h, count);
}

static void expect_refused(int rc, const char *said, const char *what, const char *var)
{
    CHECK(rc == PAPI_ESYS, "%s: %d (%s), expected PAPI_ESYS", what, rc, PAPI_strerror(rc));
    CHECK(strstr(said, "refused a handle") && strstr(said, var + 7), "%s: message does not name %s: %s", what,
          var, said);
}

int main(int argc, char **argv)
{
    int before = PAPI_NULL, after = PAPI_NULL, one = 1, rc;
    long long v = -1;
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1);
    check_papi_init();
    /* a variable both MPIs have once MPI runs, read through a handle */
    int openmpi = check_is_openmpi();
    const char *var = openmpi ? "mpit:::runtime_spc_OMPI_SPC_SEND" : "mpit:::unexpected_recvq_length";
    CHECK_PAPI(PAPI_create_eventset(&before));
    CHECK_PAPI(PAPI_add_named_event(before, var)); /* pending until MPI_Init */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);

    refuse_handles = 1;
    check_capture_begin();
    rc = PAPI_start(before);
    expect_refused(rc, check_capture_end(1), "PAPI_start of a set added before MPI_Init", var);
    CHECK_PAPI(PAPI_create_eventset(&after));
    check_capture_begin();
    rc = PAPI_add_named_event(after, var);
    expect_refused(rc, check_capture_end(1), "PAPI_add_named_event after MPI_Init", var);

    refuse_handles = 0;
    CHECK_PAPI(PAPI_start(before));
    if (check_rank == 0) MPI_Send(&one, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    if (check_rank == 1) MPI_Recv(&one, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK_PAPI(PAPI_stop(before, &v));
    if (openmpi && check_rank == 0) CHECK(v == 1, "OMPI_SPC_SEND %lld after one MPI_Send, expected 1", v);
    if (!openmpi) CHECK(v == 0, "unexpected_recvq_length %lld with nothing waiting, expected 0", v);
    int rc2 = check_finish("t_handle_fault");
    MPI_Finalize();
    return rc2;
}
