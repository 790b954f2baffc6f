/* A call that reaches the component while the same thread is already inside
 * it never waits for itself.  Deterministically: this program stands in for
 * the MPI under the component (it defines PMPI_T_pvar_read, which the
 * backend calls, and forwards to the real one), and from inside that call it
 * raises a signal whose handler, like a sampling tool's, calls PAPI_read on
 * the running set, looks a name up, adds to another set and starts it.
 * Each returns at once: the read with PAPI_OK and the last values, the rest
 * with an error (PAPI_ECLOST from the component); then the outer read
 * completes with the right value.  A deadlock would hang here (the runner's
 * timeout ends it as a failure).
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
#include <signal.h>

static int es = PAPI_NULL, other = PAPI_NULL;
static volatile sig_atomic_t armed, handled;
static int nested_read, nested_lookup, nested_add;
static long long nested_value = -1;

typedef int (*pvar_read_fn)(MPI_T_pvar_session, MPI_T_pvar_handle, void *);

int PMPI_T_pvar_read(MPI_T_pvar_session s, MPI_T_pvar_handle h, void *buf)
{
    static pvar_read_fn real;
    if (!real) real = (pvar_read_fn)dlsym(RTLD_NEXT, "PMPI_T_pvar_read");
    if (armed) {
        armed = 0;
        raise(SIGUSR1); /* delivered now, on this thread, inside the component */
    }
    return real(s, h, buf);
}

static void on_signal(int sig)
{
    int code;
    (void)sig;
    nested_read = PAPI_read(es, &nested_value);
    nested_lookup = PAPI_event_name_to_code("mpit:::UNEXPECTED_MSGS", &code);
    nested_add = PAPI_add_named_event(other, "mpit:::UNEXPECTED_MSGS");
    handled = 1;
}

int main(int argc, char **argv)
{
    long long v = -1;
    int one = 1;
    setenv("OMPI_MCA_mpi_spc_attach", "all", 1);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    check_papi_init();
    const char *var =
        check_is_openmpi() ? "mpit:::runtime_spc_OMPI_SPC_SEND" : "mpit:::unexpected_recvq_length";
    signal(SIGUSR1, on_signal);
    CHECK_PAPI(PAPI_create_eventset(&es));
    CHECK_PAPI(PAPI_create_eventset(&other));
    CHECK_PAPI(PAPI_add_named_event(es, var));
    CHECK_PAPI(PAPI_start(es));
    CHECK_PAPI(PAPI_read(es, &v)); /* the last values the nested read will see */
    if (check_rank == 0) MPI_Send(&one, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    if (check_rank == 1) MPI_Recv(&one, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    armed = 1;
    CHECK_PAPI(PAPI_read(es, &v));
    CHECK(handled, "the signal was not handled inside the component's read");
    CHECK(nested_read == PAPI_OK, "nested PAPI_read returned %d (%s)", nested_read,
          PAPI_strerror(nested_read));
    CHECK(nested_value == 0, "nested PAPI_read gave %lld, expected the last values (0)", nested_value);
    CHECK(nested_lookup != PAPI_OK, "nested lookup returned PAPI_OK; expected a prompt error");
    CHECK(nested_add != PAPI_OK, "nested add returned PAPI_OK; expected a prompt error");
    long long want = check_is_openmpi() ? (check_rank == 0 ? 1 : 0) : 0;
    CHECK(v == want, "outer PAPI_read gave %lld, expected %lld", v, want);
    CHECK_PAPI(PAPI_stop(es, &v));
    /* the component works normally again afterwards */
    CHECK_PAPI(PAPI_add_named_event(other, var));
    if (check_rank == 0)
        printf("nested read %d (value %lld), lookup %d, add %d: no wait\n", nested_read, nested_value,
               nested_lookup, nested_add);
    int rc = check_finish("t_reentry");
    MPI_Finalize();
    return rc;
}
