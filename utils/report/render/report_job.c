/*
 * papi-mpit-report: the job's result as it is filled (report.h's
 * report_job_t): its events, the events some rank skipped, the sender
 * matrix.  None of it ends the process on a failed allocation: the process
 * is the measured program's.
 */
#include "report.h"
#include "report_private.h"

#include <stdlib.h>
#include <string.h>

/* never 0 bytes: a job of 0 columns still has its arrays */
static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

int report_job_init(report_job_t *job, int nprocs)
{
    memset(job, 0, sizeof *job);
    job->nprocs = nprocs;
    job->hosts = zalloc((size_t)nprocs, sizeof *job->hosts);
    job->elapsed = zalloc((size_t)nprocs, sizeof *job->elapsed);
    if (job->hosts && job->elapsed) return 0;
    report_job_free(job);
    return -1;
}

void report_job_free(report_job_t *job)
{
    for (int i = 0; i < job->nevents; i++) {
        free(job->events[i].present);
        free(job->events[i].ival);
        free(job->events[i].dval);
    }
    free(job->events);
    free(job->skips);
    free(job->senders.present);
    free(job->senders.matrix);
    free(job->senders.other);
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) free(job->matrix.cells[k]);
    free(job->hosts);
    free(job->elapsed);
    for (int i = 0; i < job->nseries; i++) free(job->series[i].t), free(job->series[i].v);
    free(job->series);
    memset(job, 0, sizeof *job);
}

report_event_t *report_job_event(report_job_t *job, const char *name, const char *units, int is_fp)
{
    for (int i = 0; i < job->nevents; i++)
        if (strcmp(job->events[i].name, name) == 0) return &job->events[i];
    if (job->nevents == job->cap_events) {
        int cap = job->cap_events ? 2 * job->cap_events : 16;
        report_event_t *e = realloc(job->events, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        job->events = e;
        job->cap_events = cap;
    }
    report_event_t *e = &job->events[job->nevents];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->units, sizeof e->units, "%s", units ? units : "");
    e->is_fp = is_fp;
    e->present = zalloc((size_t)job->nprocs, 1);
    e->ival = zalloc((size_t)job->nprocs, sizeof *e->ival);
    e->dval = zalloc((size_t)job->nprocs, sizeof *e->dval);
    if (!e->present || !e->ival || !e->dval) {
        free(e->present), free(e->ival), free(e->dval);
        return NULL;
    }
    e->min_rank = e->max_rank = -1;
    job->nevents++;
    return e;
}

report_skip_t *report_job_skip(report_job_t *job, const char *name, const char *reason, int rank)
{
    for (int i = 0; i < job->nskips; i++)
        if (strcmp(job->skips[i].name, name) == 0) {
            job->skips[i].nranks++;
            return &job->skips[i];
        }
    if (job->nskips == job->cap_skips) {
        int cap = job->cap_skips ? 2 * job->cap_skips : 8;
        report_skip_t *s = realloc(job->skips, (size_t)cap * sizeof *s);
        if (!s) return NULL;
        job->skips = s;
        job->cap_skips = cap;
    }
    report_skip_t *s = &job->skips[job->nskips++];
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    s->nranks = 1;
    s->first_rank = rank;
    s->is_default = 0;
    return s;
}

int report_job_senders(report_job_t *job, int ncols)
{
    report_senders_t *s = &job->senders;
    s->present = zalloc((size_t)job->nprocs, 1);
    s->matrix = zalloc((size_t)job->nprocs * (size_t)(ncols ? ncols : 1), sizeof *s->matrix);
    s->other = zalloc((size_t)job->nprocs, sizeof *s->other);
    if (s->present && s->matrix && s->other) {
        s->ncols = ncols;
        return 0;
    }
    free(s->present), free(s->matrix), free(s->other);
    s->present = NULL, s->matrix = NULL, s->other = NULL;
    return -1;
}

const long long *report_senders_row(const report_job_t *job, int r)
{
    return job->senders.matrix + (size_t)r * (size_t)job->senders.ncols;
}

const char *report_senders_kind_name(int kind)
{
    return kind == REPORT_SENDERS_COUNT ? "count" : kind == REPORT_SENDERS_QUEUE_MAX ? "queue_max" : "none";
}
