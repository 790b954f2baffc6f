/*
 * papi-mpit-report: report.html, the page a person reads first.  One file,
 * nothing fetched: the overview heatmap (report_overview.c), what stands
 * out in words, the summary table (sortable by a small inline script), a
 * bar chart per event that varies, the receiver x sender matrix, the events
 * not measured and why, and the run's facts.  Every number comes from the
 * same report_job_t that report.json is written from, and the exact value
 * is in the element's data-v attribute, formatted as in report.json.
 * Pure C, no MPI, no PAPI.  Over 600 lines and kept whole: its sections are
 * parts of one page, each a few dozen lines, sharing the number cells.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#define H report_xml_str

static const char STYLE[] =
    "body{font:14px/1.45 sans-serif;color:#222;margin:0 auto;padding:0 18px 40px;max-width:1220px}\n"
    "h1{font-size:22px;margin:18px 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #ccc}\n"
    "nav a{margin-right:14px}.lead{color:#444;margin:2px 0}code{font-size:13px}\n"
    ".glance{background:#f4f7fb;border:1px solid #c9d6e6;padding:8px 14px;margin:12px 0}\n"
    ".glance li{margin:3px 0}svg{max-width:100%;height:auto;display:block}\n"
    "#readout{font-family:monospace;min-height:1.4em;color:#135;margin:4px 0}\n"
    "table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ccc;padding:3px "
    "8px;text-align:left}\n"
    "th{background:#eef1f5}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    "table.sortable th{cursor:pointer}table.sortable th[aria-sort=ascending]::after{content:' \\25B2'}\n"
    "table.sortable th[aria-sort=descending]::after{content:' \\25BC'}\n"
    ".note{color:#555}dt{font-weight:bold;float:left;clear:left;width:150px}dd{margin:0 0 4px 160px}\n";

/* Sorting the summary table by a column (numbers by data-v, the rest as
 * text; empty last), and the hovered heatmap cell's value above the map. */
static const char SCRIPT[] =
    "(function(){\n"
    "var ro=document.getElementById('readout');\n"
    "document.querySelectorAll('svg.overview').forEach(function(s){\n"
    " s.addEventListener('mouseover',function(ev){var t=ev.target;\n"
    "  "
    "if(ro&&t.classList&&t.classList.contains('cell'))ro.textContent=t.querySelector('title').textContent;});"
    "});\n"
    "function key(td){if(!td)return null;if(td.hasAttribute('data-v'))return "
    "parseFloat(td.getAttribute('data-v'));\n"
    " var s=td.textContent.trim();return s===''?null:s;}\n"
    "document.querySelectorAll('table.sortable').forEach(function(tab){\n"
    " var ths=tab.tHead.rows[0].cells;\n"
    " [].forEach.call(ths,function(th,i){th.addEventListener('click',function(){\n"
    "  var up=th.getAttribute('aria-sort')!=='ascending',tb=tab.tBodies[0],rows=[].slice.call(tb.rows);\n"
    "  rows.sort(function(a,b){var x=key(a.cells[i]),y=key(b.cells[i]);\n"
    "   if(x===null||y===null)return (x===null)-(y===null);\n"
    "   var c=typeof x==='number'&&typeof y==='number'?x-y:String(x).localeCompare(String(y));\n"
    "   return up?c:-c;});\n"
    "  rows.forEach(function(r){tb.appendChild(r);});\n"
    "  [].forEach.call(ths,function(h){h.removeAttribute('aria-sort');});\n"
    "  th.setAttribute('aria-sort',up?'ascending':'descending');});});});\n"
    "})();\n";

static double max_elapsed(const report_job_t *job, double *lo)
{
    double m = 0;
    *lo = -1;
    for (int r = 0; r < job->nprocs; r++) {
        if (report_rank_missing(job, r)) continue; /* no state: no time */
        if (*lo < 0) *lo = job->elapsed[r];
        if (job->elapsed[r] > m) m = job->elapsed[r];
        if (job->elapsed[r] < *lo) *lo = job->elapsed[r];
    }
    if (*lo < 0) *lo = 0;
    return m;
}

/* A number cell: the exact value in data-v (what sorting uses) and, when
 * the text is rounded (KiB, ms), in the tooltip with its units; the value for
 * people inside. */
static void num_td(FILE *out, double v, const char *units)
{
    char exact[64], shown[64];
    report_fmt_json_num(exact, sizeof exact, v);
    report_fmt_human(shown, sizeof shown, v, units);
    fprintf(out, "<td class=\"n\" data-v=\"%s\"", exact);
    if (report_unit_kind(units, NULL) != REPORT_UNIT_NONE) {
        fprintf(out, " title=\"%s ", exact);
        H(out, units);
        fputc('"', out);
    }
    fprintf(out, ">%s</td>", shown);
}

/* Inline text: the value for people, the exact one in the tooltip (when rounded). */
static void num_span(FILE *out, double v, const char *units)
{
    char exact[64], shown[64];
    report_fmt_json_num(exact, sizeof exact, v);
    report_fmt_human(shown, sizeof shown, v, units);
    if (report_unit_kind(units, NULL) == REPORT_UNIT_NONE) { /* a count: exact as it stands */
        fputs(shown, out);
        return;
    }
    fprintf(out, "<span class=\"v\" data-v=\"%s\" title=\"%s ", exact, exact);
    H(out, units);
    fprintf(out, "\">%s</span>", shown);
}

static void int_td(FILE *out, long long v)
{
    fprintf(out, "<td class=\"n\" data-v=\"%lld\">%lld</td>", v, v);
}

/* ---- senders: per receiver, the row's total (with "other") and its largest sender */
static long long row_total(const report_job_t *job, int r, int *top)
{
    const report_senders_t *s = &job->senders;
    const long long *row = s->matrix + (size_t)r * (size_t)s->ncols;
    long long t = s->other[r];
    *top = -1;
    for (int c = 0; c < s->ncols; c++) {
        t += row[c];
        if (row[c] > 0 && (*top < 0 || row[c] > row[*top])) *top = c;
    }
    return t;
}

static long long cell_of(const report_job_t *job, int r, int c)
{
    return job->senders.matrix[(size_t)r * (size_t)job->senders.ncols + (size_t)c];
}

/* ---- at a glance: the few sentences a reader wants first */
static void write_glance(FILE *out, const report_job_t *job, const int *idx, int nrows)
{
    fputs("<ul class=\"glance\" id=\"glance\">\n", out);
    if (nrows) {
        const report_event_t *e = &job->events[idx[0]];
        fputs("<li>Most uneven event: <b>", out);
        H(out, e->name);
        fputs("</b>, largest ", out);
        num_span(out, e->max, e->units);
        fprintf(out, " on <b>rank %d</b>, %.2f times the mean (", e->max_rank, e->imbalance);
        num_span(out, e->mean, e->units);
        fputs(").</li>\n", out);
    } else {
        fputs("<li>No event has a value other than 0 on any rank.</li>\n", out);
    }
    const report_senders_t *s = &job->senders;
    if (s->kind != REPORT_SENDERS_NONE) {
        int best = -1, best_top = -1;
        long long best_t = 0;
        for (int r = 0; r < job->nprocs; r++) {
            int top;
            if (!s->present[r]) continue;
            long long t = row_total(job, r, &top);
            if (best < 0 || t > best_t) best = r, best_t = t, best_top = top;
        }
        if (best >= 0 && best_t > 0 && s->kind == REPORT_SENDERS_COUNT) {
            fprintf(out, "<li>Most unexpected messages: <b>rank %d</b> (%lld in all)", best, best_t);
            if (best_top >= 0)
                fprintf(out, ", most of them from <b>rank %d</b> (%lld)", best_top,
                        cell_of(job, best, best_top));
            fputs(".</li>\n", out);
        } else if (best >= 0 && best_t > 0) {
            fprintf(out, "<li>Longest unexpected queue by sender, when looked at: <b>rank %d</b>", best);
            if (best_top >= 0)
                fprintf(out, ", from <b>rank %d</b> (%lld)", best_top, cell_of(job, best, best_top));
            fputs(".</li>\n", out);
        } else if (s->kind == REPORT_SENDERS_COUNT) {
            fputs("<li>No unexpected messages by sender on any rank.</li>\n", out);
        } else {
            fputs("<li>Unexpected queues by sender: empty each time the tool looked (at MPI_Finalize and at "
                  "each MPI_Pcontrol call: call MPI_Pcontrol where messages wait to see them).</li>\n",
                  out);
        }
    }
    /* the default metrics this MPI cannot give have their line at the top */
    int nskip = job->nskips - report_not_provided_count(job), nnone = 0;
    for (int i = 0; i < job->nevents; i++) nnone += job->events[i].nranks == 0;
    if (nskip + nnone) {
        fprintf(out, "<li>Not measured: <b>%d</b> event%s (", nskip + nnone, nskip + nnone == 1 ? "" : "s");
        const char *sep = "";
        for (int i = 0; i < job->nskips; i++) {
            if (job->skips[i].is_default) continue;
            fputs(sep, out);
            H(out, job->skips[i].name);
            sep = ", ";
        }
        for (int i = 0; i < job->nevents; i++)
            if (!job->events[i].nranks) {
                fputs(sep, out);
                H(out, job->events[i].name);
                sep = ", ";
            }
        fputs("); the reasons are under <a href=\"#skipped\">Not measured</a>.</li>\n", out);
    } else if (!job->nskips) {
        fputs("<li>Every event asked for was measured.</li>\n", out);
    }
    fputs("</ul>\n", out);
}

/* ---- the summary table: overview order, then events 0 everywhere, then unmeasured */
static void summary_row(FILE *out, const report_job_t *job, int i)
{
    const report_event_t *e = &job->events[i];
    fputs("<tr data-name=\"", out);
    H(out, e->name);
    fputs("\"><td>", out);
    H(out, e->name);
    fputs("</td><td>", out);
    H(out, e->units);
    fputs("</td>", out);
    if (e->nranks) {
        num_td(out, e->min, e->units);
        fprintf(out, "<td class=\"n\" data-v=\"%d\">%d</td>", e->min_rank, e->min_rank);
        num_td(out, e->mean, e->units);
        num_td(out, e->max, e->units);
        fprintf(out, "<td class=\"n\" data-v=\"%d\">%d</td>", e->max_rank, e->max_rank);
        if (e->mean != 0)
            num_td(out, e->imbalance, "");
        else
            fputs("<td class=\"n\"></td>", out);
    } else {
        fputs("<td></td><td></td><td></td><td></td><td></td><td></td>", out);
    }
    fprintf(out, "<td class=\"n\" data-v=\"%d\">%d%s</td></tr>\n", e->nranks, e->nranks,
            e->nranks && e->nranks < job->nprocs ? " (not all)" : "");
}

static void write_summary(FILE *out, const report_job_t *job, const int *idx, int nrows)
{
    fputs("<h3 id=\"summary\">Summary</h3>\n<p class=\"note\">Over ranks: the smallest, mean and largest "
          "value, "
          "the ranks holding the smallest and the largest (the lowest rank on a tie), and max/mean (1: even; "
          "the number of ranks: one rank has it all). Click a column to sort.</p>\n",
          out);
    fputs("<table class=\"sortable\" id=\"summary-table\"><thead><tr><th>event</th><th>units</th><th>min</th>"
          "<th>rank</th><th>mean</th><th>max</th><th>rank</th><th>max/mean</th><th>ranks measured</th></tr>"
          "</thead><tbody>\n",
          out);
    for (int k = 0; k < nrows; k++) summary_row(out, job, idx[k]);
    for (int i = 0; i < job->nevents; i++)
        if (report_event_all_zero(&job->events[i])) summary_row(out, job, i);
    for (int i = 0; i < job->nevents; i++)
        if (!job->events[i].nranks) summary_row(out, job, i);
    fputs("</tbody></table>\n", out);
    if (!job->nevents) fputs("<p>No event could be measured.</p>\n", out);
    char sampling[2048];
    if (report_sampling_note(sampling, sizeof sampling, job)) {
        fputs("<p class=\"note\" id=\"sampling\">", out);
        H(out, sampling);
        fputs(".</p>\n", out);
    }
}

/* ---- a bar chart per event that varies; the others in one line */
static void write_charts(FILE *out, const report_job_t *job, const int *idx, int nrows)
{
    fputs("<h3 id=\"charts\">Per rank</h3>\n", out);
    int nvary = 0;
    for (int k = 0; k < nrows; k++) nvary += job->events[idx[k]].min != job->events[idx[k]].max;
    if (nvary)
        fputs("<p class=\"note\">A bar per rank for each event whose value differs between ranks; the "
              "largest in orange, the smallest in green, the mean dashed.</p>\n",
              out);
    for (int k = 0; k < nrows; k++) {
        const report_event_t *e = &job->events[idx[k]];
        if (e->min == e->max) continue;
        fputs("<svg class=\"panel\" data-name=\"", out);
        H(out, e->name);
        fprintf(out,
                "\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                "font-family=\"sans-serif\">\n",
                REPORT_PANEL_W, REPORT_PANEL_H, REPORT_PANEL_W, REPORT_PANEL_H);
        report_svg_panel(out, job, e, 0);
        fputs("</svg>\n", out);
    }
    const char *sep = "<p id=\"same\">The same on every rank that measured it: ";
    for (int i = 0; i < job->nevents; i++) {
        const report_event_t *e = &job->events[i];
        if (!e->nranks || e->min != e->max) continue;
        fputs(sep, out);
        H(out, e->name);
        fputs(" = ", out);
        num_span(out, e->max, e->units);
        sep = ", ";
    }
    if (*sep == ',') fputs(".</p>\n", out);
    if (!nvary && *sep != ',') fputs("<p>No measured event.</p>\n", out);
}

/* ---- the receiver x sender matrix */
static void write_senders(FILE *out, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    fputs("<h3 id=\"senders\">Unexpected messages by sender</h3>\n", out);
    if (s->kind == REPORT_SENDERS_NONE) {
        fputs("<p>Not available", out);
        if (s->note[0]) fputs(": ", out), H(out, s->note);
        fputs(". The matrix needs an MPI with MPI_T events (MPICH) or Open MPI's queue by peer (ob1), and is "
              "off with PAPI_MPIT_REPORT_SENDERS=0.</p>\n",
              out);
        return;
    }
    if (s->kind == REPORT_SENDERS_COUNT)
        fputs("<p class=\"note\">Row: the receiving rank; column: the sending rank (MPI_COMM_WORLD); a cell: "
              "how "
              "many messages from that sender arrived before their receive was posted. Exact.</p>\n",
              out);
    else
        fputs("<p class=\"note\">Row: the receiving rank; column: the sending rank; a cell: the longest "
              "unexpected "
              "queue from that sender seen when the tool looked (at MPI_Finalize and at each MPI_Pcontrol), "
              "not a "
              "count.</p>\n",
              out);
    int rows = 0;
    for (int r = 0; r < job->nprocs; r++) {
        int top;
        rows += s->present[r] && row_total(job, r, &top) > 0;
    }
    fprintf(out, "<details%s><summary>Largest senders of each receiver (%d receiver%s)</summary>\n",
            rows <= 16 ? " open" : "", rows, rows == 1 ? "" : "s");
    fputs("<table class=\"sortable\" id=\"senders-table\"><thead><tr><th>receiver</th><th>in all</th>"
          "<th>largest senders</th></tr></thead><tbody>\n",
          out);
    for (int r = 0; r < job->nprocs; r++) {
        int top;
        if (!s->present[r]) continue;
        long long t = row_total(job, r, &top);
        if (t <= 0) continue;
        fprintf(out, "<tr><td class=\"n\" data-v=\"%d\">%d</td>", r, r);
        int_td(out, t);
        fputs("<td>", out);
        /* the three largest, ties to the lower rank */
        int used[3] = {-1, -1, -1};
        for (int k = 0; k < 3; k++) {
            int best = -1;
            for (int c = 0; c < s->ncols; c++) {
                if (cell_of(job, r, c) <= 0 || c == used[0] || c == used[1]) continue;
                if (best < 0 || cell_of(job, r, c) > cell_of(job, r, best)) best = c;
            }
            if (best < 0) break;
            used[k] = best;
            fprintf(out, "%sfrom rank %d: %lld", k ? ", " : "", best, cell_of(job, r, best));
        }
        if (s->other[r]) fprintf(out, "%sother senders: %lld", used[0] >= 0 ? ", " : "", s->other[r]);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></details>\n", out);
    report_senders_svg_body(out, job);
}

/* ---- the communication matrix: a line per kind, then the heatmaps */
static void write_matrix(FILE *out, const report_job_t *job)
{
    const report_matrix_t *m = &job->matrix;
    fputs("<h3 id=\"matrix\">Communication matrix</h3>\n", out);
    if (!report_matrix_any(job)) {
        fputs("<p id=\"matrix-none\">Not available", out);
        if (m->note[0]) fputs(": ", out), H(out, m->note);
        fputs(". The matrix needs Open MPI's monitoring, which the tool turns on only with --matrix "
              "(PAPI_MPIT_REPORT_MATRIX=1).</p>\n",
              out);
        return;
    }
    fputs(
        "<p class=\"note\">Who sent how much to whom in the counting window (the tool's own messages are "
        "not in it), as Open MPI's monitoring counts it: user point-to-point apart from collectives (each "
        "call's logical messages, not what its algorithm moves) and one-sided bytes. Row: the sending rank; "
        "column: the receiving rank (MPI_COMM_WORLD), but for collectives Open MPI files a rooted one "
        "(bcast, scatter, gather, reduce) at its root, to each other rank: the row is the root, and the data "
        "of a gather or reduce went from the column to the row. Every pair is in matrix.csv and report.json.",
        out);
    int b = report_matrix_block(job->nprocs);
    if (b > 1)
        fprintf(out,
                " <b>%d ranks are too many for a cell per pair: a cell is a block of %d x %d ranks and shows "
                "their sum</b>.",
                job->nprocs, b, b);
    fputs("</p>\n<table id=\"matrix-table\"><thead><tr><th>kind</th><th>messages</th><th>bytes</th>"
          "<th>pairs</th><th>busiest pair</th></tr></thead><tbody>\n",
          out);
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        fprintf(out, "<tr><td>%s</td>", report_matrix_kind_name(k));
        if (!m->nranks[k]) {
            fputs("<td colspan=\"4\">not available: ", out);
            H(out, m->why[k][0] ? m->why[k] : "not given by this MPI");
            fputs("</td></tr>\n", out);
            continue;
        }
        long long msgs = 0, bytes = 0;
        const report_cell_t *top = NULL;
        for (int i = 0; i < m->ncells[k]; i++) {
            const report_cell_t *c = &m->cells[k][i];
            if (c->msgs > 0) msgs += c->msgs;
            bytes += c->bytes;
            if (!top || c->bytes > top->bytes || (c->bytes == top->bytes && c->msgs > top->msgs)) top = c;
        }
        if (k <= REPORT_MATRIX_COLL)
            int_td(out, msgs);
        else
            fputs("<td>-</td>", out);
        num_td(out, (double)bytes, "bytes");
        int_td(out, m->ncells[k]);
        if (top) {
            fprintf(out, "<td>%d &rarr; %d: ", top->sender, top->receiver);
            num_span(out, (double)top->bytes, "bytes");
            fputs("</td></tr>\n", out);
        } else
            fputs("<td>none</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
    report_matrix_svg_body(out, job);
}

/* ---- not measured: the default metrics this MPI cannot give, a line per
 * reason (each metric's own reason is in report.json), then the other
 * events not measured, each with its reason */
static void write_skipped_body(FILE *out, const report_job_t *job, int ndefault, int nnone);

static void write_skipped(FILE *out, const report_job_t *job)
{
    fputs("<h2 id=\"skipped\">Not measured</h2>\n", out);
    int nnone = 0, ndefault = report_not_provided_count(job);
    for (int i = 0; i < job->nevents; i++) nnone += !job->events[i].nranks;
    if (!job->nskips && !nnone) {
        fputs("<p>Every event asked for was measured on every rank that could add it.</p>\n", out);
        return;
    }
    /* folded: what the run shows comes first */
    fprintf(out, "<details><summary>%d event%s not measured, with the reasons</summary>\n",
            job->nskips + nnone, job->nskips + nnone == 1 ? "" : "s");
    write_skipped_body(out, job, ndefault, nnone);
    fputs("</details>\n", out);
}

static void write_skipped_body(FILE *out, const report_job_t *job, int ndefault, int nnone)
{
    int *group_of = calloc((size_t)job->nskips + 1, sizeof *group_of);
    int ngroups = group_of ? report_not_provided_groups(job, group_of) : 0;
    if (ngroups) {
        fprintf(out,
                "<p>Default metrics this MPI cannot give (%d), by reason; report.json has each metric's own "
                "reason:</p>\n<ul id=\"not-provided-groups\">\n",
                ndefault);
        for (int g = 0; g < ngroups; g++) {
            fputs("<li data-names=\"", out);
            const char *sep = "";
            for (int i = 0; i < job->nskips; i++)
                if (group_of[i] == g) fputs(sep, out), H(out, job->skips[i].name), sep = " ";
            fputs("\">", out);
            report_not_provided_line(out, job, group_of, g, 1);
            fputs("</li>\n", out);
        }
        fputs("</ul>\n", out);
    }
    free(group_of);
    if (job->nskips - ndefault + nnone == 0) return;
    fputs("<table id=\"skipped-table\"><thead><tr><th>event</th><th>reason</th><th>ranks</th></tr></thead>"
          "<tbody>\n",
          out);
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        if (s->is_default) continue; /* above, by reason */
        fputs("<tr><td>", out);
        H(out, s->name);
        fputs("</td><td>", out);
        H(out, s->reason);
        if (s->nranks == job->nprocs)
            fprintf(out, "</td><td data-v=\"%d\">all %d</td></tr>\n", s->nranks, s->nranks);
        else
            fprintf(out, "</td><td data-v=\"%d\">%d of %d (first: rank %d)</td></tr>\n", s->nranks, s->nranks,
                    job->nprocs, s->first_rank);
    }
    for (int i = 0; i < job->nevents; i++) {
        if (job->events[i].nranks) continue;
        fputs("<tr><td>", out);
        H(out, job->events[i].name);
        fputs("</td><td>added, but no rank returned a value</td><td data-v=\"0\">none</td></tr>\n", out);
    }
    fputs("</tbody></table>\n", out);
}

/* ---- the run: hosts with their ranks as ranges ("0-1, 4") */
/* whether rank a is on the host of r, the first rank there (report_host_first's
 * answer; the names compared when it had no memory) */
static int on_host_of(const report_job_t *job, const int *first, int a, int r)
{
    return first ? first[a] == r : !report_rank_missing(job, a) && !strcmp(job->hosts[a], job->hosts[r]);
}

static void write_hosts(FILE *out, const report_job_t *job, int *nhosts)
{
    int n = job->nprocs, nmissing = 0, *first = report_host_first(job);
    *nhosts = 0;
    for (int r = 0; r < n; r++) {
        if (report_rank_missing(job, r)) {
            nmissing++;
            continue;
        }
        if (first ? first[r] != r : report_host_seen_before(job, r)) continue;
        fputs(*nhosts ? "; " : "", out);
        (*nhosts)++;
        H(out, job->hosts[r][0] ? job->hosts[r] : "(unknown)");
        fputs(": rank", out);
        const char *sep = " ";
        for (int a = r; a < n; a++) {
            if (!on_host_of(job, first, a, r)) continue;
            int b = a;
            while (b + 1 < n && on_host_of(job, first, b + 1, r)) b++;
            if (b > a)
                fprintf(out, "%s%d-%d", sep, a, b);
            else
                fprintf(out, "%s%d", sep, a);
            sep = ", ";
            a = b;
        }
    }
    free(first);
    if (!nmissing) return;
    fputs(*nhosts ? "; " : "", out);
    const char *sep = "";
    for (int r = 0; r < n; r++)
        if (report_rank_missing(job, r))
            fprintf(out, "%srank %d: no %s", sep, r, job->partial ? "state" : "record"), sep = ", ";
}

static void write_run(FILE *out, const report_job_t *job)
{
    double lo, hi = max_elapsed(job, &lo);
    fputs("<h2 id=\"run\">The run</h2>\n<dl>\n<dt>command</dt><dd><code>", out);
    H(out, job->command[0] ? job->command : "(unknown)");
    fputs("</code></dd>\n<dt>MPI library</dt><dd>", out);
    H(out, job->mpi_library[0] ? job->mpi_library : "(unknown)");
    fputs("</dd>\n<dt>PAPI</dt><dd>", out);
    H(out, job->papi_version[0] ? job->papi_version : "(unknown)");
    fprintf(out, "</dd>\n<dt>ranks</dt><dd id=\"ranks\">%d</dd>\n<dt>hosts</dt><dd id=\"hosts\">",
            job->nprocs);
    int nhosts;
    write_hosts(out, job, &nhosts);
    fprintf(out, " (%d host%s)</dd>\n<dt>started</dt><dd>", nhosts, nhosts == 1 ? "" : "s");
    H(out, job->started[0] ? job->started : "(unknown)");
    char took[32], least[32];
    report_fmt_seconds(took, sizeof took, hi);
    report_fmt_seconds(least, sizeof least, lo);
    fprintf(out,
            "</dd>\n<dt>duration</dt><dd id=\"duration\" data-v=\"%.9f\">%s from MPI_Init to %s "
            "(the longest rank; the shortest %s)</dd>\n",
            hi, took, job->partial ? "the last state taken" : "MPI_Finalize", least);
    fputs("<dt>the tool's cost</dt><dd>", out);
    if (job->tool_cost_measured)
        fprintf(
            out,
            "outside the measured window, on rank 0: %.3f ms at start-up (events added, counting started; "
            "%.3f ms of it the MPI's MPI_T_init_thread), %.3f ms collecting the ranks' values</dd>\n",
            1e3 * job->tool_startup_s, 1e3 * job->tool_mpit_init_s, 1e3 * job->tool_collect_s);
    else
        fputs("not measured</dd>\n", out);
    char sampling[2048];
    if (report_sampling_note(sampling, sizeof sampling, job)) {
        if (job->sample_ms > 0)
            fprintf(out, "<dt>queue maxima</dt><dd id=\"sample-period\" data-v=\"%g\">sampled every %g ms: ",
                    job->sample_ms, job->sample_ms);
        else
            fputs("<dt>queue maxima</dt><dd id=\"sample-period\" data-v=\"0\">not sampled: ", out);
        H(out, sampling);
        fputs("</dd>\n", out);
    }
    fputs("</dl>\n<p class=\"note\">Files beside this page: report.txt (the table), ranks.csv (a row per "
          "rank), "
          "report.json (everything), overview.svg and chart.svg (the pictures)",
          out);
    if (job->senders.kind != REPORT_SENDERS_NONE) fputs(", senders.csv and senders.svg (the matrix)", out);
    if (report_matrix_any(job)) fputs(", matrix.csv and matrix.svg (the communication matrix)", out);
    fputs(".</p>\n", out);
}

int report_write_html(FILE *out, const report_job_t *job)
{
    int *idx = malloc(((size_t)job->nevents + 1) * sizeof *idx);
    if (!idx) return -1;
    int nrows = report_overview_order(job, idx), g = report_overview_group(job->nprocs), nhosts;
    double lo, hi = max_elapsed(job, &lo);

    fputs(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>papi-mpit-report: ",
        out);
    H(out, job->command[0] ? job->command : "MPI run");
    fprintf(out, " (%d rank%s)</title>\n<style>\n%s</style></head><body>\n", job->nprocs,
            job->nprocs == 1 ? "" : "s", STYLE);
    fputs("<h1>papi-mpit-report</h1>\n<p class=\"lead\"><code>", out);
    H(out, job->command[0] ? job->command : "(unknown program)");
    int nmissing;
    report_count_hosts(job, &nmissing);
    fprintf(out, "</code>: %d rank%s", job->nprocs, job->nprocs == 1 ? "" : "s");
    if (nmissing) fprintf(out, ", %d with a state,", job->nprocs - nmissing);
    fputs(" on ", out);
    FILE *null = fopen("/dev/null", "w");
    nhosts = 1;
    if (null) write_hosts(null, job, &nhosts), fclose(null);
    char took[32];
    report_fmt_seconds(took, sizeof took, hi);
    fprintf(out, "%d host%s, %s from MPI_Init to %s", nhosts, nhosts == 1 ? "" : "s", took,
            job->partial ? "the last state taken (the run ended early)" : "MPI_Finalize");
    if (job->mpi_library[0]) fputs("; ", out), H(out, job->mpi_library);
    /* the page in the order of what the run shows: findings, call sites
     * and the program's matrix, the MPI's own counters, what was not
     * measured (folded), the run; the nav follows it */
    fputs("</p>\n<nav>", out);
    if (job->extra.html_nav) fputs(job->extra.html_nav, out);
    fputs("<a href=\"#overview\">Overview</a><a href=\"#summary\">Summary</a><a href=\"#charts\">Per rank</a>"
          "<a href=\"#senders\">By sender</a><a href=\"#matrix\">Matrix</a><a href=\"#skipped\">Not "
          "measured</a><a href=\"#run\">The run</a></nav>\n",
          out);
    int nnot = report_not_provided_count(job);
    if (nnot) /* one line here; the metrics and reasons once, under Not measured */
        fprintf(out,
                "<p id=\"not-provided\">This MPI cannot give %d of the default metrics: "
                "<a href=\"#skipped\">why, under Not measured</a>.</p>\n",
                nnot);
    if (job->extra.html_top) job->extra.html_top(out, job->extra.arg);
    if (job->extra.html) job->extra.html(out, job->extra.arg);
    fputs("<h2 id=\"counters\">The MPI's own counters</h2>\n", out);
    write_glance(out, job, idx, nrows);

    fputs("<h3 id=\"overview\">Overview</h3>\n<p class=\"note\">A row per event, a column per rank. Each row "
          "is "
          "scaled to its own largest value, so the darkest cell of a row is the rank with the most of that "
          "event, whatever its units; rows are ordered by max/mean, the most uneven first. Hover a cell for "
          "its value.",
          out);
    if (g > 1)
        fprintf(
            out,
            " <b>%d ranks are too many for a column each: a column is a group of %d consecutive ranks and "
            "shows the group's largest value</b> (each rank's own value is in report.json and ranks.csv).",
            job->nprocs, g);
    fputs("</p>\n<p id=\"readout\">&nbsp;</p>\n", out);
    report_overview_svg(out, job);

    write_summary(out, job, idx, nrows);
    write_charts(out, job, idx, nrows);
    write_senders(out, job);
    write_matrix(out, job);
    report_queues_html(out, job);
    write_skipped(out, job);
    write_run(out, job);
    fprintf(out, "<script>\n%s</script>\n</body></html>\n", SCRIPT);
    free(idx);
    return ferror(out) ? -1 : 0;
}
