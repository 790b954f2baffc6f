/*
 * papi-mpit-report: queue depth over time in report.html.  The sampler
 * thread (report_sample.c) reads the queue-length events every period and
 * keeps the last samples in a ring; each rank's record carries them (Z
 * lines, report_record_text.c) and this draws one chart per event, a line
 * per rank.  No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define CHART_W     800
#define CHART_H     220
#define MARGIN_L    60
#define MARGIN_B    30
#define RANKS_DRAWN 16 /* beyond this, the ranks with the deepest queues */

report_series_t *report_job_series(report_job_t *job, const char *name, int rank, int n)
{
    /* a rank's record is read whole, one rank after another (the merge's
     * files, the collection's sequence): its series are the last ones, and
     * the search stops at the rank before (linear in ranks, not quadratic) */
    for (int i = job->nseries - 1; i >= 0 && job->series[i].rank == rank; i--)
        if (strcmp(job->series[i].name, name) == 0) {
            report_series_t *s = &job->series[i];
            double *t = realloc(s->t, sizeof *t * (size_t)n),
                   *v = t ? realloc(s->v, sizeof *v * (size_t)n) : NULL;
            if (t) s->t = t;
            if (!t || !v) return NULL;
            s->v = v;
            return s;
        }
    if (job->nseries == job->cap_series) {
        int cap = job->cap_series ? 2 * job->cap_series : 16;
        report_series_t *p = realloc(job->series, sizeof *p * (size_t)cap);
        if (!p) return NULL;
        job->series = p, job->cap_series = cap;
    }
    report_series_t *s = &job->series[job->nseries];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    s->rank = rank;
    s->t = malloc(sizeof *s->t * (size_t)n);
    s->v = malloc(sizeof *s->v * (size_t)n);
    if (!s->t || !s->v) {
        free(s->t), free(s->v);
        return NULL;
    }
    job->nseries++;
    return s;
}

static double peak(const report_series_t *s)
{
    double m = 0;
    for (int i = 0; i < s->n; i++)
        if (s->v[i] > m) m = s->v[i];
    return m;
}

/* a series and its peak, computed once (not at every comparison of the sort) */
typedef struct peaked {
    double peak;
    report_series_t *s;
} peaked_t;

static int by_peak(const void *a, const void *b)
{
    double x = ((const peaked_t *)a)->peak, y = ((const peaked_t *)b)->peak;
    return x < y ? 1 : x > y ? -1 : 0;
}

static void sort_by_peak(report_series_t **all, int n)
{
    peaked_t *p = malloc(sizeof *p * (size_t)(n ? n : 1));
    if (!p) return; /* the order only: unsorted */
    for (int i = 0; i < n; i++) p[i] = (peaked_t){peak(all[i]), all[i]};
    qsort(p, (size_t)n, sizeof *p, by_peak);
    for (int i = 0; i < n; i++) all[i] = p[i].s;
    free(p);
}

static void chart(FILE *out, const report_job_t *job, const char *name)
{
    report_series_t **all = malloc(sizeof *all * (size_t)job->nseries);
    int n = 0;
    if (!all) return;
    double t0 = 0, t1 = 0, vmax = 0;
    int first = 1;
    for (int i = 0; i < job->nseries; i++) {
        report_series_t *s = &job->series[i];
        if (strcmp(s->name, name) || s->n == 0) continue;
        all[n++] = s;
        for (int k = 0; k < s->n; k++) {
            if (first || s->t[k] < t0) t0 = s->t[k];
            if (first || s->t[k] > t1) t1 = s->t[k];
            if (s->v[k] > vmax) vmax = s->v[k];
            first = 0;
        }
    }
    sort_by_peak(all, n);
    int drawn = n < RANKS_DRAWN ? n : RANKS_DRAWN;
    const char *base = strncmp(name, "mpit:::", 7) ? name : name + 7;
    fputs("<h3>", out);
    report_xml_str(out, base);
    fputs("</h3>\n<p class=\"note\">", out);
    char top[32], from[32], to[32];
    report_fmt_num(top, sizeof top, vmax);
    report_fmt_seconds(from, sizeof from, t0);
    report_fmt_seconds(to, sizeof to, t1);
    fprintf(out, "Deepest: %s, from %s to %s after MPI_Init", top, from, to);
    if (drawn < n) fprintf(out, "; the %d ranks with the deepest queue of %d drawn", drawn, n);
    fputs(".</p>\n", out);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\">\n",
            CHART_W, CHART_H + MARGIN_B);
    double span = t1 > t0 ? t1 - t0 : 1, vs = vmax > 0 ? vmax : 1;
    int pw = CHART_W - MARGIN_L - 10, ph = CHART_H - 10;
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", MARGIN_L, 10 + ph,
            MARGIN_L + pw, 10 + ph);
    fprintf(out, "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#888\"/>\n", MARGIN_L, MARGIN_L,
            10 + ph);
    fprintf(out, "<text x=\"%d\" y=\"16\" font-size=\"11\" text-anchor=\"end\">%s</text>\n", MARGIN_L - 4,
            top);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">0</text>\n", MARGIN_L - 4,
            10 + ph);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n", MARGIN_L, CHART_H + 20, from);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%s</text>\n", MARGIN_L + pw,
            CHART_H + 20, to);
    for (int i = 0; i < drawn; i++) {
        const report_series_t *s = all[i];
        int hue = (int)(360.0 * i / (drawn ? drawn : 1));
        fprintf(out, "<polyline fill=\"none\" stroke=\"hsl(%d,70%%,40%%)\" stroke-width=\"1.5\" points=\"",
                hue);
        for (int k = 0; k < s->n; k++)
            fprintf(out, "%s%.1f,%.1f", k ? " " : "", MARGIN_L + pw * (s->t[k] - t0) / span,
                    10 + ph - ph * s->v[k] / vs);
        fprintf(out, "\"><title>rank %d (deepest %g)</title></polyline>\n", s->rank, peak(s));
    }
    fputs("</svg>\n<p class=\"note\">", out);
    for (int i = 0; i < drawn; i++) {
        int hue = (int)(360.0 * i / (drawn ? drawn : 1));
        fprintf(out, "%s<span style=\"color:hsl(%d,70%%,40%%)\">&#9632;</span> rank %d", i ? " " : "", hue,
                all[i]->rank);
    }
    fputs("</p>\n", out);
    free(all);
}

int report_queues_html(FILE *out, const report_job_t *job)
{
    if (!job->nseries) return 0;
    fputs("<h3 id=\"queues\">Queue depth over time</h3>\n<p class=\"note\">What the tool's sampler thread "
          "read of "
          "each queue length every sampling period (--sample-period), a line per rank; a rank keeps its last "
          "samples only (a bounded ring), so a long run shows its end.</p>\n",
          out);
    /* a chart per name, in the order they come: the names drawn so far are
     * few (the queue lengths a rank samples), the series one per rank and name */
    const char **drawn = malloc(sizeof *drawn * (size_t)job->nseries);
    int ndrawn = 0;
    if (!drawn) return -1;
    for (int i = 0; i < job->nseries; i++) {
        int seen = 0;
        for (int k = 0; k < ndrawn && !seen; k++) seen = strcmp(drawn[k], job->series[i].name) == 0;
        if (!seen) chart(out, job, drawn[ndrawn++] = job->series[i].name);
    }
    free(drawn);
    return ferror(out) ? -1 : 0;
}
