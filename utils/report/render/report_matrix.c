/*
 * papi-mpit-report: the communication matrix, sender x receiver messages and
 * bytes per kind of traffic (Open MPI's monitoring through
 * papi_mpit_peers_*), and its renderings: matrix.csv, matrix.svg, the JSON
 * member (jansson) and the table's lines.  No MPI and no PAPI here
 * (testable alone).
 * Cells are kept sparse: a job of P ranks has up to P*P pairs, most of them
 * empty in real codes.
 */
#include <jansson.h>

#include <stdlib.h>
#include <string.h>

#include "report.h"

static const char *const kind_names[REPORT_MATRIX_KINDS] = {"p2p", "coll", "rma_put", "rma_get"};
/* what each kind is, for people */
static const char *const kind_titles[REPORT_MATRIX_KINDS] = {
    "user point-to-point", "collectives, as Open MPI files them", "one-sided puts and accumulates",
    "one-sided gets (sender: the rank read from)"};
/* what a cell's row and column are.  Open MPI's coll monitoring files a
 * rooted collective at its root only, to each other rank, whichever way the
 * data flows (coll_monitoring_gather.c and _reduce.c do as _bcast.c and
 * _scatter.c); a non-rooted one at every rank to every other rank.  The
 * vector keeps no operation, so the direction cannot be mended: said. */
static const char *const kind_axes[REPORT_MATRIX_KINDS] = {
    "row: sending rank, column: receiving rank",
    "row: the calling rank, a rooted collective's root; column: its peer (gather, reduce: data went column "
    "to "
    "row)",
    "row: sending rank, column: receiving rank", "row: the rank read from, column: the reading rank"};

/* the heatmap's axis titles, row then column */
static const char *const kind_axis[REPORT_MATRIX_KINDS][2] = {{"sender rank", "receiver rank"},
                                                              {"calling rank (root)", "peer rank"},
                                                              {"sender rank", "receiver rank"},
                                                              {"rank read from", "reading rank"}};

const char *report_matrix_kind_axes(int kind)
{
    return kind >= 0 && kind < REPORT_MATRIX_KINDS ? kind_axes[kind] : "?";
}

const char *report_matrix_kind_name(int kind)
{
    return kind >= 0 && kind < REPORT_MATRIX_KINDS ? kind_names[kind] : "?";
}

int report_matrix_kind(const char *name)
{
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        if (strcmp(name, kind_names[k]) == 0) return k;
    return -1;
}

void report_matrix_present(report_job_t *job, int kind)
{
    if (kind >= 0 && kind < REPORT_MATRIX_KINDS) job->matrix.nranks[kind]++;
}

void report_matrix_add(report_job_t *job, int kind, int sender, int receiver, long long msgs, long long bytes)
{
    report_matrix_t *m = &job->matrix;
    if (kind < 0 || kind >= REPORT_MATRIX_KINDS || sender < 0 || receiver < 0 || sender >= job->nprocs ||
        receiver >= job->nprocs)
        return;
    if (m->ncells[kind] == m->cap[kind]) {
        int cap = m->cap[kind] ? 2 * m->cap[kind] : 64;
        report_cell_t *c = realloc(m->cells[kind], (size_t)cap * sizeof *c);
        if (!c) return;
        m->cells[kind] = c;
        m->cap[kind] = cap;
    }
    m->cells[kind][m->ncells[kind]++] = (report_cell_t){sender, receiver, msgs, bytes};
}

static int by_pair(const void *a, const void *b)
{
    const report_cell_t *x = a, *y = b;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return (x->receiver > y->receiver) - (x->receiver < y->receiver);
}

void report_matrix_finish(report_job_t *job)
{
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        if (job->matrix.ncells[k])
            qsort(job->matrix.cells[k], (size_t)job->matrix.ncells[k], sizeof(report_cell_t), by_pair);
}

int report_matrix_any(const report_job_t *job)
{
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        if (job->matrix.nranks[k]) return 1;
    return 0;
}

int report_matrix_block(int nprocs)
{
    return nprocs <= REPORT_MATRIX_SIDE ? 1 : (nprocs + REPORT_MATRIX_SIDE - 1) / REPORT_MATRIX_SIDE;
}

/* totals of a kind and its busiest pair (by bytes, then messages) */
typedef struct totals {
    long double msgs, bytes;
    const report_cell_t *top;
} totals_t;

static totals_t cell_totals(const report_cell_t *cells, int ncells)
{
    totals_t t = {0, 0, NULL};
    for (int i = 0; i < ncells; i++) {
        const report_cell_t *c = &cells[i];
        if (c->msgs > 0) t.msgs += c->msgs;
        t.bytes += c->bytes;
        if (!t.top || c->bytes > t.top->bytes || (c->bytes == t.top->bytes && c->msgs > t.top->msgs))
            t.top = c;
    }
    return t;
}

/* ---- CSV */
int report_write_matrix_csv(FILE *out, const report_job_t *job)
{
    const report_matrix_t *m = &job->matrix;
    fputs("kind,sender,receiver,messages,bytes\n", out);
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        for (int i = 0; i < m->ncells[k]; i++) {
            const report_cell_t *c = &m->cells[k][i];
            fprintf(out, "%s,%d,%d,", kind_names[k], c->sender, c->receiver);
            if (c->msgs >= 0) fprintf(out, "%lld", c->msgs);
            fprintf(out, ",%lld\n", c->bytes);
        }
    return ferror(out) ? -1 : 0;
}

/* ---- JSON: "matrix": {"kinds": [...], "axes": {kind: what a cell's row
 * and column are}, "absent": {kind: why}, "entries": {kind: [[sender,
 * receiver, msgs (null: not counted), bytes], ...]}}, or null with
 * "matrix_note" */
int report_matrix_json(json_t *obj, const report_job_t *job)
{
    const report_matrix_t *m = &job->matrix;
    int bad = 0;
    if (!report_matrix_any(job)) {
        bad |= json_object_set_new(obj, "matrix", json_null());
        if (m->note[0]) bad |= json_object_set_new(obj, "matrix_note", report_json_string(m->note));
        return bad ? -1 : 0;
    }
    json_t *kinds = json_array(), *axes = json_object(), *absent = json_object(), *entries = json_object();
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        if (!m->nranks[k]) {
            bad |=
                json_object_set_new(absent, kind_names[k],
                                    report_json_string(m->why[k][0] ? m->why[k] : "not given by this MPI"));
            continue;
        }
        bad |= json_array_append_new(kinds, json_string(kind_names[k]));
        bad |= json_object_set_new(axes, kind_names[k], report_json_string(kind_axes[k]));
        json_t *cells = json_array();
        for (int i = 0; i < m->ncells[k]; i++) {
            const report_cell_t *c = &m->cells[k][i];
            bad |= json_array_append_new(cells, json_pack("[i,i,o,I]", c->sender, c->receiver,
                                                          c->msgs >= 0 ? json_integer(c->msgs) : json_null(),
                                                          (json_int_t)c->bytes));
        }
        bad |= json_object_set_new(entries, kind_names[k], cells);
    }
    bad |= json_object_set_new(
        obj, "matrix",
        json_pack("{s:o,s:o,s:o,s:o}", "kinds", kinds, "axes", axes, "absent", absent, "entries", entries));
    return bad ? -1 : 0;
}

/* ---- the table: one line per kind */
void report_matrix_table(FILE *out, const report_job_t *job)
{
    const report_matrix_t *m = &job->matrix;
    if (!report_matrix_any(job)) {
        if (m->note[0]) fprintf(out, "communication matrix: none (%s)\n", m->note);
        return;
    }
    fprintf(out, "communication matrix (sender -> receiver, in the counting window; %s):\n",
            job->no_files ? "-o writes every pair to matrix.csv" : "all in matrix.csv");
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) {
        if (!m->nranks[k]) {
            fprintf(out, "  %-8s none (%s)\n", kind_names[k],
                    m->why[k][0] ? m->why[k] : "not given by this MPI");
            continue;
        }
        totals_t t = cell_totals(m->cells[k], m->ncells[k]);
        fprintf(out, "  %-8s", kind_names[k]);
        if (k <= REPORT_MATRIX_COLL) fprintf(out, " %.0Lf message%s,", t.msgs, t.msgs == 1 ? "" : "s");
        fprintf(out, " %.0Lf byte%s, %d pair%s", t.bytes, t.bytes == 1 ? "" : "s", m->ncells[k],
                m->ncells[k] == 1 ? "" : "s");
        if (t.top) {
            fprintf(out, "; busiest %d -> %d: ", t.top->sender, t.top->receiver);
            if (t.top->msgs >= 0) fprintf(out, "%lld message%s, ", t.top->msgs, t.top->msgs == 1 ? "" : "s");
            fprintf(out, "%lld byte%s", t.top->bytes, t.top->bytes == 1 ? "" : "s");
        }
        fputc('\n', out);
        if (k == REPORT_MATRIX_COLL) fprintf(out, "           %s\n", kind_axes[k]);
    }
}

/* ---- the heatmap: a panel per kind present, rows senders, columns
 * receivers; beyond REPORT_MATRIX_SIDE ranks a cell is a block of ranks
 * (the sum over it) */
#define MX_PLOT  480
#define MX_LEFT  70
#define MX_TOP   72
#define MX_GAP   70
#define MX_FONT  10.0
#define MX_ZERO  "#f2f2f2"
#define MX_RIGHT 150

/* a panel with nothing sent gets its title and that line only */
int report_heatmap_height(const report_heatmap_t *h) { return h->ncells ? MX_TOP + MX_PLOT + MX_GAP : 56; }

int report_heatmap_width(void) { return MX_LEFT + MX_PLOT + 24 + MX_RIGHT; }

void report_heatmap_panel(FILE *out, const report_heatmap_t *h, int y_top)
{
    if (!h->ncells) {
        fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"14\">%s: %s</text>\n", y_top + 20, h->name,
                h->title);
        fprintf(out,
                "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#444\">nothing sent in the counting "
                "window</text>\n",
                y_top + 38);
        return;
    }
    int n = h->nprocs, b = report_matrix_block(n), side = (n + b - 1) / b;
    /* block sums, then the scale: bytes, or messages when no byte moved */
    long long *bytes = calloc((size_t)side * (size_t)side, sizeof *bytes);
    long long *msgs = calloc((size_t)side * (size_t)side, sizeof *msgs);
    if (!bytes || !msgs) {
        free(bytes);
        free(msgs);
        return;
    }
    for (int i = 0; i < h->ncells; i++) {
        const report_cell_t *c = &h->cells[i];
        size_t at = (size_t)(c->sender / b) * (size_t)side + (size_t)(c->receiver / b);
        bytes[at] += c->bytes;
        if (c->msgs > 0) msgs[at] += c->msgs;
    }
    long long maxb = 0, maxm = 0;
    for (size_t i = 0; i < (size_t)side * (size_t)side; i++) {
        if (bytes[i] > maxb) maxb = bytes[i];
        if (msgs[i] > maxm) maxm = msgs[i];
    }
    const long long *scale = maxb > 0 ? bytes : msgs;
    long long hi = maxb > 0 ? maxb : maxm;
    totals_t t = cell_totals(h->cells, h->ncells);
    int x0 = MX_LEFT, y0 = y_top + MX_TOP;
    double cell = (double)MX_PLOT / side;
    char colour[16];

    fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"14\">%s: %s</text>\n", y_top + 20, h->name, h->title);
    fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#444\">", y_top + 38);
    if (h->counts_msgs) fprintf(out, "%.0Lf message%s, ", t.msgs, t.msgs == 1 ? "" : "s");
    fprintf(out, "%.0Lf byte%s; colour: %s", t.bytes, t.bytes == 1 ? "" : "s",
            maxb > 0 ? "bytes" : "messages");
    if (b > 1) fprintf(out, "; a cell is a block of %d x %d ranks (their sum)", b, b);
    fputs("</text>\n", out);
    /* what row and column are, the kind's own words */
    fprintf(out, "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#444\">", y_top + 52);
    report_xml_str(out, h->axes);
    fputs("</text>\n", out);
    fputs("<g shape-rendering=\"crispEdges\">\n", out);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>\n", x0, y0, MX_PLOT,
            MX_PLOT, MX_ZERO);
    for (int r = 0; r < side; r++)
        for (int c = 0; c < side; c++) {
            size_t at = (size_t)r * (size_t)side + (size_t)c;
            if (scale[at] <= 0 && msgs[at] <= 0) continue;
            /* a pair with messages but no bytes still shows, in the lightest blue */
            report_heat_colour(hi > 0 && scale[at] > 0 ? (double)scale[at] / (double)hi : 0, colour,
                               sizeof colour);
            fprintf(out,
                    "<rect class=\"cell\" x=\"%.3f\" y=\"%.3f\" width=\"%.3f\" height=\"%.3f\" fill=\"%s\">",
                    x0 + c * cell, y0 + r * cell, cell, cell, colour);
            if (b > 1)
                fprintf(out, "<title>ranks %d-%d to %d-%d: ", r * b, r * b + b - 1, c * b, c * b + b - 1);
            else
                fprintf(out, "<title>%d to %d: ", r, c);
            if (h->counts_msgs) fprintf(out, "%lld message%s, ", msgs[at], msgs[at] == 1 ? "" : "s");
            fprintf(out, "%lld byte%s</title></rect>\n", bytes[at], bytes[at] == 1 ? "" : "s");
        }
    fputs("</g>\n", out);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", x0,
            y0, MX_PLOT, MX_PLOT);
    int kx = report_senders_label_step(side, cell, MX_FONT, 1),
        ky = report_senders_label_step(side, cell, MX_FONT, 0);
    fprintf(out, "<g font-size=\"%.0f\">\n", MX_FONT);
    for (int c = 0; c < side; c += kx)
        fprintf(out, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x0 + (c + 0.5) * cell,
                y0 + MX_PLOT + 14, c * b);
    for (int r = 0; r < side; r += ky)
        fprintf(out, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%d</text>\n", x0 - 5,
                y0 + (r + 0.5) * cell + MX_FONT * 0.35, r * b);
    fputs("</g>\n", out);
    fprintf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
            x0 + MX_PLOT / 2, y0 + MX_PLOT + 32, h->axis[1]);
    fprintf(out,
            "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">"
            "%s</text>\n",
            22, y0 + MX_PLOT / 2, 22, y0 + MX_PLOT / 2, h->axis[0]);
    /* the legend: light (least) to dark (largest), with both ends named */
    int xl = x0 + MX_PLOT + 24;
    for (int i = 0; i < 10; i++) {
        report_heat_colour((10 - i) / 10.0, colour, sizeof colour);
        fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"%d\" fill=\"%s\"/>\n", xl, y0 + i * 30,
                30, colour);
    }
    fprintf(out, "<g font-size=\"11\"><text x=\"%d\" y=\"%d\">%lld %s</text>\n", xl + 22, y0 + 10, hi,
            maxb > 0 ? "bytes" : "messages");
    fprintf(out, "<text x=\"%d\" y=\"%d\">few</text>\n", xl + 22, y0 + 300);
    fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"16\" fill=\"%s\" stroke=\"#000\"/>\n", xl,
            y0 + 316, MX_ZERO);
    fprintf(out, "<text x=\"%d\" y=\"%d\">none</text></g>\n", xl + 22, y0 + 328);
    free(bytes);
    free(msgs);
}

/* a kind of the job's matrix as a heatmap */
static report_heatmap_t kind_heatmap(const report_job_t *job, int k)
{
    return (report_heatmap_t){.cells = job->matrix.cells[k],
                              .ncells = job->matrix.ncells[k],
                              .nprocs = job->nprocs,
                              .name = kind_names[k],
                              .title = kind_titles[k],
                              .axes = kind_axes[k],
                              .axis = {kind_axis[k][0], kind_axis[k][1]},
                              .counts_msgs = k <= REPORT_MATRIX_COLL};
}

int report_matrix_svg_body(FILE *out, const report_job_t *job)
{
    int w = report_heatmap_width(), h = 40;
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        if (job->matrix.nranks[k]) {
            report_heatmap_t hm = kind_heatmap(job, k);
            h += report_heatmap_height(&hm);
        }
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\">\n",
            w, h, w, h);
    fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
    fprintf(
        out,
        "<text x=\"10\" y=\"24\" font-size=\"16\">papi-mpit-report: communication matrix, %d rank%s</text>\n",
        job->nprocs, job->nprocs == 1 ? "" : "s");
    int y = 40;
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++)
        if (job->matrix.nranks[k]) {
            report_heatmap_t hm = kind_heatmap(job, k);
            report_heatmap_panel(out, &hm, y);
            y += report_heatmap_height(&hm);
        }
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}

int report_write_matrix_svg(FILE *out, const report_job_t *job)
{
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    return report_matrix_svg_body(out, job);
}
