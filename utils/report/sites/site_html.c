/*
 * papi-mpit-report: the call sites' section of report.html.  No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_figures.h"
#include "site_job.h"

#define P2P_HTML_ROWS 512 /* rows of report.html's point-to-point table, then the heaviest */

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
            fputs(" (", out), sites_hesc(out, j->off_reason), fputs(")", out);
        else
            sites_hesc(out, why);
        fputs(".</p>\n", out);
        return ferror(out) ? -1 : 0;
    }
    if (j->unseen[0]) fputs("<p class=\"note\">", out), sites_hesc(out, j->unseen), fputs(".</p>\n", out);
    if (j->overflow_sites || j->overflow_colls || j->untracked) /* as report.txt says it */
        fprintf(out,
                "<p class=\"note\" id=\"not-recorded\">Not recorded: %lld calls beyond the sites kept, %lld "
                "collectives beyond the cells kept, %lld requests beyond the tracked.</p>\n",
                j->overflow_sites, j->overflow_colls, j->untracked);
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
        sites_texts_t t;
        sites_site_texts(&t, j, s);
        long long cmin, cmax, lmax, lmin;
        int cmin_rank, cmax_rank, lmin_rank, tmin_rank;
        double cmean, tmean;
        sites_calls_spread(s, j->nprocs, &cmin, &cmin_rank, &cmean, &cmax, &cmax_rank);
        int lmax_rank = sites_call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
        tmin_rank = sites_extreme_rank(s, j->nprocs, 0, &tmean);
        char tmin[32], longest[32], shortest[32];
        report_fmt_human(tmin, sizeof tmin, tmin_rank >= 0 ? (double)s->rank_ns[tmin_rank] : 0, "ns");
        report_fmt_human(longest, sizeof longest, (double)lmax, "ns");
        report_fmt_human(shortest, sizeof shortest, (double)lmin, "ns");
        fputs("<tr><td>", out);
        sites_hesc(out, s->label);
        fputs("</td><td>", out);
        sites_hesc(out, s->func);
        if (s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON)
            fputs(" via ", out), sites_hesc(out, s->via);
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
