/*
 * papi-mpit-report: the overview, an events x ranks heatmap.  A row per
 * event that is not 0 everywhere, most imbalanced (max/mean) first; a
 * column per rank, or per group of ranks beyond REPORT_OVERVIEW_COLUMNS;
 * each row scaled to its own maximum, so that a rank that stands out shows
 * whatever the event's units.  Events 0 on every rank are named on one
 * line, not drawn.  Written as overview.svg and inside report.html.
 * Pure C, no MPI, no PAPI.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define OV_PLOT   640 /* the cells' width, px */
#define OV_FONT   11.0
#define OV_CHAR   6.6 /* a character of OV_FONT sans-serif, about */
#define OV_RIGHT  230 /* max/mean and max columns */
#define OV_NAME   52  /* longest name drawn whole */
#define OV_ZERO   "#e8e8e8"
#define OV_ABSENT "#ffffff"

int report_overview_group(int nprocs)
{
    return nprocs <= REPORT_OVERVIEW_COLUMNS
               ? 1
               : (nprocs + REPORT_OVERVIEW_COLUMNS - 1) / REPORT_OVERVIEW_COLUMNS;
}

static const report_job_t *sort_job;

static int by_imbalance(const void *a, const void *b)
{
    const report_event_t *x = &sort_job->events[*(const int *)a], *y = &sort_job->events[*(const int *)b];
    if (x->imbalance != y->imbalance) return x->imbalance < y->imbalance ? 1 : -1;
    return *(const int *)a - *(const int *)b;
}

int report_overview_order(const report_job_t *job, int *idx)
{
    int n = 0;
    for (int i = 0; i < job->nevents; i++)
        if (job->events[i].nranks && !report_event_all_zero(&job->events[i])) idx[n++] = i;
    sort_job = job;
    qsort(idx, (size_t)n, sizeof *idx, by_imbalance);
    return n;
}

/* A name as drawn: whole up to OV_NAME characters, else its end after "…". */
static void draw_name(FILE *out, const char *name)
{
    size_t len = strlen(name);
    if (len <= OV_NAME) {
        report_xml_str(out, name);
        return;
    }
    fputs("\xe2\x80\xa6", out);
    report_xml_str(out, name + len - (OV_NAME - 1));
}

/* The cell's colour: 0 grey, else blues by the value's place between the
 * row's floor (0, or its minimum when negative) and its maximum. */
static void cell_colour(const report_event_t *e, double v, char *buf, size_t len)
{
    double lo = e->min < 0 ? e->min : 0, hi = e->max > lo ? e->max : lo + 1;
    if (v == 0) {
        snprintf(buf, len, "%s", OV_ZERO);
        return;
    }
    double t = (v - lo) / (hi - lo);
    report_heat_colour(t < 0.03 ? 0.03 : t, buf, len);
}

/* One cell: rank r alone (g == 1) or ranks r .. r+g-1, shown by their largest. */
static void draw_cell(FILE *out, const report_job_t *job, int ei, int r, int g, double x, double y, double cw,
                      double rh, int numbers)
{
    const report_event_t *e = &job->events[ei];
    int last = r + g - 1 < job->nprocs - 1 ? r + g - 1 : job->nprocs - 1, at = -1, k = 0;
    double sum = 0;
    for (int q = r; q <= last; q++) {
        if (!e->present[q]) continue;
        if (at < 0 || e->dval[q] > e->dval[at]) at = q;
        sum += e->dval[q];
        k++;
    }
    char colour[16], v[64] = "", shown[64] = "";
    if (at >= 0) {
        cell_colour(e, e->dval[at], colour, sizeof colour);
        report_fmt_value(v, sizeof v, e, at);
        report_fmt_human(shown, sizeof shown, e->dval[at], e->units);
    } else {
        snprintf(colour, sizeof colour, "%s", OV_ABSENT);
    }
    fprintf(out, "<rect class=\"cell\" data-e=\"%d\" data-r=\"", ei);
    if (g == 1)
        fprintf(out, "%d\"", r);
    else
        fprintf(out, "%d-%d\"", r, last);
    if (at >= 0) fprintf(out, " data-v=\"%s\"", v);
    fprintf(out, " x=\"%.3f\" y=\"%.2f\" width=\"%.3f\" height=\"%.2f\" fill=\"%s\"><title>", x, y, cw, rh,
            colour);
    report_xml_str(out, e->name);
    if (g == 1)
        fprintf(out, ", rank %d: ", r);
    else
        fprintf(out, ", ranks %d-%d: ", r, last);
    if (at < 0) {
        fputs("not measured", out);
    } else if (g == 1) {
        fputs(shown, out);
        if (e->max > 0) fprintf(out, " (%.0f%% of the largest)", 100.0 * e->dval[at] / e->max);
    } else {
        char mean[64];
        report_fmt_human(mean, sizeof mean, sum / k, e->units);
        fprintf(out, "largest %s (rank %d), mean %s", shown, at, mean);
    }
    if (e->units[0] && report_unit_kind(e->units, NULL) == REPORT_UNIT_NONE) { /* else in the value */
        fputs(" ", out);
        report_xml_str(out, e->units);
    }
    fputs("</title></rect>\n", out);
    if (numbers && at >= 0) {
        double t = e->max > 0 ? e->dval[at] / e->max : 0;
        fprintf(out,
                "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"%s\" "
                "pointer-events=\"none\">%s</text>\n",
                x + cw / 2, y + rh / 2 + OV_FONT * 0.35, t > 0.5 ? "#fff" : "#000", shown);
    }
}

/* Names in lines of about width px, after a caption: "caption: a, b, c". */
static int name_lines(FILE *out, const report_job_t *job, int (*which)(const report_event_t *),
                      const char *caption, const char *cls, int x, int y, double width)
{
    int any = 0;
    for (int i = 0; i < job->nevents && !any; i++) any = which(&job->events[i]);
    if (!any) return y;
    double used = strlen(caption) * OV_CHAR;
    fprintf(out, "<text class=\"%s\" x=\"%d\" y=\"%d\" fill=\"#333\">%s", cls, x, y, caption);
    const char *sep = " ";
    for (int i = 0; i < job->nevents; i++) {
        if (!which(&job->events[i])) continue;
        double w = (strlen(job->events[i].name) + 2) * OV_CHAR;
        if (used + w > width && *sep == ',') { /* not before the first name */
            y += 16;
            fprintf(out, ",</text>\n<text class=\"%s\" x=\"%d\" y=\"%d\" fill=\"#333\">", cls, x + 12, y);
            used = 12;
            sep = "";
        }
        fprintf(out, "%s<tspan class=\"name\">", sep);
        report_xml_str(out, job->events[i].name);
        fputs("</tspan>", out);
        sep = ", ";
        used += w;
    }
    fputs("</text>\n", out);
    return y + 18;
}

static int is_zero(const report_event_t *e) { return report_event_all_zero(e); }
static int is_unmeasured(const report_event_t *e) { return e->nranks == 0; }

/* The overview's height for its rows, and the rows' height. */
static double row_height(int nrows) { return nrows <= 20 ? 22 : nrows <= 40 ? 17 : 14; }

int report_overview_svg(FILE *out, const report_job_t *job)
{
    int *idx = malloc(((size_t)job->nevents + 1) * sizeof *idx);
    if (!idx) return -1;
    int nrows = report_overview_order(job, idx), n = job->nprocs, g = report_overview_group(n);
    int ncols = (n + g - 1) / g;
    size_t longest = 8;
    for (int k = 0; k < nrows; k++) {
        size_t len = strlen(job->events[idx[k]].name);
        if (len > longest) longest = len;
    }
    if (longest > OV_NAME) longest = OV_NAME;
    int x0 = 14 + (int)(longest * OV_CHAR), y0 = g > 1 ? 96 : 80;
    double rh = row_height(nrows), cw = (double)OV_PLOT / ncols;
    int numbers = cw >= 64 && rh >= 17, xr = x0 + OV_PLOT + 12, w = xr + OV_RIGHT;
    /* the lines of names below: counted by drawing them into nothing */
    FILE *null = fopen("/dev/null", "w");
    int yb = y0 + (int)ceil(nrows * rh) + 62, h = yb;
    if (null) {
        h = name_lines(null, job, is_zero, "0 on every rank (not drawn):", "zeros", 10, h, w - 20);
        h = name_lines(null, job, is_unmeasured, "measured on no rank:", "unmeasured", 10, h, w - 20);
        fclose(null);
    }
    if (nrows == 0) h += 20;

    fprintf(out,
            "<svg class=\"overview\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"%.0f\">\n",
            w, h, w, h, OV_FONT);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
    fprintf(out,
            "<text x=\"10\" y=\"22\" font-size=\"16\">papi-mpit-report overview: %d event%s over %d "
            "rank%s</text>\n",
            nrows, nrows == 1 ? "" : "s", n, n == 1 ? "" : "s");
    fputs("<text x=\"10\" y=\"40\" fill=\"#444\">each row scaled to its own largest value (darkest); rows by "
          "max/mean, most uneven first; grey: 0, white: not measured</text>\n",
          out);
    if (g > 1)
        fprintf(out,
                "<text class=\"groups\" x=\"10\" y=\"56\" fill=\"#a33\">ranks in groups of %d (%d columns): "
                "a cell shows the largest value of its group</text>\n",
                g, ncols);

    /* rank axis: every k-th rank, at its place (inside its group's column) */
    int k = report_senders_label_step(n, cw / g, 10, 1);
    fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#444\">rank</text>\n", x0 - 12, y0 - 8);
    fputs("<g font-size=\"10\" text-anchor=\"middle\">\n", out);
    for (int r = 0; r < n; r += k)
        fprintf(out, "<text class=\"rank\" x=\"%.2f\" y=\"%d\">%d</text>\n", x0 + (r + 0.5) * cw / g, y0 - 8,
                r);
    fputs("</g>\n", out);
    fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#444\">max/mean</text>\n", xr, y0 - 8);
    fprintf(out, "<text x=\"%d\" y=\"%d\" fill=\"#444\">largest (rank)</text>\n", xr + 66, y0 - 8);

    /* the rows */
    fputs("<g shape-rendering=\"crispEdges\">\n", out);
    for (int row = 0; row < nrows; row++) {
        const report_event_t *e = &job->events[idx[row]];
        double y = y0 + row * rh;
        fputs("<g class=\"row\" data-name=\"", out);
        report_xml_str(out, e->name);
        fputs("\">\n", out);
        fprintf(out, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">", x0 - 6, y + rh / 2 + OV_FONT * 0.35);
        draw_name(out, e->name);
        fputs("<title>", out);
        report_xml_str(out, e->name);
        if (e->units[0]) fputs(" (", out), report_xml_str(out, e->units), fputs(")", out);
        fputs("</title></text>\n", out);
        for (int c = 0; c < ncols; c++)
            draw_cell(out, job, idx[row], c * g, g, x0 + c * cw, y, cw, rh - 1, numbers);
        char mx[64];
        report_fmt_human(mx, sizeof mx, e->max, e->units);
        fprintf(out, "<text x=\"%d\" y=\"%.2f\">", xr, y + rh / 2 + OV_FONT * 0.35);
        if (e->mean != 0)
            fprintf(out, "%.2f", e->imbalance);
        else
            fputs("-", out);
        fprintf(out, "</text><text x=\"%d\" y=\"%.2f\">%s (%d)</text>\n", xr + 66,
                y + rh / 2 + OV_FONT * 0.35, mx, e->max_rank);
        fputs("</g>\n", out);
    }
    fputs("</g>\n", out);
    if (nrows)
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%.2f\" fill=\"none\" stroke=\"#888\"/>\n",
                x0, y0, OV_PLOT, nrows * rh - 1);
    else
        fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"13\">no event has a value other than 0</text>\n",
                y0 + 14);

    /* the legend */
    int yl = y0 + (int)ceil(nrows * rh) + 14;
    char colour[16];
    fputs("<defs><linearGradient id=\"ov-scale\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"0\">", out);
    for (int i = 0; i <= 10; i++) {
        report_heat_colour(i ? i / 10.0 : 0.03, colour, sizeof colour);
        fprintf(out, "<stop offset=\"%.1f\" stop-color=\"%s\"/>", i / 10.0, colour);
    }
    fputs("</linearGradient></defs>\n", out);
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"160\" height=\"12\" fill=\"url(#ov-scale)\" stroke=\"#888\"/>\n"
            "<text x=\"%d\" y=\"%d\">small</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">the event's "
            "largest</text>\n",
            x0, yl, x0, yl + 26, x0 + 160, yl + 26);
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#888\"/><text x=\"%d\" "
            "y=\"%d\">0</text>\n",
            x0 + 190, yl, OV_ZERO, x0 + 206, yl + 10);
    fprintf(out,
            "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#888\"/><text x=\"%d\" "
            "y=\"%d\">not measured</text>\n",
            x0 + 240, yl, OV_ABSENT, x0 + 256, yl + 10);
    int y = name_lines(out, job, is_zero, "0 on every rank (not drawn):", "zeros", 10, yb, w - 20);
    name_lines(out, job, is_unmeasured, "measured on no rank:", "unmeasured", 10, y, w - 20);
    fputs("</svg>\n", out);
    free(idx);
    return ferror(out) ? -1 : 0;
}

int report_write_overview_svg(FILE *out, const report_job_t *job)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    return report_overview_svg(out, job);
}
