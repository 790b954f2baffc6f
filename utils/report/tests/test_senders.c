/* Unit test of the sender matrix's renderings (no MPI, no PAPI): the top
 * senders in the text, the CSV, the JSON, the note when there is no matrix,
 * and the heatmap's rank labels from 2 to 256 ranks.
 *
 *   test_senders [DIR]   also writes DIR/senders4.{csv,json,svg} and
 *                        DIR/senders256.svg (a dense 256-rank matrix) for the
 *                        caller to validate (python3, rsvg-convert)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static long long *cell(report_job_t *job, int r, int c)
{
    return &job->senders.matrix[(size_t)r * (size_t)job->senders.ncols + (size_t)c];
}

/* Every label of class cls ("xlabel"/"ylabel"): its position on the axis
 * (x or y attribute) and its number; returns how many. */
static int labels(const char *svg, const char *cls, double *pos, int *num, int max)
{
    char key[64];
    snprintf(key, sizeof key, "class=\"%s\"", cls);
    int n = 0;
    for (const char *p = strstr(svg, key); p && n < max; p = strstr(p + 1, key)) {
        const char *a = strstr(p, cls[0] == 'x' ? " x=\"" : " y=\"");
        const char *t = strchr(p, '>');
        if (!a || !t) break;
        pos[n] = strtod(a + 4, NULL);
        num[n] = atoi(t + 1);
        n++;
    }
    return n;
}

/* The label rule checked from outside: labels start at rank 0, step evenly,
 * each at its cell's centre, and never overlap: side by side (senders) at
 * least 0.7 em a digit plus 2 px apart, one above the other (receivers) at
 * least the font size plus 2 px (font 10); and they are not needlessly
 * sparse: the step is 1 or at most 2.5 times (the ratio of 1, 2, 5, 10) a
 * label's size with 4 px between. */
static void check_labels(const char *svg, int n)
{
    static double pos[1100];
    static int num[1100];
    int digits = 1;
    for (int v = n - 1; v >= 10; v /= 10) digits++;
    for (int axis = 0; axis < 2; axis++) {
        int k = labels(svg, axis ? "ylabel" : "xlabel", pos, num, 1100);
        EXPECT(k >= (n < 5 ? n : 5), "n=%d axis %d: %d labels", n, axis, k);
        EXPECT(k > 0 && num[0] == 0, "n=%d: the first label is rank 0", n);
        double need = axis ? 10 + 2 : digits * 0.7 * 10 + 2, cellpx = 640.0 / n;
        double size = axis ? 12 : digits * 0.7 * 10 + 4;
        int step = k > 1 ? num[1] - num[0] : n;
        EXPECT(step == 1 || step * cellpx <= 2.5 * size, "n=%d axis %d: step %d too sparse", n, axis, step);
        for (int i = 1; i < k; i++) {
            EXPECT(num[i] - num[i - 1] == step, "n=%d: labels %d %d not evenly spaced", n, num[i - 1],
                   num[i]);
            EXPECT(pos[i] - pos[i - 1] >= need,
                   "n=%d axis %d: labels %d and %d overlap (%.1f px apart, need %.1f)", n, axis, num[i - 1],
                   num[i], pos[i] - pos[i - 1], need);
        }
        if (k > 1) EXPECT(fabs((pos[1] - pos[0]) - step * cellpx) < 0.05, "n=%d: labels at cell centres", n);
        EXPECT(k == 0 || num[k - 1] + step >= n, "n=%d: labels run to the last ranks (last %d)", n,
               num[k - 1]);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir) EXPECT(report_mkdir_p(dir) == 0, "mkdir %s", dir);

    /* ---- 4 ranks: rank 1 gets 5 from 0, 2 from 2, 2 from 3 and 1 from
     * itself (the top 3 with the tie kept in rank order); rank 2 only
     * "other" senders; rank 3 nothing; rank 0 sent no row. */
    report_job_t job;
    report_job_init(&job, 4);
    report_job_senders(&job, 4);
    job.senders.kind = REPORT_SENDERS_COUNT;
    for (int r = 1; r < 4; r++) job.senders.present[r] = 1;
    *cell(&job, 1, 0) = 5, *cell(&job, 1, 1) = 1, *cell(&job, 1, 2) = 2, *cell(&job, 1, 3) = 2;
    job.senders.other[2] = 7;
    char *text = render(report_write_table, &job);
    EXPECT(strstr(text, "unexpected messages by sender (top 3 per receiver; all in senders.csv):\n") != NULL,
           "%s", text);
    free(text);
    /* without -o the table names no file but how to have it */
    job.no_files = 1;
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "(top 3 per receiver; -o writes all to senders.csv):\n") &&
               !strstr(text, "all in senders"),
           "%s", text);
    job.no_files = 0;
    EXPECT(strstr(text, "\n  rank 1 (10 in all): from rank 0: 5, from rank 2: 2, from rank 3: 2\n") != NULL,
           "%s", text);
    EXPECT(strstr(text, "\n  rank 2 (7 in all): other senders: 7\n") != NULL, "%s", text);
    EXPECT(strstr(text, "rank 0 (") == NULL && strstr(text, "rank 3 (") == NULL, "%s", text);
    free(text);
    text = render(report_write_senders_csv, &job);
    EXPECT(strcmp(text, "receiver,0,1,2,3,other\n0,,,,,\n1,5,1,2,2,0\n2,0,0,0,0,7\n3,0,0,0,0,0\n") == 0,
           "csv:\n%s", text);
    free(text);
    json_t *doc = render_json(&job, &text);
    EXPECT(json_is(json_object_get(doc, "senders"),
                   "{\"kind\": \"count\", \"columns\": 4, \"matrix\": [null, [5, 1, 2, 2], [0, 0, 0, 0], "
                   "[0, 0, 0, 0]], \"other\": [null, 0, 7, 0]}") &&
               json_is_null(json_object_get(doc, "matrix")) && strcmp(json_last_key(doc), "matrix") == 0,
           "json:\n%s", text);
    json_decref(doc);
    free(text);
    text = render(report_write_senders_svg, &job);
    EXPECT(strstr(text, "17 in all") != NULL && strstr(text, ">other</text>") != NULL, "svg facts");
    EXPECT(strstr(text, "<title>rank 1 from rank 0: 5</title>") != NULL, "svg cell tooltip");
    EXPECT(strstr(text, "1 rank sent no row") != NULL, "svg: the missing row said");
    free(text);
    if (dir) {
        EXPECT(report_write_file(dir, "senders4.csv", &job, report_write_senders_csv) == 0, "csv file");
        EXPECT(report_write_file(dir, "senders4.json", &job, report_write_json) == 0, "json file");
        EXPECT(report_write_file(dir, "senders4.svg", &job, report_write_senders_svg) == 0, "svg file");
    }

    /* queue_max wording */
    job.senders.kind = REPORT_SENDERS_QUEUE_MAX;
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "largest unexpected queue by sender") != NULL &&
               strstr(text, "\n  rank 1: from rank 0: 5,") != NULL,
           "%s", text);
    free(text);
    doc = render_json(&job, &text);
    EXPECT(json_is(json_object_get(json_object_get(doc, "senders"), "kind"), "\"queue_max\""), "%s", text);
    json_decref(doc);
    free(text);
    report_job_free(&job);

    /* ---- no source: one note, null in the JSON */
    report_job_init(&job, 2);
    snprintf(job.senders.note, sizeof job.senders.note, "no source \"here\"");
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "unexpected messages by sender: not available (no source \"here\")\n") != NULL, "%s",
           text);
    free(text);
    doc = render_json(&job, &text);
    EXPECT(json_is_null(json_object_get(doc, "senders")) &&
               json_is(json_object_get(doc, "senders_note"), "\"no source \\\"here\\\"\"") &&
               json_is_null(json_object_get(doc, "matrix")),
           "%s", text);
    json_decref(doc);
    free(text);
    report_job_free(&job);

    /* ---- labels from 2 to 256 ranks (a ring: one sender per receiver) */
    for (int n = 2; n <= 256; n++) {
        report_job_init(&job, n);
        report_job_senders(&job, n);
        job.senders.kind = REPORT_SENDERS_COUNT;
        for (int r = 0; r < n; r++) job.senders.present[r] = 1, *cell(&job, (r + 1) % n, r) = r + 1;
        text = render(report_write_senders_svg, &job);
        check_labels(text, n);
        free(text);
        report_job_free(&job);
    }

    /* ---- a dense 256-rank matrix, for rsvg-convert: neighbours flood most */
    report_job_init(&job, 256);
    report_job_senders(&job, 256);
    job.senders.kind = REPORT_SENDERS_COUNT;
    for (int r = 0; r < 256; r++) {
        job.senders.present[r] = 1;
        for (int c = 0; c < 256; c++) {
            int d = abs(r - c);
            *cell(&job, r, c) = d == 0 ? 0 : 1000 / d + (r * 7 + c * 3) % 5;
        }
    }
    job.senders.other[17] = 300;
    text = render(report_write_senders_svg, &job);
    EXPECT(strstr(text, "largest 1003 (rank 0 from rank 1)") != NULL, "largest cell named");
    free(text);
    if (dir) EXPECT(report_write_file(dir, "senders256.svg", &job, report_write_senders_svg) == 0, "svg 256");
    report_job_free(&job);

    if (failures) return 1;
    printf("PASS report senders\n");
    return 0;
}
