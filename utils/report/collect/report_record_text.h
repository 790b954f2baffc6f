/*
 * papi-mpit-report: a rank's record as text lines, read back into the job
 * (report_record_text.c).  The interposer writes records (report_rank_record.c's
 * serialize: H, E, P, Q, S, U, M, N, X, Y, W, Z, and the call sites' C, T,
 * K, G from utils/report/sites/site_record.c); rank 0 reads the collected ones at
 * MPI_Finalize, papi-mpit-merge reads the per-rank snapshot files of a run
 * that ended early.  No MPI.
 */
#ifndef PAPI_MPIT_REPORT_RECORD_TEXT_H
#define PAPI_MPIT_REPORT_RECORD_TEXT_H

#include <stddef.h>

#include "report.h"
#include "site_job.h"

/* Rank rank's record rec (cut up in place) into job; the call sites'
 * lines into sites (NULL: left out).  Lines of other kinds (a snapshot's
 * R, A, B: report_hang.h) are left alone. */
void report_record_read(report_job_t *job, sites_job_t *sites, int rank, char *rec);
/* Every rank's record, in rank order, from the collected sequence
 * (report_records.h). */
void report_record_read_all(report_job_t *job, sites_job_t *sites, const char *all, size_t total);

#endif
