/*
 * Open MPI 4.1's MPI_Finalize ends the SPCs (ompi_spc_fini) before it frees
 * the windows the program left open (ompi_win_finalize), and freeing a
 * window runs a barrier whose SPC records then write through the freed
 * counters: a program that leaves a window to MPI_Finalize segfaults there
 * once such an SPC is attached (OMPI_SPC_BYTES_SENT_MPI, which the report
 * tool attaches; seen on 4.1.4 with a window of MPI_Win_allocate; 5.0.7
 * frees the windows first).  The SPCs end before anything the component can
 * see inside MPI_Finalize (its MPI_COMM_SELF attribute callback is too
 * late), so a tool's MPI_Finalize wrapper calls papi_mpit_before_finalize
 * right before PMPI_Finalize; when SPCs are attached on such a release, the
 * windows are freed there, in the order Open MPI would free them, so that a
 * program that runs without the tool does not crash with it.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "backend_internal.h"
#include "family_quirks.h"

#if defined(OPEN_MPI)
/* Fortran handles of windows are indices; more windows open at once than
 * this is not seen in practice, and looking one up costs a bounds check */
#define WINDOW_INDICES 65536
#endif

void backend_free_windows_left_open(void)
{
#if defined(OPEN_MPI)
    const char *attached = getenv("OMPI_MCA_mpi_spc_attach");
    if (!attached || !*attached || !backend_spc_end_first()) return;
    for (int i = 1; i < WINDOW_INDICES; i++) { /* 0 is MPI_WIN_NULL */
        MPI_Win w = PMPI_Win_f2c(i);
        if (w == NULL || w == MPI_WIN_NULL) continue;
        PMPI_Win_set_errhandler(w, MPI_ERRORS_RETURN); /* as MPI_Finalize would, never abort */
        PMPI_Win_free(&w);
    }
#endif
}
