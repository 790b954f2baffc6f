/*
 * papi-mpit-report: the call sites' part of the report (site_report.c),
 * called by the interposer (report_mpi.c).
 */
#ifndef PAPI_MPIT_SITES_REPORT_H
#define PAPI_MPIT_SITES_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* After MPI_Init, every rank: the tables (unless PAPI_MPIT_REPORT_SITES
 * is off); sites_window (site_table.h) then opens and closes the counting. */
void sites_start(int rank, int nprocs);
/* After the event log started: receives that found their message waiting,
 * where the MPI raises events for it (site_unexpected.c). */
void sites_events_begin(void);
/* Rank 0: before the records are read (their C, T, K, G lines go to the
 * job's extra.arg), after (then also sites_unseen_line's line, kept for
 * the text, report.json and report.html), and when the job is freed. */
void sites_attach(report_job_t *job);
void sites_finish(report_job_t *job);
void sites_detach(report_job_t *job);
/* 1 when some site was recorded (then the files below are written). */
int sites_any(const report_job_t *job);
/* The text report: findings before the table, the sites after it.  The
 * top starts with sites_unseen_line's line when there is one (the first
 * screen). */
int sites_text_top(FILE *out, const report_job_t *job);
int sites_text_bottom(FILE *out, const report_job_t *job);
/* Never a silent blank: one line when no site was recorded (why: turned
 * off, or no call reached the wrappers, with the MPI's own count of the
 * program's traffic where it keeps one), or when the sites saw less than
 * half of the point-to-point bytes the MPI counted; "" otherwise. */
void sites_unseen_line(char *line, size_t len, const report_job_t *job);
/* sites.csv, p2p.csv, collectives.csv */
int sites_csv(FILE *out, const report_job_t *job);
int sites_p2p_csv(FILE *out, const report_job_t *job);
int sites_colls_csv(FILE *out, const report_job_t *job);
/* Whether the TAU profile is written: 1, 0 (PAPI_MPIT_REPORT_TAU=0), or
 * -1: not asked and more than SITES_TAU_RANKS ranks (a file each). */
#define SITES_TAU_RANKS 1024
int sites_tau_wanted(const report_job_t *job);
/* DIR/tau/profile.RANK.0.0 for every rank (site_tau.c): 0, or -1 with errno */
int sites_write_tau(const char *dir, const report_job_t *job);

#endif
