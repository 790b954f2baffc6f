/*
 * papi-mpit-report: the call sites in the report: started with the
 * counting (sites_start), merged on rank 0 into the job (sites_attach,
 * sites_finish), rendered beside the rest (the text's findings and table,
 * the files, report.json's members and report.html's section through the
 * job's extra hooks).
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_env.h"
#include "site_job.h"
#include "site_report.h"
#include "site_table.h"

static char why_off[256];

void sites_start(int rank, int nprocs)
{
    why_off[0] = '\0';
    if (!report_bool_env("PAPI_MPIT_REPORT_SITES", 1))
        snprintf(why_off, sizeof why_off, "turned off (--no-sites)");
    else
        sites_begin(rank, nprocs, why_off, sizeof why_off);
}

void sites_events_begin(void)
{
    if (!why_off[0]) sites_watch_start();
}

static int json(struct json_t *obj, const void *j) { return sites_json(obj, j); }
static int html_top(FILE *out, const void *j) { return sites_write_findings(out, j, 1); }
static int html(FILE *out, const void *j) { return sites_write_html(out, j); }

void sites_attach(report_job_t *job)
{
    sites_job_t *j = calloc(1, sizeof *j);
    if (!j) return;
    sites_job_init(j, job->nprocs);
    snprintf(j->off_reason, sizeof j->off_reason, "%s", why_off);
    job->extra = (report_extra_t){.arg = j,
                                  .json = json,
                                  .html_top = html_top,
                                  .html = html,
                                  .html_nav = "<a href=\"#findings\">Findings</a><a href=\"#sites\">Call "
                                              "sites</a><a href=\"#p2p\">Program matrix</a>"};
}

void sites_finish(report_job_t *job)
{
    if (job->extra.arg) sites_job_finish((sites_job_t *)job->extra.arg);
}

void sites_detach(report_job_t *job)
{
    sites_job_t *j = (sites_job_t *)job->extra.arg;
    if (j) sites_job_free(j);
    free(j);
    memset(&job->extra, 0, sizeof job->extra);
}

static const sites_job_t *of(const report_job_t *job) { return job->extra.arg; }

int sites_any(const report_job_t *job) { return of(job) && of(job)->nsites > 0; }

int sites_text_top(FILE *out, const report_job_t *job)
{
    return of(job) ? sites_write_findings(out, of(job), 0) : 0;
}

int sites_text_bottom(FILE *out, const report_job_t *job)
{
    return of(job) ? sites_write_table(out, of(job)) : 0;
}

int sites_csv(FILE *out, const report_job_t *job) { return sites_write_csv(out, of(job)); }
int sites_p2p_csv(FILE *out, const report_job_t *job) { return sites_write_p2p_csv(out, of(job)); }
int sites_colls_csv(FILE *out, const report_job_t *job) { return sites_write_colls_csv(out, of(job)); }
