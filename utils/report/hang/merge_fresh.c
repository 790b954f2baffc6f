/*
 * papi-mpit-merge: how fresh each rank's state is (merge_fresh.h).  Ranks
 * whose state is as old, to the millisecond, and from the same files are
 * one line, so that the section stays short at any scale.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "merge_fresh.h"
#include "report.h"

#define FRESH_LINES 16 /* lines of the section; report.json has every rank */

int fresh_init(merge_fresh_t *f, int nprocs)
{
    *f = (merge_fresh_t){.nprocs = nprocs};
    f->at = calloc((size_t)nprocs + 1, sizeof *f->at);
    f->map = calloc((size_t)nprocs + 1, sizeof *f->map);
    f->snap = calloc((size_t)nprocs + 1, sizeof *f->snap);
    return f->at && f->map && f->snap ? 0 : -1;
}

void fresh_free(merge_fresh_t *f) { free(f->at), free(f->map), free(f->snap); }

double fresh_text_wall(const char *text)
{
    if (!text || strncmp(text, "R\t", 2)) return 0;
    const char *p = text;
    for (int tab = 0; tab < 5; tab++) { /* R rank nprocs why signal TIME */
        p = strpbrk(p, "\t\n");
        if (!p || *p == '\n') return 0;
        p++;
    }
    return strtod(p, NULL);
}

void fresh_note(merge_fresh_t *f, int rank, double map, double snap, double at)
{
    if (rank < 0 || rank >= f->nprocs) return;
    f->map[rank] = map, f->snap[rank] = snap, f->at[rank] = at;
    if (at > f->end) f->end = at;
}

/* the snapshot was taken whole: no call began or ended after it */
static int snap_whole(const merge_fresh_t *f, int r) { return f->snap[r] && f->at[r] == f->snap[r]; }

static const char *from_words(const merge_fresh_t *f, int r)
{
    return f->map[r] && snap_whole(f, r)
               ? "the snapshot (no call began or ended after it: the mapped file holds the same)"
           : f->map[r] && f->snap[r] ? "the mapped state file; counters from the snapshot"
           : f->map[r]               ? "the mapped state file; no counters (they are in snapshots only)"
                                     : "the snapshot";
}

/* ms behind the end, and the counters' age in ms (-1 none) */
static long long behind_ms(const merge_fresh_t *f, int r)
{
    return (long long)((f->end - f->at[r]) * 1e3 + 0.5);
}
static long long counters_ms(const merge_fresh_t *f, int r)
{
    return f->snap[r] ? (long long)((f->end - f->snap[r]) * 1e3 + 0.5) : -1;
}

static int same(const merge_fresh_t *f, int a, int b)
{
    return behind_ms(f, a) == behind_ms(f, b) && counters_ms(f, a) == counters_ms(f, b) &&
           !f->map[a] == !f->map[b] && !f->snap[a] == !f->snap[b] && snap_whole(f, a) == snap_whole(f, b);
}

/* The section's lines (no indent, no newline), each to put */
static void each_line(const merge_fresh_t *f, void (*put)(void *, const char *), void *arg)
{
    int lines = 0, r = 0;
    char line[512];
    while (r < f->nprocs) {
        if (!f->at[r]) {
            r++;
            continue;
        }
        int last = r;
        while (last + 1 < f->nprocs && f->at[last + 1] && same(f, r, last + 1)) last++;
        if (lines == FRESH_LINES) {
            put(arg, "... (report.json has every rank)");
            break;
        }
        char who[64], counters[64] = "";
        if (last > r)
            snprintf(who, sizeof who, "ranks %d-%d", r, last);
        else
            snprintf(who, sizeof who, "rank %d", r);
        if (f->snap[r] && f->map[r] && !snap_whole(f, r))
            snprintf(counters, sizeof counters, " (%.3f s before the end)", (double)counters_ms(f, r) * 1e-3);
        snprintf(line, sizeof line, "%s: last update %.3f s before the end, from %s%s.", who,
                 (double)behind_ms(f, r) * 1e-3, from_words(f, r), counters);
        put(arg, line);
        lines++;
        r = last + 1;
    }
}

static const char TITLE[] =
    "How fresh each rank's state is (against the job's end: the latest update of any rank)";

static void put_text(void *out, const char *line) { fprintf(out, "  %s\n", line); }
static void put_html(void *out, const char *line)
{
    fputs("<li>", out), report_xml_str(out, line), fputs("</li>\n", out);
}

int fresh_write_text(FILE *out, const merge_fresh_t *f)
{
    fprintf(out, "%s\n", TITLE);
    each_line(f, put_text, out);
    fputc('\n', out);
    return ferror(out) ? -1 : 0;
}

int fresh_write_html(FILE *out, const merge_fresh_t *f)
{
    fputs("<h3 id=\"fresh\">", out), report_xml_str(out, TITLE), fputs("</h3>\n<ul>\n", out);
    each_line(f, put_html, out);
    fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}

int fresh_json(json_t *obj, const merge_fresh_t *f)
{
    json_t *o = json_object(), *ranks = json_array();
    int bad = !o || !ranks;
    for (int r = 0; !bad && r < f->nprocs; r++) {
        if (!f->at[r]) continue;
        json_t *e = json_pack("{s:i, s:f, s:f, s:s, s:b}", "rank", r, "at", f->at[r], "behind_s",
                              (double)behind_ms(f, r) * 1e-3, "from",
                              f->map[r] && f->snap[r] ? "both"
                              : f->map[r]             ? "mapped"
                                                      : "snapshot",
                              "counters", f->snap[r] != 0);
        if (e && f->snap[r]) json_object_set_new(e, "counters_at", json_real(f->snap[r]));
        bad |= !e || json_array_append_new(ranks, e);
    }
    if (!bad)
        bad |= json_object_set_new(o, "end", json_real(f->end)) || json_object_set_new(o, "ranks", ranks);
    else
        json_decref(ranks);
    if (!bad) return json_object_set_new(obj, "freshness", o) ? -1 : 0;
    json_decref(o);
    return -1;
}
