/*
 * papi-mpit-report: the SVG charts: a bar chart panel per chosen event (a bar
 * per rank), and the sender matrix's heatmap.
 */
#include "report.h"
#include "report_private.h"

#include <math.h>
#include <string.h>

/* ---- SVG: one bar chart panel per chosen event, a bar per rank */

/* The smallest 1, 2 or 5 times a power of ten that is >= v (v > 0). */
static double nice_ceil(double v)
{
    double p = pow(10.0, floor(log10(v)));
    double steps[] = {1, 2, 2.5, 5, 10};
    for (int i = 0; i < 5; i++)
        if (steps[i] * p >= v * (1 - 1e-12)) return steps[i] * p;
    return 10 * p;
}

static int chart_wants(const char *chart, const char *name)
{
    if (!chart || !*chart || strcmp(chart, "all") == 0) return 1;
    size_t n = strlen(name);
    for (const char *p = chart; *p;) {
        while (*p == ',' || *p == ' ') p++;
        size_t len = strcspn(p, ", ");
        if (len == n && strncmp(p, name, n) == 0) return 1;
        /* "TASK-CLOCK" matches "perf::TASK-CLOCK", "UNEXPECTED_MSGS" "mpit:::UNEXPECTED_MSGS" */
        if (len && len < n && strncmp(p, name + n - len, len) == 0 && name[n - len - 1] == ':') return 1;
        p += len;
    }
    return 0;
}

#define SVG_W    REPORT_PANEL_W
#define PANEL_H  REPORT_PANEL_H
#define M_LEFT   90
#define M_RIGHT  20
#define M_TOP    50
#define M_BOTTOM 45

void report_svg_panel(FILE *out, const report_job_t *job, const report_event_t *e, int y0)
{
    int pw = SVG_W - M_LEFT - M_RIGHT, ph = PANEL_H - M_TOP - M_BOTTOM;
    double lo = e->min < 0 ? e->min : 0, hi = e->max > 0 ? e->max : 0;
    if (hi > 0) hi = nice_ceil(hi);
    if (lo < 0) lo = -nice_ceil(-lo);
    if (hi == lo) hi = lo + 1;
    char mn[64], me[64], mx[64];
    report_fmt_human(mn, sizeof mn, e->min, e->units);
    report_fmt_human(me, sizeof me, e->mean, e->units);
    report_fmt_human(mx, sizeof mx, e->max, e->units);

    fprintf(out, "<g transform=\"translate(0,%d)\">\n", y0);
    fputs("<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">", out);
    report_xml_str(out, e->name);
    if (e->units[0]) {
        fputs(" (", out);
        report_xml_str(out, e->units);
        fputs(")", out);
    }
    fputs("</text>\n", out);
    fprintf(
        out,
        "<text x=\"10\" y=\"38\" font-size=\"12\" fill=\"#444\">min %s (rank %d), mean %s, max %s (rank %d)",
        mn, e->min_rank, me, mx, e->max_rank);
    if (e->mean != 0.0) fprintf(out, ", max/mean %.3f", e->imbalance);
    if (e->nranks < job->nprocs) fprintf(out, ", measured on %d of %d ranks", e->nranks, job->nprocs);
    fputs("</text>\n", out);

    /* axes and grid */
    int x0 = M_LEFT, yb = M_TOP + ph;
    for (int t = 0; t <= 4; t++) {
        double v = lo + (hi - lo) * t / 4;
        double y = yb - (double)ph * t / 4;
        char b[64];
        report_fmt_human(b, sizeof b, v, e->units);
        fprintf(out, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>\n", x0, y, x0 + pw,
                y);
        fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n", x0 - 6,
                y + 4, b);
    }
    fprintf(out, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#000\"/>\n", x0, M_TOP, x0, yb);

    /* bars */
    double slot = (double)pw / job->nprocs;
    double gap = slot > 6 ? slot * 0.15 : 0;
    double yzero = yb - (0 - lo) / (hi - lo) * ph;
    int label_every = (job->nprocs + 31) / 32;
    for (int r = 0; r < job->nprocs; r++) {
        double x = x0 + r * slot + gap / 2;
        if (e->present[r]) {
            double y = yb - (e->dval[r] - lo) / (hi - lo) * ph;
            double top = y < yzero ? y : yzero, h = fabs(yzero - y);
            const char *fill = r == e->max_rank ? "#d95f02" : r == e->min_rank ? "#1b9e77" : "#4c78a8";
            char v[64], shown[64];
            report_fmt_value(v, sizeof v, e, r);
            report_fmt_human(shown, sizeof shown, e->dval[r], e->units);
            fprintf(out,
                    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
                    "<title>rank %d: ",
                    x, top, slot - gap, h < 0.5 ? 0.5 : h, fill, r);
            if (strcmp(shown, v) == 0) /* a count: the exact value alone */
                fprintf(out, "%s</title></rect>\n", v);
            else {
                fprintf(out, "%s (%s ", shown, v);
                report_xml_str(out, e->units);
                fputs(")</title></rect>\n", out);
            }
        } else {
            fprintf(out,
                    "<text x=\"%.2f\" y=\"%.1f\" font-size=\"10\" text-anchor=\"middle\" "
                    "fill=\"#999\">n/a</text>\n",
                    x0 + (r + 0.5) * slot, yzero - 3);
        }
        if (r % label_every == 0)
            fprintf(out, "<text x=\"%.2f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>\n",
                    x0 + (r + 0.5) * slot, yb + 15, r);
    }
    fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#000\"/>\n", x0, yzero, x0 + pw,
            yzero);
    if (e->nranks) {
        double ym = yb - (e->mean - lo) / (hi - lo) * ph;
        fprintf(
            out,
            "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#c00\" stroke-dasharray=\"6,4\"/>\n",
            x0, ym, x0 + pw, ym);
        fprintf(out,
                "<text x=\"%d\" y=\"%.2f\" font-size=\"11\" fill=\"#c00\" text-anchor=\"end\">mean</text>\n",
                x0 + pw, ym - 4);
    }
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">rank</text>\n", x0 + pw / 2,
            yb + 35);
    fputs("</g>\n", out);
}

int report_event_all_zero(const report_event_t *e) { return e->nranks && e->min == 0 && e->max == 0; }

/* An SVG document of w x h pixels on a white ground (closed by "</svg>"). */
static void svg_begin(FILE *out, int w, int h)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n",
            w, h, w, h);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
}
static const char XML_DECL[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

/* A panel for each chosen event that is not 0 everywhere; those are named
 * on one line below the title instead. */
int report_chart_unknown(const report_job_t *job, const char *chart, char *out, size_t len)
{
    int unknown = 0;
    size_t used = 0;
    if (len) out[0] = '\0';
    for (const char *p = chart ? chart : ""; *p;) {
        while (*p == ',' || *p == ' ') p++;
        size_t n = strcspn(p, ", ");
        char name[REPORT_NAME_LEN];
        snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
        p += n;
        if (!*name || strcmp(name, "all") == 0) continue;
        int found = 0;
        for (int i = 0; i < job->nevents && !found; i++)
            found = job->events[i].nranks && chart_wants(name, job->events[i].name);
        if (found) continue;
        if (used < len) used += (size_t)snprintf(out + used, len - used, "%s%s", unknown ? ", " : "", name);
        unknown++;
    }
    return unknown;
}

static int chart_panel(const report_event_t *e, const char *chart)
{
    return e->nranks && !report_event_all_zero(e) && chart_wants(chart, e->name);
}

int report_write_svg(FILE *out, const report_job_t *job, const char *chart)
{
    int n = 0, zeros = 0;
    for (int i = 0; i < job->nevents; i++) {
        n += chart_panel(&job->events[i], chart);
        zeros += report_event_all_zero(&job->events[i]) && chart_wants(chart, job->events[i].name);
    }
    int top = zeros ? 62 : 40;
    int h = top + (n ? n : 1) * PANEL_H;
    fputs(XML_DECL, out);
    svg_begin(out, SVG_W, h);
    fprintf(out,
            "<text x=\"10\" y=\"26\" font-size=\"17\">papi-mpit-report: per-rank values, %d rank%s</text>\n",
            job->nprocs, job->nprocs == 1 ? "" : "s");
    fputs("<g font-size=\"12\">"
          "<rect x=\"520\" y=\"15\" width=\"12\" height=\"12\" fill=\"#1b9e77\"/><text x=\"536\" "
          "y=\"26\">min</text>"
          "<rect x=\"575\" y=\"15\" width=\"12\" height=\"12\" fill=\"#d95f02\"/><text x=\"591\" "
          "y=\"26\">max</text>"
          "<line x1=\"630\" y1=\"21\" x2=\"656\" y2=\"21\" stroke=\"#c00\" stroke-dasharray=\"6,4\"/>"
          "<text x=\"661\" y=\"26\">mean</text></g>\n",
          out);
    if (zeros) {
        fputs("<text class=\"zeros\" x=\"10\" y=\"50\" font-size=\"12\" fill=\"#444\">0 on every rank:", out);
        const char *sep = " ";
        for (int i = 0; i < job->nevents; i++)
            if (report_event_all_zero(&job->events[i]) && chart_wants(chart, job->events[i].name)) {
                fputs(sep, out);
                report_xml_str(out, job->events[i].name);
                sep = ", ";
            }
        fputs("</text>\n", out);
    }
    int k = 0;
    for (int i = 0; i < job->nevents; i++)
        if (chart_panel(&job->events[i], chart))
            report_svg_panel(out, job, &job->events[i], top + PANEL_H * k++);
    if (!n)
        fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"14\">%s</text>\n", top + 40,
                zeros ? "no chosen event varies from 0" : "no measured event was chosen for the chart");
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}

/* ---- the sender matrix as a heatmap */
#define HM_PLOT   640 /* the matrix's side, px */
#define HM_LEFT   70
#define HM_TOP    70
#define HM_BOTTOM 55
#define HM_FONT   10.0 /* axis labels */
#define HM_ZERO   "#f2f2f2"

/* The legend's step: 1, 2 or 5 times a power of ten, at least 1 (the values
 * are integers), about a quarter of the largest value. */
static long long legend_step(long long max)
{
    double want = max / 4.0;
    long long p = 1;
    while (p * 10 <= want) p *= 10;
    if (p >= want) return p;
    if (2 * p >= want) return 2 * p;
    if (5 * p >= want) return 5 * p;
    return 10 * p;
}

int report_write_senders_svg(FILE *out, const report_job_t *job)
{
    fputs(XML_DECL, out);
    return report_senders_svg_body(out, job);
}

int report_senders_svg_body(FILE *out, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    int n = job->nprocs, nc = s->ncols, missing = 0;
    long long max = 0, other_max = 0;
    int max_r = -1, max_c = -1;
    long double total = 0;
    for (int r = 0; r < n; r++) {
        if (!s->present[r]) {
            missing++;
            continue;
        }
        const long long *row = report_senders_row(job, r);
        for (int c = 0; c < nc; c++) {
            total += row[c];
            if (row[c] > max) max = row[c], max_r = r, max_c = c;
        }
        total += s->other[r];
        if (s->other[r] > other_max) other_max = s->other[r];
    }
    long long step = legend_step(max > other_max ? max : other_max);
    long long hi = (max > other_max ? max : other_max);
    hi = hi <= 0 ? step : (hi + step - 1) / step * step;
    double cw = (double)HM_PLOT / (nc ? nc : 1), ch = (double)HM_PLOT / n;
    int kx = report_senders_label_step(nc, cw, HM_FONT, 1), ky = report_senders_label_step(n, ch, HM_FONT, 0);
    int other_w = other_max > 0 ? 34 : 0;
    int x0 = HM_LEFT, y0 = HM_TOP, xo = x0 + HM_PLOT + 8;     /* the "other" column */
    int xl = x0 + HM_PLOT + (other_w ? 8 + other_w : 0) + 30; /* the legend */
    int w = xl + 16 + 80, h = HM_TOP + HM_PLOT + HM_BOTTOM;
    int tips = n <= 64 && nc <= 64, numbers = cw >= 48 && ch >= 16;
    char colour[16];

    svg_begin(out, w, h);
    fprintf(out, "<text x=\"10\" y=\"24\" font-size=\"16\">papi-mpit-report: %s, %d rank%s</text>\n",
            s->kind == REPORT_SENDERS_COUNT ? "unexpected messages by sender"
                                            : "largest unexpected queue by sender (at the moments read)",
            n, n == 1 ? "" : "s");
    fprintf(
        out,
        "<text x=\"10\" y=\"42\" font-size=\"12\" fill=\"#444\">row: receiving rank, column: sending rank "
        "(MPI_COMM_WORLD)");
    if (s->kind == REPORT_SENDERS_COUNT) fprintf(out, "; %.0Lf in all", total);
    if (max_r >= 0) fprintf(out, "; largest %lld (rank %d from rank %d)", max, max_r, max_c);
    if (missing) fprintf(out, "; %d rank%s sent no row (blank)", missing, missing == 1 ? "" : "s");
    fputs("</text>\n", out);

    /* the cells: a zero background, then every nonzero cell */
    fputs("<g shape-rendering=\"crispEdges\">\n", out);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x0, y0, HM_PLOT,
            HM_PLOT, HM_ZERO);
    for (int r = 0; r < n; r++) {
        double y = y0 + r * ch;
        if (!s->present[r]) {
            fprintf(out, "<rect x=\"%d\" y=\"%.3f\" width=\"%d\" height=\"%.3f\" fill=\"#fff\"/>\n", x0, y,
                    HM_PLOT, ch);
            continue;
        }
        const long long *row = report_senders_row(job, r);
        for (int c = 0; c < nc; c++) {
            if (row[c] <= 0) continue;
            report_heat_colour((double)row[c] / (double)hi, colour, sizeof colour);
            fprintf(out, "<rect x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"%s\">",
                    x0 + c * cw, y, cw, ch, colour);
            if (tips) fprintf(out, "<title>rank %d from rank %d: %lld</title>", r, c, row[c]);
            fputs("</rect>\n", out);
            if (numbers) /* large cells carry their value */
                fprintf(out,
                        "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"middle\" "
                        "fill=\"%s\">%lld</text>\n",
                        x0 + (c + 0.5) * cw, y + ch / 2 + 4,
                        (double)row[c] / (double)hi > 0.5 ? "#fff" : "#000", row[c]);
        }
        if (other_w) {
            if (s->other[r] > 0)
                report_heat_colour((double)s->other[r] / (double)hi, colour, sizeof colour);
            else
                snprintf(colour, sizeof colour, "%s", HM_ZERO);
            fprintf(out,
                    "<rect x=\"%d\" y=\"%.3f\" width=\"%d\" height=\"%.3f\" fill=\"%s\"><title>rank %d from "
                    "other senders: %lld</title></rect>\n",
                    xo, y, other_w, ch, colour, r, s->other[r]);
        }
    }
    fputs("</g>\n", out);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", x0,
            y0, HM_PLOT, HM_PLOT);

    /* axes: every kx-th sender, every ky-th receiver, at the cells' centres */
    fprintf(out, "<g font-size=\"%.0f\">\n", HM_FONT);
    for (int c = 0; c < nc; c += kx)
        fprintf(out, "<text class=\"xlabel\" x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n",
                x0 + (c + 0.5) * cw, y0 + HM_PLOT + 14, c);
    for (int r = 0; r < n; r += ky)
        fprintf(out, "<text class=\"ylabel\" x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%d</text>\n", x0 - 5,
                y0 + (r + 0.5) * ch + HM_FONT * 0.35, r);
    if (other_w)
        fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">other</text>\n", xo + other_w / 2,
                y0 + HM_PLOT + 14);
    fputs("</g>\n", out);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">sender rank</text>\n",
            x0 + HM_PLOT / 2, y0 + HM_PLOT + 36);
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">"
            "receiver rank</text>\n",
            22, y0 + HM_PLOT / 2, 22, y0 + HM_PLOT / 2);

    /* the legend: the colour scale from 1 up to hi, its numbers, and zero */
    fputs("<defs><linearGradient id=\"scale\" x1=\"0\" y1=\"1\" x2=\"0\" y2=\"0\">", out);
    for (int i = 0; i <= 10; i++) {
        report_heat_colour(i / 10.0, colour, sizeof colour);
        fprintf(out, "<stop offset=\"%.1f\" stop-color=\"%s\"/>", i / 10.0, colour);
    }
    fputs("</linearGradient></defs>\n", out);
    int lh = HM_PLOT - 40;
    fprintf(out, "<g class=\"legend\" font-size=\"11\">\n");
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>\n", xl - 10, y0 - 12,
            s->kind == REPORT_SENDERS_COUNT ? "messages" : "queue length");
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"url(#scale)\" stroke=\"#000\"/>\n", xl,
            y0, lh);
    for (long long v = 0; v <= hi; v += step) {
        double y = y0 + lh - (double)lh * (double)v / (double)hi;
        fprintf(out, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#000\"/>\n", xl + 16, y,
                xl + 20, y);
        fprintf(out, "<text class=\"tick\" x=\"%d\" y=\"%.2f\">%lld</text>\n", xl + 23, y + 4, v);
    }
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"%s\" stroke=\"#000\"/>\n", xl,
            y0 + lh + 16, HM_ZERO);
    fprintf(out, "<text x=\"%d\" y=\"%d\">0 (none)</text>\n", xl + 23, y0 + lh + 28);
    fputs("</g>\n</svg>\n", out);
    return ferror(out) ? -1 : 0;
}
