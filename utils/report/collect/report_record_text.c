/*
 * papi-mpit-report: a rank's record read back into the job (see
 * report_record_text.h; the lines are written by rank_serialize, report_rank_record.c):
 *   H host elapsed                         the rank's host and its seconds from MPI_Init
 *   E name units i|f value                 a measured event
 *   P name                                 the event before is a sampled maximum
 *   Q period_ms sampler_cpu_s samples      sampling
 *   S|U name reason                        an event skipped (U: a default metric)
 *   M kind other columns sender:value,...  unexpected messages by sender
 *   N reason                               why there is no sender matrix
 *   X|Y|W                                  the communication matrix (report_peers.h)
 *   Z name t:v,...                         a queue length over time (report_queues.c)
 *   C, T, K, G                             the call sites (utils/report/sites/site_record.c)
 * No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_record_text.h"
#include "report_records.h"
#include "site_job.h"

static void read_senders(report_job_t *job, int rank, const char *kind, const char *other, const char *cols,
                         const char *pairs)
{
    report_senders_t *s = &job->senders;
    int ncols = atoi(cols);
    if (ncols < 0 || ncols > job->nprocs) return;
    if (!s->matrix) {
        if (report_job_senders(job, ncols) != 0) return; /* out of memory: no sender table */
        /* the component's kinds (papi_mpit.h): 1 counts, 2 queue maxima */
        s->kind = atoi(kind) == 1 ? REPORT_SENDERS_COUNT : REPORT_SENDERS_QUEUE_MAX;
    }
    if (ncols != s->ncols) return; /* every rank reads the same width */
    s->present[rank] = 1;
    s->other[rank] = strtoll(other, NULL, 10);
    long long *row = s->matrix + (size_t)rank * (size_t)s->ncols;
    for (const char *p = pairs; *p;) {
        char *end;
        long c = strtol(p, &end, 10);
        if (*end != ':') break;
        long long v = strtoll(end + 1, &end, 10);
        if (c >= 0 && c < ncols) row[c] = v;
        p = *end == ',' ? end + 1 : end;
        if (*end != ',') break;
    }
}

/* "peer:msgs:bytes,..." of rank's row (gets: the peer sent) */
static void read_matrix(report_job_t *job, int rank, int kind, const char *cells)
{
    if (kind < 0) return;
    report_matrix_present(job, kind);
    for (const char *p = cells; *p;) {
        char *end;
        long peer = strtol(p, &end, 10);
        if (*end != ':') break;
        long long m = strtoll(end + 1, &end, 10);
        if (*end != ':') break;
        long long b = strtoll(end + 1, &end, 10);
        if (peer >= 0 && peer < job->nprocs) {
            if (kind == REPORT_MATRIX_RMA_GET)
                report_matrix_add(job, kind, (int)peer, rank, m, b);
            else
                report_matrix_add(job, kind, rank, (int)peer, m, b);
        }
        if (*end != ',') break;
        p = end + 1;
    }
}

/* "t:v,t:v,..." */
static void read_series(report_job_t *job, int rank, const char *name, const char *pts)
{
    int n = *pts ? 1 : 0;
    for (const char *p = pts; *p; p++) n += *p == ',';
    report_series_t *s = n ? report_job_series(job, name, rank, n) : NULL;
    if (!s) return;
    s->n = 0;
    for (const char *p = pts; *p && s->n < n;) {
        char *end;
        double t = strtod(p, &end);
        if (*end != ':') break;
        double v = strtod(end + 1, &end);
        s->t[s->n] = t, s->v[s->n] = v, s->n++;
        if (*end != ',') break;
        p = end + 1;
    }
}

void report_record_read(report_job_t *job, sites_job_t *sites, int rank, char *rec)
{
    char *save = NULL;
    if (rank < 0 || rank >= job->nprocs) return;
    for (char *line = strtok_r(rec, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (sites && sites_job_line(sites, rank, line)) continue;
        char *f[5] = {0}, *s2 = NULL;
        int nf = 0;
        for (char *t = strtok_r(line, "\t", &s2); t && nf < 5; t = strtok_r(NULL, "\t", &s2)) f[nf++] = t;
        if (nf < 2 || f[0][1]) continue; /* one letter, then fields */
        switch (f[0][0]) {
        case 'H':
            if (nf < 3) break;
            snprintf(job->hosts[rank], sizeof job->hosts[rank], "%s", f[1]);
            job->elapsed[rank] = strtod(f[2], NULL);
            break;
        case 'E': {
            if (nf < 4) break;
            /* units may be empty: then there are 4 fields */
            const char *units = nf == 5 ? f[2] : "", *kind = nf == 5 ? f[3] : f[2],
                       *val = nf == 5 ? f[4] : f[3];
            report_event_t *e = report_job_event(job, f[1], units, kind[0] == 'f');
            if (!e) break;
            e->present[rank] = 1;
            if (e->is_fp) {
                e->dval[rank] = strtod(val, NULL);
                e->ival[rank] = (long long)e->dval[rank];
            } else {
                e->ival[rank] = strtoll(val, NULL, 10);
                e->dval[rank] = (double)e->ival[rank];
            }
            break;
        }
        case 'P': {
            report_event_t *e = report_job_event(job, f[1], "", 0); /* its E line came first */
            if (e) e->sampled = 1;
            break;
        }
        case 'Q': {
            if (nf < 4) break;
            double ms = strtod(f[1], NULL), cpu = strtod(f[2], NULL);
            long taken = strtol(f[3], NULL, 10);
            if (ms > job->sample_ms) job->sample_ms = ms;
            if (cpu > job->sample_cpu_s) job->sample_cpu_s = cpu;
            if (job->samples_min < 0 || taken < job->samples_min) job->samples_min = taken;
            break;
        }
        case 'S':
        case 'U': {
            report_skip_t *s = report_job_skip(job, f[1], nf >= 3 ? f[2] : "", rank);
            if (s && f[0][0] == 'U') s->is_default = 1;
            break;
        }
        case 'M':
            if (nf >= 4) read_senders(job, rank, f[1], f[2], f[3], nf >= 5 ? f[4] : "");
            break;
        case 'N':
            if (!job->senders.note[0]) snprintf(job->senders.note, sizeof job->senders.note, "%s", f[1]);
            break;
        case 'X': read_matrix(job, rank, report_matrix_kind(f[1]), nf >= 3 ? f[2] : ""); break;
        case 'Y': {
            int k = report_matrix_kind(f[1]);
            if (nf >= 3 && k >= 0 && !job->matrix.why[k][0])
                snprintf(job->matrix.why[k], sizeof job->matrix.why[k], "%s", f[2]);
            break;
        }
        case 'W':
            if (!job->matrix.note[0]) snprintf(job->matrix.note, sizeof job->matrix.note, "%s", f[1]);
            break;
        case 'Z':
            if (nf >= 3) read_series(job, rank, f[1], f[2]);
            break;
        default: break;
        }
    }
}

void report_record_read_all(report_job_t *job, sites_job_t *sites, const char *all, size_t total)
{
    records_buf_t prev = {0}, cur = {0};
    size_t pos = 0;
    for (int r = 0; r < job->nprocs && records_get(all, total, &pos, r ? &prev : NULL, &cur) == 0; r++) {
        char *rec = strdup(cur.s); /* the reader cuts it up; cur is the next one's reference */
        if (rec) report_record_read(job, sites, r, rec);
        free(rec);
        records_buf_t t = prev;
        prev = cur, cur = t;
    }
    /* every record has its host: a rank without one was left out */
    for (int r = 0; r < job->nprocs; r++) job->left_out |= !job->hosts[r][0];
    records_free(&prev);
    records_free(&cur);
}
