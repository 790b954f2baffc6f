/* Unit test of report.html and overview.svg (no MPI, no PAPI): the heatmap
 * has a cell per drawn event and rank (or rank group beyond 256 ranks, said
 * on the page), all-zero events are named on one line and not drawn, rows
 * go by max/mean, chart.svg draws no panel for an all-zero event, and the
 * page holds the skipped events, the sender matrix and the run's facts.
 *
 *   test_html [DIR]   also writes, for 2, 4, 256 and 1024 ranks,
 *                     DIR/N/{report.html,report.json,overview.svg,chart.svg}
 *                     for the caller to check in a browser
 *                     (ctests/report_html_check.py) and with rsvg-convert
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static int count(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what)) n++;
    return n;
}

static void set(report_event_t *e, int r, double v)
{
    e->present[r] = 1;
    e->dval[r] = v;
    e->ival[r] = (long long)v;
}

/* A job of n ranks and nev events (nev >= 8 gives every kind: uneven,
 * even, doubles, all zero, constant, measured nowhere, missing on a rank). */
static void make_job(report_job_t *job, int n, int nev, int senders)
{
    report_job_init(job, n);
    for (int r = 0; r < n; r++) {
        snprintf(job->hosts[r], sizeof job->hosts[r], "node%d", n <= 4 ? r / 2 : r / 16);
        job->elapsed[r] = 2.0 + r * 0.001;
    }
    snprintf(job->mpi_library, sizeof job->mpi_library, "Test MPI 1.0 <&>");
    snprintf(job->command, sizeof job->command, "./traffic --rounds 20");
    snprintf(job->started, sizeof job->started, "2025-01-01T00:00:00+0000");
    snprintf(job->papi_version, sizeof job->papi_version, "7.0.0.0");
    job->tool_cost_measured = 1;
    job->tool_startup_s = 0.0125;
    job->tool_collect_s = 0.003;
    report_event_t *e = report_job_event(job, "mpit:::UNEXPECTED_MSGS", "", 0);
    for (int r = 0; r < n; r++) set(e, r, r == n / 3 ? 1000 + r : 50 + r % 5);
    if (nev > 1) {
        e = report_job_event(job, "perf::TASK-CLOCK", "ns", 0);
        for (int r = 0; r < n; r++) set(e, r, 2000000000.0 + 1000.0 * r);
    }
    if (nev > 2) {
        e = report_job_event(job, "mpit:::MATCH_TIME", "ns", 1);
        for (int r = 0; r < n; r++) set(e, r, 0.5 + r * 0.25);
    }
    if (nev > 3) {
        e = report_job_event(job, "mpit:::OOS_MSGS", "", 0);
        for (int r = 0; r < n; r++) set(e, r, 0);
    }
    if (nev > 4) {
        e = report_job_event(job, "mpit:::POSTED_QUEUE_MAX", "", 0);
        for (int r = 0; r < n; r++) set(e, r, 7);
    }
    if (nev > 5) report_job_event(job, "mpit:::NOWHERE", "", 0);
    if (nev > 6) {
        e = report_job_event(job, "mpit:::BYTES_SENT", "bytes", 0);
        for (int r = 0; r < n; r++)
            if (r != 1) set(e, r, 65536.0 * 20 + (r % 2) * 400);
    }
    if (nev > 7) {
        e = report_job_event(job, "mpit:::UNEXPECTED_QUEUE_MAX", "", 0);
        for (int r = 0; r < n; r++) set(e, r, 0);
    }
    for (int i = 8; i < nev; i++) {
        char name[64];
        snprintf(name, sizeof name, "mpit:::runtime_spc_OMPI_SPC_EXTRA_COUNTER_%02d", i);
        e = report_job_event(job, name, "", 0);
        for (int r = 0; r < n; r++) set(e, r, i % 5 == 0 ? 0 : (r * (i + 3)) % (i + 11));
    }
    report_job_skip(job, "mpit:::BYTES_PUT",
                    "BYTES_PUT is not available on this MPI: it needs Open MPI's SPCs", 0)
        ->is_default = 1;
    for (int r = 1; r < n; r++) report_job_skip(job, "mpit:::BYTES_PUT", "", r);
    report_job_skip(job, "mpit:::BYTES_GET",
                    "BYTES_GET is not available on this MPI: it needs Open MPI's SPCs", 0)
        ->is_default = 1;
    for (int r = 1; r < n; r++) report_job_skip(job, "mpit:::BYTES_GET", "", r);
    report_job_skip(job, "perf::NO_SUCH", "event not found", n - 1);
    if (senders) {
        report_job_senders(job, n);
        job->senders.kind = REPORT_SENDERS_COUNT;
        for (int r = 0; r < n; r++) {
            job->senders.present[r] = 1;
            job->senders.matrix[(size_t)r * n + (size_t)((r + n - 1) % n)] = 40 + r;
            if (n > 2) job->senders.matrix[(size_t)r * n + (size_t)((r + n - 2) % n)] = r % 3;
        }
    } else {
        snprintf(job->senders.note, sizeof job->senders.note,
                 "this MPI gives no unexpected messages by sender");
    }
    report_compute(job);
}

static void check(const report_job_t *job, int nev)
{
    int n = job->nprocs, g = report_overview_group(n), ncols = (n + g - 1) / g;
    int drawn = 0, zeros = 0;
    for (int i = 0; i < job->nevents; i++) {
        drawn += job->events[i].nranks && !report_event_all_zero(&job->events[i]);
        zeros += report_event_all_zero(&job->events[i]);
    }
    char *html = render(report_write_html, job), *svg = render(report_write_overview_svg, job);
    EXPECT(count(html, "class=\"cell\"") == drawn * ncols, "n=%d nev=%d: %d cells, %d rows of %d", n, nev,
           count(html, "class=\"cell\""), drawn, ncols);
    EXPECT(count(svg, "class=\"cell\"") == drawn * ncols, "n=%d: overview.svg cells", n);
    EXPECT(count(html, "<script") == 1 && !strstr(html, "src=") && !strstr(html, "https:") &&
               !strstr(html, "<link") && !strstr(html, "url(http"),
           "n=%d: one inline script, nothing fetched", n);
    EXPECT((g > 1) == (strstr(html, "groups of") != NULL), "n=%d: groups said iff used", n);
    EXPECT((zeros > 0) == (strstr(svg, "0 on every rank (not drawn):") != NULL), "n=%d: zero line", n);
    if (nev >= 8) {
        EXPECT(!strstr(svg, "data-name=\"mpit:::OOS_MSGS\""), "an all-zero event is not drawn");
        EXPECT(strstr(html, "added, but no rank returned a value"), "unmeasured event listed");
        /* the default metrics the MPI cannot give: a pointer at the top, the
         * metrics once, a line per reason, under Not measured */
        const char *np = strstr(html, "<p id=\"not-provided\">This MPI cannot give 2 of the default metrics"),
                   *ov = strstr(html, "id=\"overview\""), *sk = strstr(html, "id=\"skipped\"");
        EXPECT(np && ov && sk && np < ov, "the pointer at the top");
        EXPECT(
            sk &&
                strstr(sk,
                       "<li data-names=\"mpit:::BYTES_PUT mpit:::BYTES_GET\">2 metrics need Open MPI's SPCs: "
                       "<code>BYTES_PUT</code>, <code>BYTES_GET</code></li>"),
            "one line for the reason, naming both");
        EXPECT(count(html, "BYTES_PUT") == 2, "BYTES_PUT once (the line and its data-names): %d",
               count(html, "BYTES_PUT"));
        EXPECT(strstr(html, "<td>perf::NO_SUCH</td><td>event not found</td>"), "another skip, in the table");
        /* numbers for people, the exact value in data-v and the tooltip */
        EXPECT(strstr(html, "data-v=\"1310720\" title=\"1310720 bytes\">1.25 MiB</td>"),
               "bytes: human, exact");
        EXPECT(strstr(html, "PAPI</dt><dd>7.0.0.0"), "PAPI version");
        EXPECT(strstr(html, "12.500 ms at start-up"), "the tool's cost");
        EXPECT(strstr(html, "Test MPI 1.0 &lt;&amp;&gt;"), "the MPI library, escaped");
        EXPECT(strstr(html, "id=\"same\"") && strstr(html, "mpit:::POSTED_QUEUE_MAX = 7"), "constant event");
    }
    /* rows by max/mean: UNEXPECTED_MSGS (one rank far above) first */
    const char *first = strstr(svg, "class=\"row\" data-name=\"");
    EXPECT(first && strncmp(first + 23, "mpit:::UNEXPECTED_MSGS\"", 23) == 0, "n=%d: the most uneven first",
           n);
    if (job->senders.kind) {
        EXPECT(strstr(html, "Most unexpected messages: <b>rank"), "n=%d: the sentence on senders", n);
        EXPECT(strstr(html, "receiver rank"), "n=%d: the matrix", n);
    }
    free(html);
    free(svg);
}

static int render_chart(FILE *f, const report_job_t *job) { return report_write_svg(f, job, NULL); }

int main(int argc, char **argv)
{
    static const int sizes[][3] = {{2, 1, 0}, {4, 8, 1}, {256, 24, 1}, {1024, 60, 1}, {3, 60, 0}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        report_job_t job;
        make_job(&job, sizes[k][0], sizes[k][1], sizes[k][2]);
        check(&job, sizes[k][1]);
        char *chart = render(render_chart, &job);
        if (sizes[k][1] >= 8) {
            EXPECT(strstr(chart, "0 on every rank: mpit:::OOS_MSGS, mpit:::UNEXPECTED_QUEUE_MAX"),
                   "chart.svg names the all-zero events");
            EXPECT(!strstr(chart, ">mpit:::OOS_MSGS<") && !strstr(chart, ">mpit:::OOS_MSGS ("),
                   "chart.svg draws no panel for them");
        }
        free(chart);
        if (argc > 1 && sizes[k][0] != 3) {
            char dir[4096];
            snprintf(dir, sizeof dir, "%s/%d", argv[1], sizes[k][0]);
            EXPECT(report_mkdir_p(dir) == 0, "mkdir %s", dir);
            EXPECT(report_write_file(dir, "report.html", &job, report_write_html) == 0, "html");
            EXPECT(report_write_file(dir, "report.json", &job, report_write_json) == 0, "json");
            EXPECT(report_write_file(dir, "overview.svg", &job, report_write_overview_svg) == 0, "overview");
            EXPECT(report_write_file(dir, "chart.svg", &job, render_chart) == 0, "chart");
        }
        report_job_free(&job);
    }
    if (failures) return 1;
    printf("PASS report html\n");
    return 0;
}
