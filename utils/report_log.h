/*
 * papi-mpit-report event log mode: every MPI_T event instance, with its
 * timestamp, event name and element names and values, into one file per
 * rank, plus queue statistics derived from insert/remove event pairs.
 * Uses MPI_T events directly (MPI 4.0 headers); with older headers (Open MPI
 * 4.1) it reports that the log is not available.
 */
#ifndef PAPI_MPIT_REPORT_LOG_H
#define PAPI_MPIT_REPORT_LOG_H

/* After MPI_Init: registers callbacks if PAPI_MPIT_REPORT_LOG asks for it. */
void report_log_start(int rank);
/* Before PMPI_Finalize: frees the registrations and writes the rank's file. */
void report_log_finish(int rank);
/* After PMPI_Finalize: releases MPI_T where the MPI wants it done then. */
void report_log_after_finalize(void);

#endif
