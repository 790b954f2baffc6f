/*
 * papi-mpit-report: what the renderings of render/ share among themselves
 * and no other layer reads (report.h is the public face).
 */
#ifndef PAPI_MPIT_REPORT_PRIVATE_H
#define PAPI_MPIT_REPORT_PRIVATE_H

#include "report.h"

/* receiver r's row of the sender matrix (report_job.c) */
const long long *report_senders_row(const report_job_t *job, int r);
/* the matrix's kind as report.json names it: "count", "queue_max", "none" */
const char *report_senders_kind_name(int kind);
/* The longest of the ranks' elapsed times (report_stats.c). */
double report_max_elapsed(const report_job_t *job);
/* report_stats_nan over the ranks' MPI time shares. */
int report_mpi_share_stats(const report_job_t *job, double *min, int *min_rank, double *mean, double *max,
                           int *max_rank);

#endif
