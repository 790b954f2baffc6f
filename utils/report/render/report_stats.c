/*
 * papi-mpit-report: the statistics over ranks (each event's least, most,
 * mean and imbalance; the MPI time share), the hosts the ranks ran on, and
 * what the sampled maxima are, for every rendering.
 */
#include "report.h"
#include "report_private.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void report_compute(report_job_t *job)
{
    for (int i = 0; i < job->nevents; i++) {
        report_event_t *e = &job->events[i];
        e->nranks = 0;
        e->sum = 0;
        e->min_rank = e->max_rank = -1;
        for (int r = 0; r < job->nprocs; r++) {
            if (!e->present[r]) continue;
            double v = e->dval[r];
            e->sum += e->is_fp ? (long double)v : (long double)e->ival[r];
            if (e->min_rank < 0 || v < e->min) e->min = v, e->min_rank = r;
            if (e->max_rank < 0 || v > e->max) e->max = v, e->max_rank = r;
            e->nranks++;
        }
        e->mean = e->nranks ? (double)(e->sum / e->nranks) : 0.0;
        e->imbalance = e->mean != 0.0 ? e->max / e->mean : 0.0;
    }
}

void report_fmt_value(char *buf, size_t len, const report_event_t *e, int r)
{
    if (e->is_fp)
        snprintf(buf, len, "%.17g", e->dval[r]);
    else
        snprintf(buf, len, "%lld", e->ival[r]);
}

double report_max_elapsed(const report_job_t *job)
{
    double m = 0;
    for (int r = 0; r < job->nprocs; r++)
        if (job->elapsed[r] > m) m = job->elapsed[r];
    return m;
}

int report_rank_missing(const report_job_t *job, int r)
{
    return (job->partial || job->left_out) && !job->hosts[r][0];
}

int report_host_seen_before(const report_job_t *job, int r)
{
    int seen = 0;
    for (int q = 0; q < r && !seen; q++)
        seen = !report_rank_missing(job, q) && strcmp(job->hosts[q], job->hosts[r]) == 0;
    return seen;
}

int *report_host_first(const report_job_t *job)
{
    size_t cap = 16, n = (size_t)job->nprocs;
    while (cap < 2 * n) cap *= 2;
    int *first = malloc(sizeof *first * (n ? n : 1)), *slot = malloc(sizeof *slot * cap);
    if (!first || !slot) {
        free(first), free(slot);
        return NULL;
    }
    memset(slot, 0xff, sizeof *slot * cap);
    for (size_t r = 0; r < n; r++) {
        first[r] = -1;
        if (report_rank_missing(job, (int)r)) continue;
        uint64_t x = 0xcbf29ce484222325ULL; /* FNV-1a of the name */
        for (const char *c = job->hosts[r]; *c; c++) x = (x ^ (unsigned char)*c) * 0x100000001B3ULL;
        size_t i = (size_t)x & (cap - 1);
        while (slot[i] >= 0 && strcmp(job->hosts[slot[i]], job->hosts[r])) i = (i + 1) & (cap - 1);
        if (slot[i] < 0) slot[i] = (int)r;
        first[r] = slot[i];
    }
    free(slot);
    return first;
}

int report_count_hosts(const report_job_t *job, int *nmissing)
{
    int n = 0, gone = 0, *first = report_host_first(job);
    for (int r = 0; r < job->nprocs; r++) {
        if (report_rank_missing(job, r)) { /* no state: its host is not known, and is not one */
            gone++;
            continue;
        }
        int seen = first ? first[r] != r : report_host_seen_before(job, r);
        n += !seen;
    }
    free(first);
    if (nmissing) *nmissing = gone;
    return n;
}

/* ---- the sampled maxima */
int report_sampling_note(char *buf, size_t len, const report_job_t *job)
{
    size_t n = 0;
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; i < job->nevents && n < len; i++)
        if (job->events[i].sampled)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "", job->events[i].name);
    if (!k || n >= len) return k;
    if (job->sample_ms > 0 && job->samples_min == 0)
        snprintf(buf + n, len - n,
                 ": NOT maxima: some rank ran shorter than the sample period (%g ms) and took no sample, so "
                 "these are only what the start and end reads saw, a lower bound (the MPI publishes only "
                 "the current length; --sample-period sets the period)",
                 job->sample_ms);
    else if (job->sample_ms > 0)
        snprintf(buf + n, len - n,
                 ": the largest queue length seen by a read every %g ms (sampled; at least %ld sample%s per "
                 "rank), as the MPI publishes only the current length",
                 job->sample_ms, job->samples_min, job->samples_min == 1 ? "" : "s");
    else
        snprintf(buf + n, len - n,
                 ": the largest queue length seen at the start and end reads only (sampling off), as the MPI "
                 "publishes only the current length");
    return k;
}

int report_stats_nan(const double *v, int n, double *min, int *min_rank, double *mean, double *max,
                     int *max_rank)
{
    int k = 0;
    double sum = 0;
    *min_rank = *max_rank = -1;
    *min = *max = *mean = 0;
    for (int r = 0; v && r < n; r++) {
        if (isnan(v[r])) continue;
        if (*min_rank < 0 || v[r] < *min) *min = v[r], *min_rank = r;
        if (*max_rank < 0 || v[r] > *max) *max = v[r], *max_rank = r;
        sum += v[r], k++;
    }
    *mean = k ? sum / k : 0;
    return k ? 0 : -1;
}

int report_mpi_share_stats(const report_job_t *job, double *min, int *min_rank, double *mean, double *max,
                           int *max_rank)
{
    return report_stats_nan(job->mpi_share, job->nprocs, min, min_rank, mean, max, max_rank);
}
