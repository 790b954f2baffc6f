/* A tick of PAPI's software overflow inside MPI_Finalize, before the
 * component's own MPI_COMM_SELF callback told it that MPI ends.  Open MPI
 * 4.1 frees its SPC storage first thing in MPI_Finalize (ompi_spc_fini), so
 * an SPC read there dereferences NULL and kills the program; the component's
 * timer handler must see where the thread is and read nothing
 * (backend/finalize_spc_window.c).  hpcrun samples this way (t_overflow_order).
 *
 * Made certain rather than left to the timer: this test sets its own
 * attribute on MPI_COMM_SELF after the component set its (the component's
 * is set once MPI runs, at the latest when the set starts), and MPI_Finalize deletes
 * them in the reverse order they were set.  The test's delete callback
 * raises SIGPROF, PAPI's overflow signal, on this thread.  Without the
 * component's look, this test dies in that callback on openmpi-spc.
 *
 * Traffic (common/bursts.h): 2 bursts of 20 unexpected messages to rank 1.
 * Asserted: the callback ran before the component heard that MPI ends
 * (papi_mpit_after_init still PAPI_OK there), with PAPI's handler installed
 * for SIGPROF, and MPI_Finalize returned; the overflow handler ran as the counts crossed the
 * threshold; PAPI_stop after MPI_Finalize gives exactly the count read
 * before it (40 on rank 1, 1 on rank 0).
 * flavors: openmpi-spc mpich-events
 * ranks: 2 */
#include "check.h"
#include "bursts.h"
#include "papi_mpit.h"

#include <signal.h>

#define EVENT "mpit:::UNEXPECTED_MSGS"
#define B     2
#define T     20

static int set = PAPI_NULL;
static volatile sig_atomic_t calls, callback_ran, handler_installed, component_unaware;

static void handler(int event_set, void *address, long long vector, void *context)
{
    (void)event_set;
    (void)address;
    (void)vector;
    (void)context;
    calls++;
}

/* runs inside MPI_Finalize, before the component's own callback */
static int tick_inside_finalize(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)attr;
    (void)extra;
    struct sigaction now;
    callback_ran = 1;
    /* the component has not heard that MPI ends: this is the window (after
     * its MPI_COMM_SELF callback the answer is PAPI_ENOINIT) */
    component_unaware = papi_mpit_after_init() == PAPI_OK;
    if (sigaction(SIGPROF, NULL, &now) == 0 && now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN) {
        handler_installed = 1;
        raise(SIGPROF);
    }
    return MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    long long v[1], stopped[1];
    int code, keyval;
    /* added before MPI_Init: Open MPI attaches the SPC then */
    check_papi_init();
    CHECK_PAPI(PAPI_create_eventset(&set));
    CHECK_PAPI(PAPI_event_name_to_code(EVENT, &code));
    CHECK_PAPI(PAPI_add_event(set, code));
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &check_rank);
    CHECK_PAPI(PAPI_overflow(set, code, T, 0, handler));
    CHECK_PAPI(PAPI_start(set));
    /* after the component's attribute: deleted before it */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, tick_inside_finalize, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, NULL);
    MPI_Comm_free_keyval(&keyval); /* the attribute keeps it until MPI_Finalize */

    bursts_run(check_rank, B, T, 0.05, NULL);
    CHECK_PAPI(PAPI_read(set, v));
    long long want = check_rank == 1 ? (long long)B * T : check_rank == 0 ? 1 : 0;
    CHECK(v[0] == want, "%s read %lld before MPI_Finalize, expected %lld", EVENT, v[0], want);
    int before = calls;

    MPI_Finalize();
    CHECK(callback_ran, "the MPI_COMM_SELF delete callback did not run in MPI_Finalize");
    CHECK(component_unaware, "the callback ran after the component's own: the tick was not in the window");
    CHECK(handler_installed, "SIGPROF had no handler in MPI_Finalize: the tick was not raised");
    CHECK_PAPI(PAPI_stop(set, stopped));
    CHECK(stopped[0] == want, "%s stopped at %lld after MPI_Finalize, expected %lld", EVENT, stopped[0],
          want);
    if (check_rank == 1)
        CHECK(before >= B - 1 && before <= B, "handler ran %d times for %d bursts", before, B);
    fprintf(stderr, "rank %d: %s = %lld, handler calls %d\n", check_rank, EVENT, stopped[0], (int)calls);
    PAPI_shutdown();
    return check_finish("finalize_tick");
}
