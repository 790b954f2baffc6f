/*
 * papi-mpit-report: rank 0's report of the job, on the terminal and in
 * files (report_files.c).
 */
#ifndef PAPI_MPIT_REPORT_FILES_H
#define PAPI_MPIT_REPORT_FILES_H

#include "report.h"

/* the interposer's own: out of the program's symbol lookup (it is
 * preloaded into the program, whose names come first) */
#pragma GCC visibility push(hidden)

/* the MPI library's version string, on one line, into job->mpi_library */
void report_read_library_version(report_job_t *job);
/* the table on stderr (unless -q) and the files in PAPI_MPIT_REPORT_DIR */
void report_files(report_job_t *job);

#pragma GCC visibility pop

#endif
