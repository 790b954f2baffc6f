/*
 * papi-mpit-report event log mode: every MPI_T event instance, with its
 * timestamp, event name and element names and values, into one file per
 * rank, plus queue statistics derived from insert/remove event pairs.  The
 * instances come from the mpit component (papi_mpit_watch_start); on an MPI
 * without MPI_T events rank 0 says why there is no log.
 */
#ifndef PAPI_MPIT_REPORT_LOG_H
#define PAPI_MPIT_REPORT_LOG_H

/* After MPI_Init and PAPI_library_init: starts watching if
 * PAPI_MPIT_REPORT_LOG asks for it. */
void report_log_start(int rank);
/* Before PMPI_Finalize: stops watching and writes the rank's file. */
void report_log_finish(int rank);

#endif
