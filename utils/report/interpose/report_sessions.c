/*
 * papi-mpit-report: a program the tool cannot measure says so.  The tool
 * measures from MPI_Init to MPI_Finalize; a program that starts MPI only
 * through sessions (MPI 4.0 MPI_Session_init, no MPI_Init) would otherwise
 * end with no report and no word.  At its exit, one line on the first rank
 * (the launcher's rank variable 0, or none) says why nothing was measured.
 */
#define _GNU_SOURCE /* program_invocation_name, in errno.h; RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "papi_mpit.h"
#include "report_env.h"

/* The standard ABI (MPI 5.0), MPICH 4 and Open MPI 5 declare sessions;
 * Open MPI 4.1's header has none, and its programs cannot use them. */
#if MPI_VERSION >= 4 || defined(MPI_ABI_VERSION) || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define HAVE_SESSIONS 1
#endif

static void said_unmeasured(void)
{
    int init = 0, fini = 0;
    PMPI_Initialized(&init);
    PMPI_Finalized(&fini);
    if (init || fini || !report_first_rank()) return;
    fprintf(
        stderr,
        "papi-mpit-report: %s used MPI sessions without MPI_Init: nothing measured (the tool measures from "
        "MPI_Init to MPI_Finalize)\n",
        program_invocation_name);
}

static void note_sessions(void)
{
    static int registered;
    /* before the MPI's own exit handlers: atexit runs the last registered first */
    if (!registered) registered = atexit(said_unmeasured) == 0;
}

/* The component learns from these that a session runs (papi_mpit.h), so
 * that a program using mpit events itself under sessions has them count. */
#ifdef HAVE_SESSIONS
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
    note_sessions();
    int rc = PMPI_Session_init(info, errhandler, session);
    if (rc == MPI_SUCCESS) papi_mpit_after_session_init();
    return rc;
}

int MPI_Session_finalize(MPI_Session *session)
{
    papi_mpit_before_session_finalize();
    return PMPI_Session_finalize(session);
}
#elif defined(OPEN_MPI)
/* Built against Open MPI 4.1's header, the interposer also serves Open MPI 5
 * and 6 (same soname), which have sessions: there every handle is a
 * pointer, and the entry point is found in the running library. */
typedef int session_init_fn(void *info, void *errhandler, void **session);

int MPI_Session_init(void *info, void *errhandler, void **session);
int MPI_Session_init(void *info, void *errhandler, void **session)
{
    session_init_fn *real = (session_init_fn *)dlsym(RTLD_DEFAULT, "PMPI_Session_init");
    if (!real) return MPI_ERR_OTHER;
    note_sessions();
    int rc = real(info, errhandler, session);
    if (rc == MPI_SUCCESS) papi_mpit_after_session_init();
    return rc;
}

typedef int session_finalize_fn(void **session);
int MPI_Session_finalize(void **session);
int MPI_Session_finalize(void **session)
{
    session_finalize_fn *real = (session_finalize_fn *)dlsym(RTLD_DEFAULT, "PMPI_Session_finalize");
    if (!real) return MPI_ERR_OTHER;
    papi_mpit_before_session_finalize();
    return real(session);
}
#endif
