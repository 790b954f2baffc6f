/*
 * papi-mpit-report: the call sites rendered: the findings that open the
 * report, the table of the heaviest sites, sites.csv, the program's
 * point-to-point matrix (p2p.csv: what the program's sends asked for, as
 * its wrappers saw them; not Open MPI's wire-level matrix.csv), the
 * collectives by call and root (collectives.csv), report.json's members
 * (through jansson) and report.html's section.  No MPI.
 */
#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_job.h"

#define TOP_SITES     10
#define P2P_HTML_ROWS 512 /* rows of report.html's point-to-point table, then the heaviest */

static void human(char *b, size_t n, double v, const char *units) { report_fmt_human(b, n, v, units); }

static long long total_ns(const sites_job_t *j)
{
    long long t = 0;
    for (int i = 0; i < j->nsites; i++) t += j->sites[i].ns;
    return t;
}

/* the site's rank with the most (max=1) or least time, and the mean */
static int extreme_rank(const site_agg_t *s, int nprocs, int max, double *mean)
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
static void calls_spread(const site_agg_t *s, int nprocs, long long *lo, int *lo_rank, double *mean,
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
static int call_extremes(const site_agg_t *s, int nprocs, long long *max, long long *min, int *min_rank)
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

static void site_name(char *b, size_t n, const site_agg_t *s)
{
    if (s->line && s->func[0])
        snprintf(b, n, "%s at %s (%s)", sites_fn_name(s->fn), s->label, s->func);
    else
        snprintf(b, n, "%s at %s", sites_fn_name(s->fn), s->label);
}

/* the most uneven site that matters: max/mean over ranks, among those with
 * at least 5 % of the time in MPI; -1 for none above 1.5 */
static int uneven_site(const sites_job_t *j, double *ratio)
{
    long long all = total_ns(j);
    int best = -1;
    *ratio = 0;
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        double mean;
        int r = extreme_rank(s, j->nprocs, 1, &mean);
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

/* HTML text: & < > " escaped */
static void hesc(FILE *out, const char *s)
{
    for (; *s; s++) switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
}

/* one finding: a sentence, then (html) the table it points to */
static void finding(FILE *out, int html, const char *text, const char *anchor)
{
    if (html) {
        fputs("<li>", out);
        hesc(out, text);
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
    long long all = total_ns(j);
    if (!j->nsites) return 0;
    if (html)
        fputs("<h2 id=\"findings\">Findings</h2>\n<ul class=\"findings\">\n", out);
    else
        fputs("findings:\n", out);
    const site_agg_t *top = &j->sites[0]; /* ordered by time */
    site_name(name, sizeof name, top);
    human(a, sizeof a, (double)top->ns, "ns");
    snprintf(t, sizeof t, "Most time in MPI: %s, %s over %d rank%s (%.0f %% of all time in MPI calls).", name,
             a, top->nranks, top->nranks == 1 ? "" : "s", all ? 100.0 * (double)top->ns / (double)all : 0);
    finding(out, html, t, "sites");
    double q;
    int u = uneven_site(j, &q);
    if (u >= 0) {
        const site_agg_t *s = &j->sites[u];
        double mean;
        int r = extreme_rank(s, j->nprocs, 1, &mean);
        site_name(name, sizeof name, s);
        human(a, sizeof a, (double)s->rank_ns[r], "ns");
        human(b, sizeof b, mean, "ns");
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
        site_name(name, sizeof name, x);
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
        human(a, sizeof a, (double)x->bytes, "bytes");
        if (npairs > 1 && (double)x->bytes >= STANDS_OUT * mean) {
            human(b, sizeof b, mean, "bytes");
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
            human(lo, sizeof lo, (double)least, "bytes");
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
        site_name(name, sizeof name, s);
        long long m = s->msgs_out + s->msgs_in;
        human(a, sizeof a, (double)(s->bytes_out + s->bytes_in), "bytes");
        snprintf(t, sizeof t, "Most messages: %s, %lld message%s (%s) over %d rank%s.", name, m,
                 m == 1 ? "" : "s", a, s->nranks, s->nranks == 1 ? "" : "s");
        finding(out, html, t, "sites");
    }
    if (html) fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}

static void peers_text(char *b, size_t n, const site_agg_t *s)
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

/* a site's figures for people: total time, the busiest rank's and the mean, bytes */
typedef struct site_texts {
    char time[32], max[32], mean[32], sent[32], received[32];
    int max_rank;
    double mean_ns;
} site_texts_t;

static void site_texts(site_texts_t *t, const sites_job_t *j, const site_agg_t *s)
{
    t->max_rank = extreme_rank(s, j->nprocs, 1, &t->mean_ns);
    human(t->time, sizeof t->time, (double)s->ns, "ns");
    human(t->max, sizeof t->max, t->max_rank >= 0 ? (double)s->rank_ns[t->max_rank] : 0, "ns");
    human(t->mean, sizeof t->mean, t->mean_ns, "ns");
    human(t->sent, sizeof t->sent, (double)s->bytes_out, "bytes");
    human(t->received, sizeof t->received, (double)s->bytes_in, "bytes");
}

#define GRID_MAX 16 /* ranks drawn as a grid; more: the heaviest pairs */

/* the program's point-to-point bytes, sender by receiver */
static void write_matrix_text(FILE *out, const sites_job_t *j)
{
    char b[32];
    if (!j->ncells) return;
    if (j->nprocs <= GRID_MAX) {
        fputs("\npoint-to-point bytes as the program sent them (row: sender, column: receiver; all in "
              "p2p.csv with "
              "-o):\n     ",
              out);
        for (int c = 0; c < j->nprocs; c++) fprintf(out, " %9d", c);
        fputc('\n', out);
        for (int r = 0, k = 0; r < j->nprocs; r++) {
            fprintf(out, "  %3d", r);
            for (int c = 0; c < j->nprocs; c++) {
                long long v = 0;
                while (k < j->ncells &&
                       (j->cells[k].sender < r || (j->cells[k].sender == r && j->cells[k].receiver < c)))
                    k++;
                if (k < j->ncells && j->cells[k].sender == r && j->cells[k].receiver == c)
                    v = j->cells[k].bytes;
                if (v)
                    human(b, sizeof b, (double)v, "bytes");
                else
                    snprintf(b, sizeof b, ".");
                fprintf(out, " %9s", b);
            }
            fputc('\n', out);
        }
        return;
    }
    /* too many ranks for a grid: the ten heaviest pairs */
    fputs("\npoint-to-point: the heaviest sender-receiver pairs (all in p2p.csv with -o):\n", out);
    unsigned char *shown = calloc((size_t)j->ncells, 1);
    for (int n = 0; shown && n < 10 && n < j->ncells; n++) {
        int best = -1;
        for (int i = 0; i < j->ncells; i++)
            if (!shown[i] && (best < 0 || j->cells[i].bytes > j->cells[best].bytes)) best = i;
        shown[best] = 1;
        human(b, sizeof b, (double)j->cells[best].bytes, "bytes");
        fprintf(out, "  %d -> %d: %s in %lld messages\n", j->cells[best].sender, j->cells[best].receiver, b,
                j->cells[best].msgs);
    }
    free(shown);
}

/* report.html's point-to-point rows: every pair up to P2P_HTML_ROWS, else
 * the heaviest (by bytes) and a row saying how many more (a page of one
 * row per pair at 16384 ranks took seconds to open; report.json and
 * p2p.csv keep them all) */
static const site_cell_t *cmp_cells;
static int by_bytes_desc(const void *a, const void *b)
{
    const site_cell_t *x = &cmp_cells[*(const int *)a], *y = &cmp_cells[*(const int *)b];
    if (x->bytes != y->bytes) return x->bytes > y->bytes ? -1 : 1;
    return *(const int *)a - *(const int *)b;
}

static void p2p_html_rows(FILE *out, const sites_job_t *j)
{
    int n = j->ncells, *order = NULL;
    if (n > P2P_HTML_ROWS && (order = malloc(sizeof *order * (size_t)n))) {
        for (int i = 0; i < n; i++) order[i] = i;
        cmp_cells = j->cells;
        qsort(order, (size_t)n, sizeof *order, by_bytes_desc);
        n = P2P_HTML_ROWS;
    }
    for (int k = 0; k < n; k++) {
        const site_cell_t *c = &j->cells[order ? order[k] : k];
        fprintf(out, "<tr><td>%d</td><td>%d</td><td>%lld</td><td data-v=\"%lld\">%lld</td></tr>\n", c->sender,
                c->receiver, c->msgs, c->bytes, c->bytes);
    }
    if (order)
        fprintf(
            out,
            "<tr><td colspan=\"4\">the %d heaviest pairs of %d: every pair is in report.json (and p2p.csv "
            "with -o)</td></tr>\n",
            n, j->ncells);
    free(order);
}

int sites_write_table(FILE *out, const sites_job_t *j)
{
    if (!j->nsites) return ferror(out) ? -1 : 0; /* said at the top (sites_unseen_line) */
    int n = j->nsites < TOP_SITES ? j->nsites : TOP_SITES;
    fprintf(out,
            "\ncall sites (%d of %d, by time in the call over all ranks; every site in sites.csv with -o):\n",
            n, j->nsites);
    fprintf(out, "  %-28s %-18s %10s %10s %10s %10s %10s %10s %8s  %s\n", "site", "call", "calls", "time",
            "max/rank", "mean/rank", "sent", "received", j->watched ? "waiting" : "",
            "top pair (sender-receiver)");
    for (int i = 0; i < n; i++) {
        const site_agg_t *s = &j->sites[i];
        site_texts_t t;
        char pr[64];
        site_texts(&t, j, s);
        peers_text(pr, sizeof pr, s);
        char fw[32] = "";
        if (j->watched) snprintf(fw, sizeof fw, "%lld", s->found);
        fprintf(out, "  %-28s %-18s %10lld %10s %10s %10s %10s %10s %8s  %s\n", s->label,
                sites_fn_name(s->fn), s->calls, t.time, t.max, t.mean, t.sent, t.received, fw, pr);
    }
    if (j->watched)
        fprintf(
            out,
            "  waiting: receives posted at the site that found their message already in the unexpected queue "
            "(MPI_T events, %d rank%s); outside the program's calls: %lld\n",
            j->watched, j->watched == 1 ? "" : "s", j->found_outside);
    int behind = 0, none = 0;
    for (int i = 0; i < j->nsites; i++) {
        behind += j->sites[i].how == SITES_PROG_NATIVE || j->sites[i].how == SITES_PROG_PYTHON;
        none += j->sites[i].how == SITES_PROG_NONE || j->sites[i].how == SITES_PROG_NOPY;
    }
    if (behind || none)
        fprintf(out,
                "  %d site%s named by the program's line behind a library (sites.csv's via: the library's "
                "line); %d inside a library with no program frame within --site-depth %d\n",
                behind, behind == 1 ? "" : "s", none, j->depth);
    if (j->frames_why[0]) fprintf(out, "  program lines: %s\n", j->frames_why);
    for (int i = 0; i < j->nnolines; i++)
        fprintf(out, "  no line information for %s (no -g, and no separate debug file found)\n",
                j->nolines[i]);
    write_matrix_text(out, j);
    if (j->overflow_sites || j->overflow_colls || j->untracked)
        fprintf(
            out,
            "  not recorded: %lld calls beyond the sites kept, %lld collectives beyond the cells kept, %lld "
            "requests beyond the tracked\n",
            j->overflow_sites, j->overflow_colls, j->untracked);
    return ferror(out) ? -1 : 0;
}

static void csv_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int sites_write_csv(FILE *out, const sites_job_t *j)
{
    fputs("call,file,line,function,module,offset,calls,time_ns,ranks,time_min_ns,time_min_rank,time_mean_ns,"
          "time_max_ns,time_max_rank,msgs_sent,bytes_sent,msgs_received,bytes_received,via,call_max_ns,"
          "call_max_rank,call_min_ns,call_min_rank\n",
          out);
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        double mean;
        int lo = extreme_rank(s, j->nprocs, 0, &mean), hi = extreme_rank(s, j->nprocs, 1, &mean);
        fprintf(out, "%s,", sites_fn_name(s->fn));
        csv_text(out, s->file);
        fprintf(out, ",%d,", s->line);
        csv_text(out, s->func);
        fputc(',', out);
        csv_text(out, s->module);
        fprintf(out, ",0x%lx,%lld,%lld,%d,%lld,%d,%.1f,%lld,%d,%lld,%lld,%lld,%lld,", s->off, s->calls, s->ns,
                s->nranks, lo >= 0 ? s->rank_ns[lo] : 0, lo, mean, hi >= 0 ? s->rank_ns[hi] : 0, hi,
                s->msgs_out, s->bytes_out, s->msgs_in, s->bytes_in);
        csv_text(out, s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON ? s->via : "");
        long long lmax, lmin;
        int lmin_rank, lmax_rank = call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
        fprintf(out, ",%lld,%d,%lld,%d\n", lmax, lmax_rank, lmin, lmin_rank);
    }
    return ferror(out) ? -1 : 0;
}

int sites_write_p2p_csv(FILE *out, const sites_job_t *j)
{
    fputs("sender,receiver,messages,bytes\n", out);
    for (int i = 0; i < j->ncells; i++)
        fprintf(out, "%d,%d,%lld,%lld\n", j->cells[i].sender, j->cells[i].receiver, j->cells[i].msgs,
                j->cells[i].bytes);
    return ferror(out) ? -1 : 0;
}

int sites_write_colls_csv(FILE *out, const sites_job_t *j)
{
    fputs("call,root,calls,bytes\n", out);
    for (int i = 0; i < j->ncolls; i++) {
        fprintf(out, "%s,", sites_fn_name(j->colls[i].fn));
        if (j->colls[i].root >= 0) fprintf(out, "%d", j->colls[i].root);
        fprintf(out, ",%lld,%lld\n", j->colls[i].calls, j->colls[i].bytes);
    }
    return ferror(out) ? -1 : 0;
}

static json_t *site_json(const sites_job_t *j, const site_agg_t *s)
{
    double mean;
    int lo = extreme_rank(s, j->nprocs, 0, &mean), hi = extreme_rank(s, j->nprocs, 1, &mean);
    json_t *hist = json_array(), *pairs = json_array(), *time = json_array(), *calls = json_array();
    for (int b = 0; b < SITES_JOB_HIST; b++)
        if (s->hist[b])
            json_array_append_new(
                hist, json_pack("{s:I,s:I,s:I}", "from", (json_int_t)(b ? 1LL << (b - 1) : 0), "below",
                                (json_int_t)(b ? 1LL << b : 1), "count", (json_int_t)s->hist[b]));
    for (int p = 0; p < s->npairs; p++) {
        const site_pair_t *x = &s->pairs[p];
        json_t *peer = x->peer >= 0 ? json_integer(x->peer) : json_null();
        json_array_append_new(pairs, json_pack("{s:i,s:o,s:I,s:I}", "rank", x->rank, "peer", peer, "messages",
                                               (json_int_t)x->msgs, "bytes", (json_int_t)x->bytes));
    }
    json_t *longest = json_array(), *shortest = json_array();
    for (int r = 0; r < j->nprocs; r++) {
        json_array_append_new(time, json_integer(s->rank_ns[r]));
        json_array_append_new(calls, json_integer(s->rank_calls[r]));
        /* null where the rank made no call here */
        json_array_append_new(longest, s->rank_calls[r] ? json_integer(s->rank_max[r]) : json_null());
        json_array_append_new(shortest, s->rank_calls[r] ? json_integer(s->rank_min[r]) : json_null());
    }
    long long cmin, cmax, lmax, lmin;
    int cmin_rank, cmax_rank, lmin_rank;
    double cmean;
    calls_spread(s, j->nprocs, &cmin, &cmin_rank, &cmean, &cmax, &cmax_rank);
    int lmax_rank = call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
    json_t *o = json_pack(
        "{s:s,s:s,s:i,s:s,s:s,s:s,s:I,s:I,s:I,s:{s:I,s:i,s:f,s:I,s:i},s:I,s:I,s:I,s:I,s:o,s:o,s:o,s:o}",
        "call", sites_fn_name(s->fn), "file", s->file, "line", s->line, "function", s->func, "label",
        s->label, "module", s->module, "offset", (json_int_t)s->off, "calls", (json_int_t)s->calls, "time_ns",
        (json_int_t)s->ns, "time_per_rank", "min_ns", (json_int_t)(lo >= 0 ? s->rank_ns[lo] : 0), "min_rank",
        lo, "mean_ns", mean, "max_ns", (json_int_t)(hi >= 0 ? s->rank_ns[hi] : 0), "max_rank", hi,
        "messages_sent", (json_int_t)s->msgs_out, "bytes_sent", (json_int_t)s->bytes_out, "messages_received",
        (json_int_t)s->msgs_in, "bytes_received", (json_int_t)s->bytes_in, "sizes", hist, "pairs", pairs,
        "rank_time_ns", time, "rank_calls", calls);
    /* null where the MPI does not tell (no MPI_T event for it) */
    if (o) json_object_set_new(o, "found_waiting", j->watched ? json_integer(s->found) : json_null());
    /* mpiP's figures: the calls' spread over the ranks, and the longest
     * and shortest single call, per rank and over them */
    if (o) {
        json_object_set_new(o, "calls_per_rank",
                            json_pack("{s:I,s:i,s:f,s:I,s:i}", "min", (json_int_t)cmin, "min_rank", cmin_rank,
                                      "mean", cmean, "max", (json_int_t)cmax, "max_rank", cmax_rank));
        json_object_set_new(o, "call_ns",
                            lmax_rank < 0
                                ? json_null()
                                : json_pack("{s:I,s:i,s:I,s:i}", "max", (json_int_t)lmax, "max_rank",
                                            lmax_rank, "min", (json_int_t)lmin, "min_rank", lmin_rank));
        json_object_set_new(o, "rank_max_call_ns", longest);
        json_object_set_new(o, "rank_min_call_ns", shortest);
    } else {
        json_decref(longest), json_decref(shortest);
    }
    /* where the program line comes from (site_frames.h), and the library's
     * caller frame behind it */
    static const char *const how[] = {"own", "behind_library", "python", "not_found", "python_unreadable"};
    if (o)
        json_object_set_new(o, "program_line", json_string(s->how >= 0 && s->how <= 4 ? how[s->how] : "?"));
    json_t *via = json_null();
    if (s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON)
        via =
            json_pack("{s:s,s:s,s:i,s:s,s:s,s:I}", "label", s->via, "file", s->via_file, "line", s->via_line,
                      "function", s->via_func, "module", s->module, "offset", (json_int_t)s->off);
    if (o)
        json_object_set_new(o, "via", via ? via : json_null());
    else
        json_decref(via);
    return o;
}

int sites_json(json_t *obj, const sites_job_t *j)
{
    json_t *sites = json_array(), *cells = json_array(), *colls = json_array();
    for (int i = 0; i < j->nsites; i++) json_array_append_new(sites, site_json(j, &j->sites[i]));
    for (int i = 0; i < j->ncells; i++)
        json_array_append_new(cells, json_pack("{s:i,s:i,s:I,s:I}", "sender", j->cells[i].sender, "receiver",
                                               j->cells[i].receiver, "messages", (json_int_t)j->cells[i].msgs,
                                               "bytes", (json_int_t)j->cells[i].bytes));
    for (int i = 0; i < j->ncolls; i++) {
        json_t *root = j->colls[i].root >= 0 ? json_integer(j->colls[i].root) : json_null();
        json_array_append_new(colls, json_pack("{s:s,s:o,s:I,s:I}", "call", sites_fn_name(j->colls[i].fn),
                                               "root", root, "calls", (json_int_t)j->colls[i].calls, "bytes",
                                               (json_int_t)j->colls[i].bytes));
    }
    json_t *doc = json_pack(
        "{s:{s:s,s:o,s:{s:I,s:I,s:I},s:s},s:{s:s,s:o,s:I},s:{s:s,s:o}}", "call_sites", "counts",
        "per call site of the program (the caller's address): calls and wall time inside the call, per rank "
        "and summed, with the longest and shortest single call per rank (ns); bytes and messages sent and "
        "received by the messages each site posted",
        "sites", sites, "not_recorded", "calls", (json_int_t)j->overflow_sites, "collectives",
        (json_int_t)j->overflow_colls, "requests", (json_int_t)j->untracked, "why_none", j->off_reason,
        "program_matrix", "counts",
        "point-to-point messages and bytes by sender and receiver (ranks of MPI_COMM_WORLD) as the program's "
        "send "
        "calls asked for them, counted in the tool's wrappers on every MPI; not the wire-level traffic of "
        "matrix (Open MPI's monitoring, --matrix)",
        "cells", cells, "to_other", (json_int_t)j->p2p_other, "collectives", "counts",
        "calls (summed over ranks) and bytes each rank put in (its send side), by call and root (rank of "
        "MPI_COMM_WORLD, null for none)",
        "by_call_and_root", colls);
    if (!doc) return -1;
    json_t *cs = json_object_get(doc, "call_sites");
    json_object_set_new(cs, "unseen", j->unseen[0] ? json_string(j->unseen) : json_null());
    json_object_set_new(cs, "found_waiting_ranks", json_integer(j->watched));
    json_object_set_new(cs, "found_waiting_outside_calls",
                        j->watched ? json_integer(j->found_outside) : json_null());
    json_t *nolines = json_array();
    for (int i = 0; i < j->nnolines; i++) json_array_append_new(nolines, json_string(j->nolines[i]));
    json_object_set_new(cs, "depth", json_integer(j->depth));
    json_object_set_new(cs, "program_lines_off", j->frames_why[0] ? json_string(j->frames_why) : json_null());
    json_object_set_new(cs, "modules_without_lines", nolines);
    /* the members of report.json's object, in this order */
    int bad = json_object_update(obj, doc);
    json_decref(doc);
    return bad ? -1 : 0;
}

/* the program's own point-to-point as a sender x receiver heatmap, on any MPI */
static void p2p_html(FILE *out, const sites_job_t *j)
{
    fputs("<p class=\"note\">Messages and bytes of the program's sends by sender and receiver (ranks of "
          "MPI_COMM_WORLD), counted in the tool's wrappers on any MPI: what the program asked for, not what "
          "went on the wire (that is the Communication matrix, from Open MPI's monitoring, with --matrix). "
          "Every pair is in p2p.csv; the table below has the heaviest.</p>\n",
          out);
    if (!j->ncells) {
        fputs("<p>No point-to-point message was sent.</p>\n", out);
        return;
    }
    report_cell_t *cells = malloc(sizeof *cells * (size_t)j->ncells);
    if (!cells) return;
    for (int i = 0; i < j->ncells; i++)
        cells[i] =
            (report_cell_t){j->cells[i].sender, j->cells[i].receiver, j->cells[i].msgs, j->cells[i].bytes};
    report_heatmap_t h = {.cells = cells,
                          .ncells = j->ncells,
                          .nprocs = j->nprocs,
                          .name = "p2p",
                          .title = "the program's point-to-point",
                          .axes = "row: sending rank, column: receiving rank",
                          .axis = {"sender rank", "receiver rank"},
                          .counts_msgs = 1};
    int w = report_heatmap_width(), ht = report_heatmap_height(&h);
    fprintf(out,
            "<svg id=\"p2p-heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
            w, ht, w, ht);
    report_heatmap_panel(out, &h, 0);
    fputs("</svg>\n", out);
    free(cells);
}

int sites_write_html(FILE *out, const sites_job_t *j)
{
    fputs("<h2 id=\"sites\">Call sites</h2>\n", out);
    if (!j->nsites) {
        /* why, as the first screen says it (sites_unseen_line) */
        static const char head[] = "call sites: none recorded";
        const char *why = strncmp(j->unseen, head, sizeof head - 1) == 0 ? j->unseen + sizeof head - 1 : "";
        fputs("<p>No call site was recorded", out);
        if (j->off_reason[0])
            fputs(" (", out), hesc(out, j->off_reason), fputs(")", out);
        else
            hesc(out, why);
        fputs(".</p>\n", out);
        return ferror(out) ? -1 : 0;
    }
    if (j->unseen[0]) fputs("<p class=\"note\">", out), hesc(out, j->unseen), fputs(".</p>\n", out);
    double mn, me, mx;
    int lo, hi;
    if (!report_stats_nan(j->rank_share, j->rank_share ? j->nprocs : 0, &mn, &lo, &me, &mx, &hi))
        fprintf(out,
                "<p id=\"mpi-share\">Time in MPI (each rank's call sites' time over its run, MPI_Init to "
                "MPI_Finalize): least %.1f %% (rank %d), mean %.1f %%, most %.1f %% (rank %d). Every rank's "
                "is in report.json (rank_mpi_share) and ranks.csv.</p>\n",
                100 * mn, lo, 100 * me, 100 * mx, hi);
    fputs(
        "<p class=\"note\">Each MPI call of the program, by the line that made it (file:line where the "
        "program has debug information, function+offset otherwise): calls and wall time inside the call "
        "summed over ranks, their spread over the ranks (the least, the mean and the most, with the rank "
        "holding each extreme), the longest and the shortest single call (and the rank that made it), and "
        "the messages each site posted (a nonblocking receive's message is charged where it was posted, its "
        "completion gets the call and the time). Click a column to sort.</p>\n",
        out);
    fputs(
        "<table class=\"sortable\" id=\"sites-table\"><thead><tr><th>site</th><th>function</th><th>call</th>"
        "<th>calls</th><th>calls/rank min</th><th>mean</th><th>max</th><th>time</th><th>time/rank "
        "min</th><th>mean</th><th>max</th><th>longest call</th><th>shortest call</th><th>sent</th>"
        "<th>received</th><th>messages</th></tr></thead><tbody>\n",
        out);
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        site_texts_t t;
        site_texts(&t, j, s);
        long long cmin, cmax, lmax, lmin;
        int cmin_rank, cmax_rank, lmin_rank, tmin_rank;
        double cmean, tmean;
        calls_spread(s, j->nprocs, &cmin, &cmin_rank, &cmean, &cmax, &cmax_rank);
        int lmax_rank = call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
        tmin_rank = extreme_rank(s, j->nprocs, 0, &tmean);
        char tmin[32], longest[32], shortest[32];
        human(tmin, sizeof tmin, tmin_rank >= 0 ? (double)s->rank_ns[tmin_rank] : 0, "ns");
        human(longest, sizeof longest, (double)lmax, "ns");
        human(shortest, sizeof shortest, (double)lmin, "ns");
        fputs("<tr><td>", out);
        hesc(out, s->label);
        fputs("</td><td>", out);
        hesc(out, s->func);
        if (s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON)
            fputs(" via ", out), hesc(out, s->via);
        fprintf(out,
                "</td><td>%s</td><td data-v=\"%lld\">%lld</td><td data-v=\"%lld\">%lld (rank %d)</td><td "
                "data-v=\"%.1f\">%.1f</td><td data-v=\"%lld\">%lld (rank %d)</td>",
                sites_fn_name(s->fn), s->calls, s->calls, cmin, cmin, cmin_rank, cmean, cmean, cmax, cmax,
                cmax_rank);
        fprintf(
            out,
            "<td data-v=\"%lld\">%s</td><td data-v=\"%lld\">%s (rank %d)</td><td data-v=\"%.0f\">%s</td><td "
            "data-v=\"%lld\">%s (rank %d)</td><td data-v=\"%lld\">%s (rank %d)</td><td "
            "data-v=\"%lld\">%s (rank %d)</td>",
            s->ns, t.time, tmin_rank >= 0 ? s->rank_ns[tmin_rank] : 0, tmin, tmin_rank, t.mean_ns, t.mean,
            t.max_rank >= 0 ? s->rank_ns[t.max_rank] : 0, t.max, t.max_rank, lmax, longest, lmax_rank, lmin,
            shortest, lmin_rank);
        fprintf(out,
                "<td data-v=\"%lld\">%s</td><td data-v=\"%lld\">%s</td><td data-v=\"%lld\">%lld</td></tr>\n",
                s->bytes_out, t.sent, s->bytes_in, t.received, s->msgs_out + s->msgs_in,
                s->msgs_out + s->msgs_in);
    }
    fputs("</tbody></table>\n", out);
    fputs("<h3 id=\"p2p\">Point-to-point, as the program asked</h3>\n", out);
    p2p_html(out, j);
    fputs("<table class=\"sortable\"><thead><tr><th>sender</th><th>receiver</th>"
          "<th>messages</th><th>bytes</th></tr></thead><tbody>\n",
          out);
    p2p_html_rows(out, j);
    fputs("</tbody></table>\n<h3 id=\"collectives\">Collectives by call and root</h3>\n<table "
          "class=\"sortable\">"
          "<thead><tr><th>call</th><th>root</th><th>calls (all ranks)</th><th>bytes put in</th></tr></thead>"
          "<tbody>\n",
          out);
    for (int i = 0; i < j->ncolls; i++) {
        fprintf(out, "<tr><td>%s</td><td>", sites_fn_name(j->colls[i].fn));
        if (j->colls[i].root >= 0) fprintf(out, "%d", j->colls[i].root);
        fprintf(out, "</td><td>%lld</td><td data-v=\"%lld\">%lld</td></tr>\n", j->colls[i].calls,
                j->colls[i].bytes, j->colls[i].bytes);
    }
    fputs("</tbody></table>\n", out);
    return ferror(out) ? -1 : 0;
}
