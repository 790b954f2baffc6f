/* Unit test of the communication matrix's renderings (no MPI, no PAPI):
 * cells sorted whatever order they came in, the CSV, the JSON (kinds, the
 * reason of an absent kind, RMA without messages), the table's line per
 * kind with its busiest pair, the note when there is no matrix, and the
 * heatmap's blocks beyond REPORT_MATRIX_SIDE ranks.
 *
 *   test_matrix [DIR]   also writes DIR/matrix4.svg and DIR/matrix300.svg
 *                       for the caller to render (rsvg-convert)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir) EXPECT(report_mkdir_p(dir) == 0, "mkdir %s", dir);

    /* ---- 4 ranks: p2p and one-sided gets; collectives absent with a reason */
    report_job_t job;
    report_job_init(&job, 4);
    EXPECT(report_matrix_kind("coll") == REPORT_MATRIX_COLL && report_matrix_kind("x") == -1, "kind names");
    for (int r = 0; r < 4; r++) {
        report_matrix_present(&job, REPORT_MATRIX_P2P);
        report_matrix_present(&job, REPORT_MATRIX_RMA_GET);
        report_matrix_present(&job, REPORT_MATRIX_RMA_PUT);
    }
    report_matrix_add(&job, REPORT_MATRIX_P2P, 2, 0, 3, 300);
    report_matrix_add(&job, REPORT_MATRIX_P2P, 0, 3, 1, 0);
    report_matrix_add(&job, REPORT_MATRIX_P2P, 0, 1, 2, 16);
    report_matrix_add(&job, REPORT_MATRIX_P2P, 9, 1, 2, 16); /* out of range: dropped */
    report_matrix_add(&job, REPORT_MATRIX_RMA_GET, 3, 1, -1, 24);
    snprintf(job.matrix.why[REPORT_MATRIX_COLL], REPORT_REASON_LEN, "hidden \"here\"");
    report_matrix_finish(&job);
    EXPECT(report_matrix_any(&job), "a matrix");

    char *text = render(report_write_matrix_csv, &job);
    EXPECT(strcmp(text, "kind,sender,receiver,messages,bytes\np2p,0,1,2,16\np2p,0,3,1,0\np2p,2,0,3,300\n"
                        "rma_get,3,1,,24\n") == 0,
           "csv:\n%s", text);
    free(text);
    json_t *doc = render_json(&job, &text);
    EXPECT(json_is(json_object_get(doc, "matrix"),
                   "{\"kinds\": [\"p2p\", \"rma_put\", \"rma_get\"],"
                   " \"axes\": {\"p2p\": \"row: sending rank, column: receiving rank\", "
                   "\"rma_put\": \"row: sending rank, column: receiving rank\", "
                   "\"rma_get\": \"row: the rank read from, column: the reading rank\"},"
                   " \"absent\": {\"coll\": \"hidden \\\"here\\\"\"},"
                   " \"entries\": {\"p2p\": [[0, 1, 2, 16], [0, 3, 1, 0], [2, 0, 3, 300]],"
                   " \"rma_put\": [], \"rma_get\": [[3, 1, null, 24]]}}") &&
               strcmp(json_last_key(doc), "matrix") == 0,
           "json:\n%s", text);
    json_decref(doc);
    free(text);
    text = render(report_write_table, &job);
    EXPECT(
        strstr(text, "\n  p2p      6 messages, 316 bytes, 3 pairs; busiest 2 -> 0: 3 messages, 300 bytes\n"),
        "%s", text);
    EXPECT(strstr(text, "\n  coll     none (hidden \"here\")\n"), "%s", text);
    EXPECT(strstr(text, "\n  rma_put  0 bytes, 0 pairs\n"), "%s", text);
    EXPECT(strstr(text, "\n  rma_get  24 bytes, 1 pair; busiest 3 -> 1: 24 bytes\n"), "%s", text);
    EXPECT(strstr(text,
                  "communication matrix (sender -> receiver, in the counting window; all in matrix.csv):\n"),
           "%s", text);
    free(text);
    /* without -o the table names no file but how to have it */
    job.no_files = 1;
    text = render(report_write_table, &job);
    EXPECT(strstr(text,
                  "communication matrix (sender -> receiver, in the counting window; -o writes every pair to "
                  "matrix.csv):\n") &&
               !strstr(text, "all in matrix.csv"),
           "%s", text);
    free(text);
    job.no_files = 0;
    text = render(report_write_matrix_svg, &job);
    EXPECT(strstr(text, "<title>0 to 3: 1 message, 0 bytes</title>") != NULL, "svg: a zero-byte pair shows");
    EXPECT(strstr(text, "<title>2 to 0: 3 messages, 300 bytes</title>") != NULL, "svg: a cell");
    EXPECT(strstr(text, "block of") == NULL, "svg: no blocks at 4 ranks");
    EXPECT(strstr(text, "rma_put: one-sided puts and accumulates</text>") &&
               strstr(text, "nothing sent in the counting window"),
           "svg: an empty kind said");
    if (dir) EXPECT(report_write_file(dir, "matrix4.svg", &job, report_write_matrix_svg) == 0, "svg file");
    free(text);
    report_job_free(&job);

    /* ---- no matrix: null and the note */
    report_job_init(&job, 2);
    snprintf(job.matrix.note, sizeof job.matrix.note, "MPICH has no per-peer variables");
    doc = render_json(&job, &text);
    EXPECT(json_is_null(json_object_get(doc, "matrix")) &&
               json_is(json_object_get(doc, "matrix_note"), "\"MPICH has no per-peer variables\"") &&
               strcmp(json_last_key(doc), "matrix_note") == 0,
           "%s", text);
    json_decref(doc);
    free(text);
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "communication matrix: none (MPICH has no per-peer variables)\n"), "%s", text);
    free(text);
    report_job_free(&job);

    /* ---- 300 ranks: blocks of 3, each cell the block's sum (a ring) */
    EXPECT(report_matrix_block(128) == 1 && report_matrix_block(129) == 2 && report_matrix_block(300) == 3,
           "block sizes");
    report_job_init(&job, 300);
    report_matrix_present(&job, REPORT_MATRIX_COLL);
    for (int r = 0; r < 300; r++) report_matrix_add(&job, REPORT_MATRIX_COLL, r, (r + 1) % 300, 1, 8);
    report_matrix_finish(&job);
    text = render(report_write_matrix_svg, &job);
    EXPECT(strstr(text, "a cell is a block of 3 x 3 ranks") != NULL, "svg: blocks said");
    /* block (0,0) holds 0->1 and 1->2; block (0,1) holds 2->3 */
    EXPECT(strstr(text, "<title>ranks 0-2 to 0-2: 2 messages, 16 bytes</title>") != NULL, "svg: block sum");
    EXPECT(strstr(text, "<title>ranks 0-2 to 3-5: 1 message, 8 bytes</title>") != NULL, "svg: next block");
    int cells = 0;
    for (const char *p = strstr(text, "class=\"cell\""); p; p = strstr(p + 1, "class=\"cell\"")) cells++;
    EXPECT(cells == 200, "svg: 100 diagonal + 100 next blocks, got %d", cells);
    if (dir) EXPECT(report_write_file(dir, "matrix300.svg", &job, report_write_matrix_svg) == 0, "svg file");
    free(text);
    report_job_free(&job);

    /* ---- collectives: a 4-rank gather to root 2, as Open MPI files it (at the
     * root, to each other rank); every rendering says the row is the root
     * and that a gather's data went the other way */
    report_job_init(&job, 4);
    for (int r = 0; r < 4; r++) report_matrix_present(&job, REPORT_MATRIX_COLL);
    for (int r = 0; r < 4; r++)
        if (r != 2) report_matrix_add(&job, REPORT_MATRIX_COLL, 2, r, 1, 800);
    report_matrix_finish(&job);
    const char *axes =
        "row: the calling rank, a rooted collective's root; column: its peer (gather, reduce: data "
        "went column to row)";
    EXPECT(strcmp(report_matrix_kind_axes(REPORT_MATRIX_COLL), axes) == 0, "coll axes: %s",
           report_matrix_kind_axes(REPORT_MATRIX_COLL));
    text = render(report_write_table, &job);
    EXPECT(strstr(text, "\n  coll     3 messages, 2400 bytes, 3 pairs; busiest 2 -> 0: 1 message, 800 bytes\n"
                        "           row: the calling rank, a rooted collective's root;") != NULL,
           "table: coll labelled\n%s", text);
    free(text);
    doc = render_json(&job, &text);
    EXPECT(json_is(json_object_get(json_object_get(doc, "matrix"), "axes"),
                   "{\"coll\": \"row: the calling rank, a rooted collective's root; column: its "
                   "peer (gather, reduce: data went column to row)\"}"),
           "json: coll axes\n%s", text);
    json_decref(doc);
    free(text);
    text = render(report_write_matrix_svg, &job);
    EXPECT(strstr(text, ">calling rank (root)</text>") && strstr(text, ">peer rank</text>") &&
               strstr(text, "column: its peer (gather, reduce: data went column to row)</text>") &&
               !strstr(text, ">sender rank</text>"),
           "svg: coll axes\n%s", text);
    free(text);
    report_job_free(&job);

    if (failures) fprintf(stderr, "%d failure(s)\n", failures);
    return failures != 0;
}
