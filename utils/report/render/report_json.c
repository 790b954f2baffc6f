/*
 * papi-mpit-report: report.json, one jansson document written once.
 */
#include "report.h"
#include "report_private.h"

#include <jansson.h>

#include <errno.h>
#include <math.h>

/* ---- JSON */

void report_fmt_json_num(char *buf, size_t len, double v)
{
    if (!isfinite(v))
        snprintf(buf, len, "null");
    else if (v == floor(v) && fabs(v) < 1e17)
        snprintf(buf, len, "%.0f", v);
    else
        snprintf(buf, len, "%.17g", v);
}

/* report.json is built as one jansson document and written once.  Its
 * setters take the value's reference and fail (-1) on a NULL value (out of
 * memory), so each part ORs them and the document is dropped on any. */
#define SET(o, key, v) json_object_set_new((o), (key), (v))
#define PUSH(a, v)     json_array_append_new((a), (v))

/* A whole number as an integer ("%.0f" wrote it so), a double beyond
 * json_int_t, null when not finite. */
static json_t *json_whole(long double v)
{
    if (!isfinite(v)) return json_null();
    v = nearbyintl(v);
    if (fabsl(v) < 9.2e18L) return json_integer((json_int_t)v);
    return json_real((double)v);
}

/* "senders": {"kind", "columns", "matrix": a row per receiver (null if that
 * rank sent none), "other": per receiver}, or null with "senders_note". */
static int senders_json(json_t *o, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    int bad = 0;
    if (s->kind == REPORT_SENDERS_NONE) {
        bad |= SET(o, "senders", json_null());
        if (s->note[0]) bad |= SET(o, "senders_note", report_json_string(s->note));
        return bad ? -1 : 0;
    }
    json_t *rows = json_array(), *other = json_array();
    for (int r = 0; r < job->nprocs; r++) {
        if (!s->present[r]) {
            bad |= PUSH(rows, json_null());
            bad |= PUSH(other, json_null());
            continue;
        }
        const long long *v = report_senders_row(job, r);
        json_t *row = json_array();
        for (int c = 0; c < s->ncols; c++) bad |= PUSH(row, json_integer(v[c]));
        bad |= PUSH(rows, row);
        bad |= PUSH(other, json_integer(s->other[r]));
    }
    bad |= SET(o, "senders",
               json_pack("{s:s,s:i,s:o,s:o}", "kind", report_senders_kind_name(s->kind), "columns", s->ncols,
                         "matrix", rows, "other", other));
    return bad ? -1 : 0;
}

/* "sampling": {"period_ms" (0: off), "samples_min", "cpu_s_max" (the
 * sampler's CPU time on the rank where it was largest), "events", "note"}, or
 * null when no event is a maximum kept over what reads see */
static int sampling_json(json_t *o, const report_job_t *job)
{
    char note[2048];
    if (!report_sampling_note(note, sizeof note, job)) return SET(o, "sampling", json_null());
    int bad = 0;
    json_t *events = json_array();
    for (int i = 0; i < job->nevents; i++)
        if (job->events[i].sampled) bad |= PUSH(events, report_json_string(job->events[i].name));
    bad |=
        SET(o, "sampling",
            json_pack("{s:o,s:I,s:o,s:o,s:o}", "period_ms", report_json_number(job->sample_ms), "samples_min",
                      (json_int_t)job->samples_min, "cpu_s_max", report_json_fixed9(job->sample_cpu_s),
                      "events", events, "note", report_json_string(note)));
    return bad ? -1 : 0;
}

/* "not_provided": [{"name", "reason", "ranks"}, ...]: the default
 * metrics the running MPI cannot give */
static int not_provided_json(json_t *o, const report_job_t *job)
{
    int bad = 0;
    json_t *a = json_array();
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        if (s->is_default)
            bad |= PUSH(a, json_pack("{s:o,s:o,s:i}", "name", report_json_string(s->name), "reason",
                                     report_json_string(s->reason), "ranks", s->nranks));
    }
    bad |= SET(o, "not_provided", a);
    return bad ? -1 : 0;
}

/* one of "events": the statistics (when some rank measured it) and a value
 * per rank (null where not measured) */
static json_t *event_json(const report_job_t *job, const report_event_t *e)
{
    json_t *v = json_object(), *values = json_array();
    int bad = 0;
    bad |= SET(v, "name", report_json_string(e->name));
    bad |= SET(v, "units", report_json_string(e->units));
    bad |= SET(v, "type", json_string(e->is_fp ? "double" : "integer"));
    bad |= SET(v, "measured_ranks", json_integer(e->nranks));
    if (e->sampled) bad |= SET(v, "sampled", json_true());
    /* no sample fell in the run: only the start and end reads, not a maximum */
    if (e->sampled && (job->sample_ms <= 0 || job->samples_min == 0))
        bad |= SET(v, "lower_bound", json_true());
    if (e->nranks) {
        bad |= SET(v, "min", report_json_number(e->min));
        bad |= SET(v, "min_rank", json_integer(e->min_rank));
        bad |= SET(v, "mean", report_json_number(e->mean));
        bad |= SET(v, "max", report_json_number(e->max));
        bad |= SET(v, "max_rank", json_integer(e->max_rank));
        bad |= SET(v, "sum", e->is_fp ? report_json_number((double)e->sum) : json_whole(e->sum));
        bad |= SET(v, "imbalance", e->mean != 0.0 ? report_json_number(e->imbalance) : json_null());
    }
    /* an integer event's values as integers, a double's as report_fmt_value
     * writes them (an integer when it is one) */
    for (int r = 0; r < job->nprocs; r++)
        bad |= PUSH(values, !e->present[r] ? json_null()
                            : e->is_fp     ? report_json_number(e->dval[r])
                                           : json_integer(e->ival[r]));
    bad |= SET(v, "values", values);
    if (bad) json_decref(v);
    return bad ? NULL : v;
}

/* "rank_mpi_s" (seconds in the call sites' MPI calls), "rank_mpi_share"
 * (of rank_elapsed_s) and "mpi_share" ({min, min_rank, mean, max,
 * max_rank}); null, null and null when the sites were off */
static int mpi_share_json(json_t *o, const report_job_t *job)
{
    int bad = 0;
    double mn, me, mx;
    int lo, hi;
    if (!job->mpi_s)
        return SET(o, "rank_mpi_s", json_null()) | SET(o, "rank_mpi_share", json_null()) |
               SET(o, "mpi_share", json_null());
    json_t *secs = json_array(), *share = json_array();
    for (int r = 0; r < job->nprocs; r++) {
        int none = isnan(job->mpi_share[r]);
        bad |= PUSH(secs, none ? json_null() : report_json_fixed9(job->mpi_s[r]));
        bad |= PUSH(share, none ? json_null() : report_json_number(job->mpi_share[r]));
    }
    bad |= SET(o, "rank_mpi_s", secs);
    bad |= SET(o, "rank_mpi_share", share);
    if (report_mpi_share_stats(job, &mn, &lo, &me, &mx, &hi))
        bad |= SET(o, "mpi_share", json_null());
    else
        bad |= SET(o, "mpi_share",
                   json_pack("{s:o,s:i,s:o,s:o,s:i}", "min", report_json_number(mn), "min_rank", lo, "mean",
                             report_json_number(me), "max", report_json_number(mx), "max_rank", hi));
    return bad ? -1 : 0;
}

json_t *report_json(const report_job_t *job)
{
    json_t *o = json_object(), *hosts = json_array(), *elapsed = json_array(), *events = json_array(),
           *skipped = json_array();
    int bad = 0;
    bad |= SET(o, "tool", json_string("papi-mpit-report"));
    bad |= SET(o, "ranks", json_integer(job->nprocs));
    bad |= SET(o, "mpi_library", report_json_string(job->mpi_library));
    bad |= SET(o, "command", report_json_string(job->command));
    bad |= SET(o, "started", report_json_string(job->started));
    bad |= SET(o, "papi_version", report_json_string(job->papi_version));
    bad |= not_provided_json(o, job);
    bad |= SET(o, "elapsed_s", report_json_number(report_max_elapsed(job)));
    if (job->tool_cost_measured) {
        bad |= SET(o, "tool_s",
                   json_pack("{s:o,s:o,s:o}", "startup", report_json_fixed9(job->tool_startup_s),
                             "startup_mpit_init", report_json_fixed9(job->tool_mpit_init_s), "collection",
                             report_json_fixed9(job->tool_collect_s)));
        bad |= SET(o, "collection_bytes", json_whole(job->tool_collect_bytes));
    }
    bad |= sampling_json(o, job);
    for (int r = 0; r < job->nprocs; r++) {
        /* a merge's rank with no state: null, not a host of its own */
        bad |= PUSH(hosts, report_rank_missing(job, r) ? json_null() : report_json_string(job->hosts[r]));
        bad |= PUSH(elapsed, report_rank_missing(job, r) ? json_null() : report_json_fixed9(job->elapsed[r]));
    }
    bad |= SET(o, "hosts", hosts);
    bad |= SET(o, "rank_elapsed_s", elapsed);
    bad |= mpi_share_json(o, job);
    for (int i = 0; i < job->nevents; i++) bad |= PUSH(events, event_json(job, &job->events[i]));
    bad |= SET(o, "events", events);
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        json_t *v = json_pack("{s:o,s:o,s:i,s:i}", "name", report_json_string(s->name), "reason",
                              report_json_string(s->reason), "ranks", s->nranks, "first_rank", s->first_rank);
        if (v && s->is_default) bad |= SET(v, "default", json_true());
        bad |= PUSH(skipped, v);
    }
    bad |= SET(o, "skipped", skipped);
    bad |= senders_json(o, job);
    bad |= report_matrix_json(o, job);
    if (!bad && job->extra.json) bad |= job->extra.json(o, job->extra.arg) ? -1 : 0;
    if (bad) json_decref(o);
    return bad ? NULL : o;
}

int report_write_json(FILE *out, const report_job_t *job)
{
    json_t *doc = report_json(job);
    if (!doc) {
        errno = ENOMEM;
        return -1;
    }
    int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(doc);
    if (rc || fputc('\n', out) == EOF) return -1;
    return ferror(out) ? -1 : 0;
}
