/*
 * papi-mpit-report: bringing every rank's record to rank 0 without touching
 * the counters the tool measures (see report_collect.c).
 */
#ifndef PAPI_MPIT_REPORT_COLLECT_H
#define PAPI_MPIT_REPORT_COLLECT_H

#include <stddef.h>

/* Right after MPI_Init, before counting starts (collective): a private
 * communicator and the receives each rank keeps posted (one per child of
 * the collection tree).  Returns 0, or -1
 * (then collect_gather says so and returns NULL). */
int collect_open(void);

/* Right after counting started (collective): returns once every rank counts.
 * Its messages are zero bytes, each received by a receive posted before. */
void collect_started(void);

/* At MPI_Finalize, after counting stopped (collective).  Rank 0 gets a
 * malloc'ed buffer of every rank's record in rank order, as a sequence of
 * report_records.h (records_get reads them), and its size in *total; other
 * ranks get NULL. */
char *collect_gather(const char *mine, int len, size_t *total);

/* Rank 0, after collect_gather: seconds from every rank having stopped
 * counting until every record was in (the collection's own cost). */
double collect_seconds(void);

/* After collect_gather, once rank 0 has written the report (collective):
 * every rank goes on to MPI_Finalize together, so that a rank that exits
 * early cannot make the launcher kill rank 0 while it writes, and what the
 * MPI itself sends in MPI_Finalize (Open MPI's SPC dump) cannot reach rank 0
 * before it gets there. */
void collect_release(void);

/* Frees what collect_open made (no communication); safe to call twice. */
void collect_close(void);

#endif
