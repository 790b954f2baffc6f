/*
 * papi-mpit-report: the PMPI interposer.  Built once per MPI ABI family
 * (libpapi-mpit-report-openmpi.so, libpapi-mpit-report-mpich.so) against that
 * family's mpi.h, preloaded into every rank by the papi-mpit-report script
 * (or by LD_PRELOAD directly).
 *
 * After MPI_Init / MPI_Init_thread returns, each rank adds the chosen events
 * with PAPI's low-level API (one event set per component: PAPI binds an event
 * set to one component) and starts them, in a helper thread of its own so
 * that a program using PAPI itself keeps its one running set per component
 * (perf_event sets are attached to the MPI_Init thread).  At MPI_Finalize,
 * before PMPI_Finalize, it stops them and sends its values to rank 0, which
 * prints the table and writes the files; then all ranks enter PMPI_Finalize
 * together.  The tool's own communication (report_collect.c) is zero-byte
 * messages into receives posted beforehand, outside the counting window, so
 * it changes neither the user byte counts nor the unexpected messages.
 * Unexpected messages by sender (papi_mpit.h) are read alongside, in the
 * same window, and gathered into a receiver x sender matrix; the program's
 * MPI_Pcontrol calls make the tool look at the queues there too (Open MPI
 * keeps only the current queue per peer, so the largest seen is what the
 * looks caught).
 * Queue maxima that the component keeps over what reads see are sampled by
 * a thread of their own during the run (report_sample.c).
 * PAPI_MPIT_REPORT_SELFCHECK=1 prints per rank what its start-up and its
 * collection added to UNEXPECTED_MSGS and the byte counts (for the tests).
 * Fortran programs are caught through the Fortran entry points too (Open
 * MPI's Fortran MPI_INIT calls the C PMPI_Init, never our MPI_Init).
 *
 * Configuration comes from the environment (the script's flags set it);
 * every PAPI_MPIT_REPORT_* variable is declared in utils/report/report-options.tsv.
 * The program's stdout is never written; messages and the table go to
 * rank 0's stderr.
 *
 * This file holds the C entry points; the Fortran ones are in
 * report_fortran.c, the run they start and end in report_run.c, the
 * generated call-site wrappers in site_wrappers.c (gen-wrappers.py), the
 * rank's measurement in ../collect/ (report_rank.h).
 */
#include <mpi.h>

#include "report_rank.h"
#include "report_run.h"

/* ---- C entry points */
int MPI_Init(int *argc, char ***argv)
{
    int outer = report_init_begin(MPI_THREAD_SINGLE);
    int rc = PMPI_Init(argc, argv);
    report_init_end(outer);
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int outer = report_init_begin(required);
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    report_init_end(outer);
    return rc;
}

int MPI_Finalize(void)
{
    report_finalize_begin();
    return PMPI_Finalize();
}

/* A look at the unexpected queues where the program says (Open MPI keeps
 * no count by sender: its queue per peer is caught only when looked at). */
int MPI_Pcontrol(const int level, ...)
{
    if (rank_state == ST_RUNNING) rank_senders_look();
    return PMPI_Pcontrol(level);
}
