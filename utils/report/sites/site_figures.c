/*
 * papi-mpit-report: a call site's figures for people, shared by the
 * renderings of the sites (site_figures.h).  No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_figures.h"
#include "site_job.h"

long long sites_total_ns(const sites_job_t *j)
{
    long long t = 0;
    for (int i = 0; i < j->nsites; i++) t += j->sites[i].ns;
    return t;
}

/* the site's rank with the most (max=1) or least time, and the mean */
int sites_extreme_rank(const site_agg_t *s, int nprocs, int max, double *mean)
{
    int best = -1;
    long long sum = 0;
    for (int r = 0; r < nprocs; r++) {
        sum += s->rank_ns[r];
        if (best < 0 || (max ? s->rank_ns[r] > s->rank_ns[best] : s->rank_ns[r] < s->rank_ns[best])) best = r;
    }
    *mean = nprocs ? (double)sum / nprocs : 0;
    return best;
}

/* the site's calls per rank: the least and the most (their ranks) and the
 * mean, over all ranks (as extreme_rank does the time) */
void sites_calls_spread(const site_agg_t *s, int nprocs, long long *lo, int *lo_rank, double *mean,
                        long long *hi, int *hi_rank)
{
    long long sum = 0;
    *lo_rank = *hi_rank = -1;
    *lo = *hi = 0;
    for (int r = 0; r < nprocs; r++) {
        long long c = s->rank_calls[r];
        sum += c;
        if (*lo_rank < 0 || c < *lo) *lo = c, *lo_rank = r;
        if (*hi_rank < 0 || c > *hi) *hi = c, *hi_rank = r;
    }
    *mean = nprocs ? (double)sum / nprocs : 0;
}

/* the longest single call over the ranks (its rank), and the shortest
 * (its rank), among the ranks with calls here; -1: none */
int sites_call_extremes(const site_agg_t *s, int nprocs, long long *max, long long *min, int *min_rank)
{
    int hi = -1;
    *min_rank = -1;
    *max = *min = 0;
    for (int r = 0; r < nprocs; r++) {
        if (!s->rank_calls[r]) continue;
        if (hi < 0 || s->rank_max[r] > *max) *max = s->rank_max[r], hi = r;
        if (*min_rank < 0 || s->rank_min[r] < *min) *min = s->rank_min[r], *min_rank = r;
    }
    return hi;
}

void sites_site_name(char *b, size_t n, const site_agg_t *s)
{
    if (s->line && s->func[0])
        snprintf(b, n, "%s at %s (%s)", sites_fn_name(s->fn), s->label, s->func);
    else
        snprintf(b, n, "%s at %s", sites_fn_name(s->fn), s->label);
}

/* HTML text: & < > " escaped */
void sites_hesc(FILE *out, const char *s)
{
    for (; *s; s++) switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
}

void sites_peers_text(char *b, size_t n, const site_agg_t *s)
{
    /* the pair with the most bytes, and how many pairs there are */
    int best = -1;
    b[0] = '\0';
    for (int i = 0; i < s->npairs; i++)
        if (best < 0 || s->pairs[i].bytes > s->pairs[best].bytes) best = i;
    if (best < 0) return;
    const site_pair_t *p = &s->pairs[best];
    if (p->peer >= 0)
        snprintf(b, n, "%d-%d (of %d)", p->rank, p->peer, s->npairs);
    else
        snprintf(b, n, "%d-other (of %d)", p->rank, s->npairs);
}

void sites_site_texts(sites_texts_t *t, const sites_job_t *j, const site_agg_t *s)
{
    t->max_rank = sites_extreme_rank(s, j->nprocs, 1, &t->mean_ns);
    report_fmt_human(t->time, sizeof t->time, (double)s->ns, "ns");
    report_fmt_human(t->max, sizeof t->max, t->max_rank >= 0 ? (double)s->rank_ns[t->max_rank] : 0, "ns");
    report_fmt_human(t->mean, sizeof t->mean, t->mean_ns, "ns");
    report_fmt_human(t->sent, sizeof t->sent, (double)s->bytes_out, "bytes");
    report_fmt_human(t->received, sizeof t->received, (double)s->bytes_in, "bytes");
}
