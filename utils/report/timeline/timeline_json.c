/*
 * papi-mpit-merge: the timeline as Chrome/Perfetto trace events
 * (timeline.json; ui.perfetto.dev and Chromium's Performance panel open
 * it): one process a rank, one thread a thread slot, a complete event ("X")
 * a call, the call in progress a begin ("B") with no end, which
 * ui.perfetto.dev draws open to the trace's end and the Performance panel
 * as a mark at its begin.  Times in microseconds from
 * otherData.origin_unix_ns, 1 us before the earliest entry: Chromium's
 * trace model takes an event at ts 0 for metadata and starts the trace
 * after it, out of sight.
 */
#include <stdio.h>
#include <string.h>

#include "site_current.h"
#include "site_fn.h"
#include "timeline.h"

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20)
            fprintf(f, "\\u%04x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

enum { TS_LEAD_NS = 1000 };

static long long ts_origin(const timeline_t *tl) { return tl->origin - TS_LEAD_NS; }

static double us(const timeline_t *tl, long long ns) { return (double)(ns - ts_origin(tl)) * 1e-3; }

static void call_event(FILE *f, const timeline_t *tl, const tl_thread_t *t, const tl_call_t *c)
{
    fprintf(f, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f",
            sites_fn[c->fn].name, sites_fn[c->fn].kind, c->open ? "B" : "X", t->rank, t->slot, us(tl, c->t0));
    if (!c->open) fprintf(f, ",\"dur\":%.3f", (double)(c->t1 - c->t0) * 1e-3);
    fprintf(f, ",\"args\":{\"call\":%llu", (unsigned long long)c->number);
    if (c->any_source)
        fputs(",\"peer\":\"any\"", f);
    else if (c->peer >= 0)
        fprintf(f, ",\"peer\":%d", c->peer);
    if (c->any_tag)
        fputs(",\"tag\":\"any\"", f);
    else if (c->tag != SITES_NO_TAG)
        fprintf(f, ",\"tag\":%d", c->tag);
    if (!c->open)
        fprintf(f, ",\"bytes\":%lld,\"sent\":%lld,\"received\":%lld", c->sent + c->received, c->sent,
                c->received);
    fputs(",\"comm\":", f);
    json_string(f, c->comm);
    fputs(",\"site\":", f);
    json_string(f, c->site >= 0 ? tl->sites[c->site].label : "?");
    if (c->open) fputs(",\"in_progress\":true", f);
    fputs("}}", f);
}

int timeline_write_json(const char *path, const timeline_t *tl)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"origin_unix_ns\":%lld,\"ring_calls\":%d},\n",
            ts_origin(tl), tl->ring_calls);
    fputs("\"traceEvents\":[\n{\"name\":\"papi-mpit-report timeline\",\"ph\":\"M\",\"pid\":0,\"args\":{}}",
          f);
    for (int r = 0; r < tl->nprocs; r++) {
        if (!tl->hosts[r]) continue;
        char name[128];
        snprintf(name, sizeof name, "rank %d (%s)", r, tl->hosts[r]);
        fprintf(f, ",\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"name\":", r);
        json_string(f, name);
        fprintf(f,
                "}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
                r, r);
    }
    for (int i = 0; i < tl->nthreads; i++) {
        const tl_thread_t *t = &tl->threads[i];
        fprintf(
            f,
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"thread %d "
            "(tid %ld): %llu calls, %lld torn\"}}",
            t->rank, t->slot, t->slot, t->tid, (unsigned long long)t->done, t->lost);
        for (int k = 0; k < t->ncalls; k++) call_event(f, tl, t, &t->calls[k]);
    }
    fputs("\n]}\n", f);
    return fclose(f);
}
