/*
 * papi-mpit-report: the findings that open the report, from the call
 * sites: the most uneven site over the ranks, the heaviest pair, the
 * sites and pairs that stand out.  No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_figures.h"
#include "site_job.h"

/* the most uneven site that matters: max/mean over ranks, among those with
 * at least 5 % of the time in MPI; -1 for none above 1.5 */
static int uneven_site(const sites_job_t *j, double *ratio)
{
    long long all = sites_total_ns(j);
    int best = -1;
    *ratio = 0;
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        double mean;
        int r = sites_extreme_rank(s, j->nprocs, 1, &mean);
        if (j->nprocs < 2 || r < 0 || mean <= 0 || s->ns * 20 < all) continue;
        double q = s->rank_ns[r] / mean;
        if (q > *ratio) *ratio = q, best = i;
    }
    return *ratio >= 1.5 ? best : -1;
}

static int heaviest_cell(const sites_job_t *j, long long *all)
{
    int best = -1;
    *all = 0;
    for (int i = 0; i < j->ncells; i++) {
        *all += j->cells[i].bytes;
        if (best < 0 || j->cells[i].bytes > j->cells[best].bytes) best = i;
    }
    return best;
}

/* one finding: a sentence, then (html) the table it points to */
static void finding(FILE *out, int html, const char *text, const char *anchor)
{
    if (html) {
        fputs("<li>", out);
        sites_hesc(out, text);
        fprintf(out, " <a href=\"#%s\">table</a></li>\n", anchor);
    } else {
        fprintf(out, "  * %s\n", text);
    }
}

/* How far above the mean of its kind a pair or a site must be to be named */
#define STANDS_OUT 2.0

int sites_write_findings(FILE *out, const sites_job_t *j, int html)
{
    char t[1024], a[64], b[64], name[512];
    long long all = sites_total_ns(j);
    if (!j->nsites) return 0;
    if (html)
        fputs("<h2 id=\"findings\">Findings</h2>\n<ul class=\"findings\">\n", out);
    else
        fputs("findings:\n", out);
    const site_agg_t *top = &j->sites[0]; /* ordered by time */
    sites_site_name(name, sizeof name, top);
    report_fmt_human(a, sizeof a, (double)top->ns, "ns");
    snprintf(t, sizeof t, "Most time in MPI: %s, %s over %d rank%s (%.0f %% of all time in MPI calls).", name,
             a, top->nranks, top->nranks == 1 ? "" : "s", all ? 100.0 * (double)top->ns / (double)all : 0);
    finding(out, html, t, "sites");
    double q;
    int u = uneven_site(j, &q);
    if (u >= 0) {
        const site_agg_t *s = &j->sites[u];
        double mean;
        int r = sites_extreme_rank(s, j->nprocs, 1, &mean);
        sites_site_name(name, sizeof name, s);
        report_fmt_human(a, sizeof a, (double)s->rank_ns[r], "ns");
        report_fmt_human(b, sizeof b, mean, "ns");
        snprintf(t, sizeof t,
                 "Most uneven: %s: rank %d spends %s there, the mean over ranks is %s (max/mean %.1f).", name,
                 r, a, b, q);
        finding(out, html, t, "sites");
    }
    /* the site whose receives most often found their message waiting */
    int w = -1;
    double best = 0;
    for (int i = 0; j->watched && i < j->nsites; i++) {
        const site_agg_t *x = &j->sites[i];
        double share =
            x->found ? (double)x->found / (double)(x->msgs_in > x->found ? x->msgs_in : x->found) : 0;
        if (x->found > 0 && share > best) best = share, w = i;
    }
    if (w >= 0) {
        const site_agg_t *x = &j->sites[w];
        sites_site_name(name, sizeof name, x);
        if (x->msgs_in >= x->found)
            snprintf(t, sizeof t,
                     "Most often already waiting: %s found %.0f %% of its %lld message%s in the "
                     "unexpected queue (%lld).",
                     name, 100.0 * best, x->msgs_in, x->msgs_in == 1 ? "" : "s", x->found);
        else
            snprintf(t, sizeof t,
                     "Most often already waiting: %s found %lld message%s in the unexpected queue.", name,
                     x->found, x->found == 1 ? "" : "s");
        finding(out, html, t, "sites");
    }
    /* a pair or a site is named only where it stands out: at least
     * STANDS_OUT times the mean of its kind; even traffic is said once */
    long long p2p;
    int c = heaviest_cell(j, &p2p), npairs = 0;
    for (int i = 0; i < j->ncells; i++) npairs += j->cells[i].bytes > 0;
    if (c >= 0 && j->cells[c].bytes > 0) {
        const site_cell_t *x = &j->cells[c];
        double mean = (double)p2p / npairs;
        report_fmt_human(a, sizeof a, (double)x->bytes, "bytes");
        if (npairs > 1 && (double)x->bytes >= STANDS_OUT * mean) {
            report_fmt_human(b, sizeof b, mean, "bytes");
            snprintf(
                t, sizeof t,
                "Heaviest pair: rank %d sends rank %d %s in %lld message%s, %.1f times the mean pair's %s "
                "(%.0f %% of the point-to-point bytes).",
                x->sender, x->receiver, a, x->msgs, x->msgs == 1 ? "" : "s", (double)x->bytes / mean, b,
                100.0 * (double)x->bytes / (double)p2p);
        } else {
            char lo[64];
            long long least = x->bytes;
            for (int i = 0; i < j->ncells; i++)
                if (j->cells[i].bytes > 0 && j->cells[i].bytes < least) least = j->cells[i].bytes;
            report_fmt_human(lo, sizeof lo, (double)least, "bytes");
            snprintf(t, sizeof t, "Point-to-point traffic is even: %d pair%s of ranks, %s%s%s each.", npairs,
                     npairs == 1 ? "" : "s", least == x->bytes ? "" : lo, least == x->bytes ? "" : " to ", a);
        }
        finding(out, html, t, "p2p");
    }
    int most = -1, busy = 0;
    long long msgs = 0;
    for (int i = 0; i < j->nsites; i++) {
        long long m = j->sites[i].msgs_out + j->sites[i].msgs_in;
        if (m <= 0) continue;
        busy++;
        msgs += m;
        if (most < 0 || m > j->sites[most].msgs_out + j->sites[most].msgs_in) most = i;
    }
    if (most >= 0 && busy > 1 &&
        (double)(j->sites[most].msgs_out + j->sites[most].msgs_in) >= STANDS_OUT * (double)msgs / busy) {
        const site_agg_t *s = &j->sites[most];
        sites_site_name(name, sizeof name, s);
        long long m = s->msgs_out + s->msgs_in;
        report_fmt_human(a, sizeof a, (double)(s->bytes_out + s->bytes_in), "bytes");
        snprintf(t, sizeof t, "Most messages: %s, %lld message%s (%s) over %d rank%s.", name, m,
                 m == 1 ? "" : "s", a, s->nranks, s->nranks == 1 ? "" : "s");
        finding(out, html, t, "sites");
    }
    if (html) fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}
