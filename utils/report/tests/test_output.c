/* Unit test of the report renderings (no MPI, no PAPI): statistics over
 * ranks, ranks of min and max, imbalance, events missing on some ranks,
 * doubles, names that need quoting in CSV, JSON and XML.
 *
 *   test_output [DIR]   also writes DIR/unit.{txt,csv,json,svg} for the
 *                       caller to validate (python3 -m json.tool, rsvg-convert)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "render.h"

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * (fabs(a) + fabs(b) + 1); }

static int render_svg(FILE *f, const report_job_t *job) { return report_write_svg(f, job, NULL); }

/* Out of memory the job's allocations answer failure, never end the process
 * (it is the measured program's, at MPI_Finalize).  The address space is
 * held to 1 GiB, so that arrays of 2^31 - 1 ranks fail on any machine. */
static void test_out_of_memory(void)
{
    struct rlimit was, cap;
    getrlimit(RLIMIT_AS, &was);
    cap = was;
    cap.rlim_cur = 1UL << 30;
    if (was.rlim_cur != RLIM_INFINITY && was.rlim_cur < cap.rlim_cur) cap.rlim_cur = was.rlim_cur;
    EXPECT(setrlimit(RLIMIT_AS, &cap) == 0, "setrlimit");
    report_job_t job;
    EXPECT(report_job_init(&job, 0x7fffffff) == -1 && job.hosts == NULL && job.nprocs == 0, "init");
    report_job_free(&job);
    EXPECT(report_job_init(&job, 2) == 0, "init of 2 ranks");
    job.nprocs = 0x7fffffff; /* as if it had that many: each per-rank array fails */
    EXPECT(report_job_event(&job, "perf::TASK-CLOCK", "ns", 0) == NULL && job.nevents == 0, "event");
    EXPECT(report_job_senders(&job, 0x7fffffff) == -1 && job.senders.matrix == NULL && job.senders.ncols == 0,
           "senders");
    job.nprocs = 2;
    EXPECT(report_job_event(&job, "perf::TASK-CLOCK", "ns", 0) == &job.events[0] && job.nevents == 1,
           "an event once memory is there");
    report_job_free(&job);
    setrlimit(RLIMIT_AS, &was);
}

int main(int argc, char **argv)
{
    report_job_t job;
    report_job_init(&job, 4);
    for (int r = 0; r < 4; r++) {
        snprintf(job.hosts[r], sizeof job.hosts[r], "node%d", r / 2);
        job.elapsed[r] = 1.5 + r;
    }
    snprintf(job.mpi_library, sizeof job.mpi_library, "Test MPI \"quoted\"");
    snprintf(job.command, sizeof job.command, "./app <a&b>");

    /* integers: 10 20 40 10 -> min 10 at rank 0 (first), max 40 at 2, mean 20 */
    long long iv[4] = {10, 20, 40, 10};
    report_event_t *e = report_job_event(&job, "mpit:::BYTES_SENT", "bytes", 0);
    for (int r = 0; r < 4; r++) e->present[r] = 1, e->ival[r] = iv[r], e->dval[r] = (double)iv[r];
    /* doubles, rank 3 missing */
    double dv[3] = {0.5, 0.25, 1.0};
    e = report_job_event(&job, "mpit:::time,with \"comma\"<x>", "s", 1);
    for (int r = 0; r < 3; r++) e->present[r] = 1, e->dval[r] = dv[r];
    /* all zero: no imbalance */
    e = report_job_event(&job, "perf::TASK-CLOCK", "ns", 0);
    for (int r = 0; r < 4; r++) e->present[r] = 1;
    /* measured nowhere */
    report_job_event(&job, "mpit:::NOWHERE", "", 0);
    EXPECT(report_job_event(&job, "mpit:::BYTES_SENT", "bytes", 0) == &job.events[0], "lookup by name");
    report_job_skip(&job, "mpit:::NOPE", "no such event", 1);
    report_job_skip(&job, "mpit:::NOPE", "no such event", 2);

    report_compute(&job);
    e = &job.events[0];
    EXPECT(e->nranks == 4, "%d", e->nranks);
    EXPECT(e->min == 10 && e->min_rank == 0, "min %g at %d", e->min, e->min_rank);
    EXPECT(e->max == 40 && e->max_rank == 2, "max %g at %d", e->max, e->max_rank);
    EXPECT(near(e->mean, 20) && near(e->imbalance, 2), "mean %g imbalance %g", e->mean, e->imbalance);
    EXPECT(e->sum == 80, "sum %Lg", e->sum);
    e = &job.events[1];
    EXPECT(e->nranks == 3 && e->min_rank == 1 && e->max_rank == 2, "%d %d %d", e->nranks, e->min_rank,
           e->max_rank);
    EXPECT(near(e->mean, 1.75 / 3), "mean %g", e->mean);
    e = &job.events[2];
    EXPECT(e->mean == 0 && e->imbalance == 0, "zero event: mean %g imbalance %g", e->mean, e->imbalance);
    EXPECT(job.events[3].nranks == 0 && job.events[3].min_rank == -1, "unmeasured event");

    /* -c: the names that match no measured event are said (they were dropped
     * without a word); a name may omit its component prefix */
    char unknown[256];
    EXPECT(report_chart_unknown(&job, "TASK-CLOCK,mpit:::BYTES_SENT, all", unknown, sizeof unknown) == 0 &&
               !*unknown,
           "all known: [%s]", unknown);
    EXPECT(report_chart_unknown(&job, "TASK_CLOCK,BYTES_SENT,NOWHERE,,mpit:::NOPE", unknown,
                                sizeof unknown) == 3 &&
               strcmp(unknown, "TASK_CLOCK, NOWHERE, mpit:::NOPE") == 0,
           "unknown: [%s]", unknown);
    EXPECT(report_chart_unknown(&job, NULL, unknown, sizeof unknown) == 0 && !*unknown, "no list: [%s]",
           unknown);
    EXPECT(job.nskips == 1 && job.skips[0].nranks == 2 && job.skips[0].first_rank == 1, "skips");

    /* renderings into memory: the key facts appear */
    char *text = render(report_write_table, &job);
    EXPECT(strstr(text, "4 ranks on 2 hosts") != NULL, "%s", text);
    EXPECT(strstr(text, "(3 of 4 ranks)") != NULL, "%s", text);
    EXPECT(strstr(text, "skipped on 2 of 4 ranks (first: rank 1): mpit:::NOPE") != NULL, "%s", text);
    EXPECT(strstr(text, "not provided") == NULL, "no default metric missing yet: %s", text);
    free(text);

    /* default metrics the MPI cannot give: after the events, one line per
     * reason naming its metrics, not again among the skipped; in the JSON
     * "not_provided" with each metric's own reason */
    static const char *const spc[] = {"OOS_MSGS", "BYTES_PUT", "BYTES_GET"};
    for (int k = 0; k < 3; k++)
        for (int r = 0; r < 4; r++) {
            char name[64], why[256];
            snprintf(name, sizeof name, "mpit:::%s", spc[k]);
            snprintf(why, sizeof why, "%s is not available on the running Open MPI: it needs \"SPC\"",
                     spc[k]);
            report_skip_t *d = report_job_skip(&job, name, why, r);
            if (d) d->is_default = 1;
        }
    report_job_skip(&job, "mpit:::COMMS_CREATED", "COMMS_CREATED is not available: it needs Open MPI 6.0", 0)
        ->is_default = 1;
    report_job_skip(&job, "mpit:::ODD", "no reason of the usual form", 2)->is_default = 1;
    /* one long sentence, cut at the reason's length at two places by two names */
    for (int k = 0; k < 2; k++) {
        char name[64], why[REPORT_REASON_LEN + 1024], *w = why;
        const char *me = k ? "LONG_BBBBBBBB" : "LONG_A";
        snprintf(name, sizeof name, "mpit:::%s", me);
        w += sprintf(w, "%s is not available: it needs a long way", me);
        for (int i = 0; i < REPORT_REASON_LEN / 3 + 80; i++) w += sprintf(w, " on");
        for (int r = 0; r < 4; r++) report_job_skip(&job, name, why, r)->is_default = 1;
    }
    text = render(report_write_table, &job);
    char *line = strstr(text, "\n3 metrics need \"SPC\": OOS_MSGS, BYTES_PUT, BYTES_GET\n");
    char *head = strstr(text, "\nevent "), *row = strstr(text, "\nperf::TASK-CLOCK ");
    EXPECT(line && head && row && head < row && row < line, "after the events: %s", text);
    EXPECT(strstr(text, "\n1 metric needs Open MPI 6.0: COMMS_CREATED (on 1 of 4 ranks)\n"), "%s", text);
    EXPECT(strstr(text, "\n1 metric not provided by this MPI (no reason of the usual form): ODD (on 1 of 4 "
                        "ranks)\n"),
           "%s", text);
    EXPECT(strstr(text, "skipped on all ranks: mpit:::OOS_MSGS") == NULL, "not repeated: %s", text);
    EXPECT(strstr(text, "not available on the running") == NULL, "no metric's own sentence: %s", text);
    EXPECT(strstr(text, "\n2 metrics need a long way on on") && strstr(text, "...: LONG_A, LONG_BBBBBBBB\n"),
           "a cut reason grouped with its longer cut: %s", text);
    free(text);
    json_t *doc = render_json(&job, &text), *np = json_object_get(doc, "not_provided");
    EXPECT(json_is(json_array_get(np, 0), "{\"name\": \"mpit:::OOS_MSGS\", \"reason\": \"OOS_MSGS is not "
                                          "available on the running Open MPI: it needs \\\"SPC\\\"\", "
                                          "\"ranks\": 4}"),
           "json: %s", text);
    size_t odd = json_array_size(np);
    for (size_t i = 0; i < json_array_size(np); i++)
        if (json_is(json_array_get(np, i), "{\"name\": \"mpit:::ODD\", \"reason\": \"no reason of the usual "
                                           "form\", \"ranks\": 1}"))
            odd = i;
    EXPECT(odd + 1 < json_array_size(np), "json: ODD, not the last: %s", text);
    json_decref(doc);
    EXPECT(report_not_provided_count(&job) == 7, "seven defaults missing");
    free(text);
    /* the values for people in the table: bytes, and a time in seconds */
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "\nmpit:::BYTES_SENT") && strstr(text, "  10 B      0  "), "bytes: %s", text);
    EXPECT(strstr(text, "583 ms") != NULL, "the mean 0.583 s: %s", text);
    job.nskips -= 7; /* the rest of the test as before */
    free(text);
    text = render(report_write_csv, &job);
    EXPECT(strstr(text, "\"mpit:::time,with \"\"comma\"\"<x>\"") != NULL, "csv quoting: %s", text);
    EXPECT(strstr(text, "\n3,node1,4.500000000,10,,0,\n") != NULL, "csv row of rank 3: %s", text);
    free(text);

    /* no sampled maximum: no sentence, "sampling": null */
    char note[1024];
    EXPECT(report_sampling_note(note, sizeof note, &job) == 0 && !note[0], "note %s", note);
    doc = render_json(&job, &text);
    EXPECT(json_is_null(json_object_get(doc, "sampling")), "%s", text);
    json_decref(doc);
    free(text);
    /* a sampled maximum: the table's header line and row, the JSON */
    job.events[0].sampled = 1;
    job.sample_ms = 2.5;
    job.samples_min = 7;
    EXPECT(report_sampling_note(note, sizeof note, &job) == 1 &&
               strcmp(note,
                      "mpit:::BYTES_SENT: the largest queue length seen by a read every 2.5 ms (sampled; "
                      "at least 7 samples per rank), as the MPI publishes only the current length") == 0,
           "note %s", note);
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "\n  maxima: mpit:::BYTES_SENT: the largest") != NULL, "%s", text);
    EXPECT(strstr(text, "2.000  (sampled)\n") != NULL, "%s", text);
    free(text);
    doc = render_json(&job, &text);
    json_t *sampling = json_object_get(doc, "sampling"),
           *e0 = json_array_get(json_object_get(doc, "events"), 0);
    EXPECT(json_is(json_object_get(sampling, "period_ms"), "2.5") &&
               json_is(json_object_get(sampling, "samples_min"), "7") &&
               json_is(json_object_get(sampling, "cpu_s_max"), "0.0") &&
               json_is(json_object_get(sampling, "events"), "[\"mpit:::BYTES_SENT\"]"),
           "%s", text);
    EXPECT(json_is(json_object_get(e0, "measured_ranks"), "4") &&
               json_is_true(json_object_get(e0, "sampled")),
           "%s", text);
    json_decref(doc);
    free(text);
    job.sample_ms = 0; /* sampling off */
    report_sampling_note(note, sizeof note, &job);
    EXPECT(strstr(note, "at the start and end reads only (sampling off)") != NULL, "note %s", note);

    if (argc > 1) {
        const char *dir = argv[1];
        EXPECT(report_mkdir_p(dir) == 0, "mkdir %s", dir);
        EXPECT(report_write_file(dir, "unit.txt", &job, report_write_table) == 0, "txt");
        EXPECT(report_write_file(dir, "unit.csv", &job, report_write_csv) == 0, "csv");
        EXPECT(report_write_file(dir, "unit.json", &job, report_write_json) == 0, "json");
        EXPECT(report_write_file(dir, "unit.svg", &job, render_svg) == 0, "svg");
    }
    /* a byte that is not UTF-8 (a host name in another encoding) becomes
     * U+FFFD: the document is still written, and parses */
    char host[REPORT_HOST_LEN];
    snprintf(host, sizeof host, "%s", job.hosts[1]);
    snprintf(job.hosts[1], sizeof job.hosts[1], "n\xe9ud\xc3\xa9");
    doc = render_json(&job, &text);
    EXPECT(json_is(json_array_get(json_object_get(doc, "hosts"), 1), "\"n\xef\xbf\xbdud\xc3\xa9\""), "%s",
           text);
    json_decref(doc);
    free(text);
    snprintf(job.hosts[1], sizeof job.hosts[1], "%s", host);
    report_job_free(&job);
    test_out_of_memory();
    if (failures) return 1;
    printf("PASS report output\n");
    return 0;
}
