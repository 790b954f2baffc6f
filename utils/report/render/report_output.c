/*
 * papi-mpit-report: statistics over ranks and the renderings of a job's
 * result (text table, CSV, JSON through jansson, SVG chart).  Pure C, no
 * MPI, no PAPI.
 */
#include "report.h"

#include <jansson.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* never 0 bytes: a job of 0 columns still has its arrays */
static void *zalloc(size_t n, size_t size) { return calloc(n ? n : 1, size); }

int report_job_init(report_job_t *job, int nprocs)
{
    memset(job, 0, sizeof *job);
    job->nprocs = nprocs;
    job->hosts = zalloc((size_t)nprocs, sizeof *job->hosts);
    job->elapsed = zalloc((size_t)nprocs, sizeof *job->elapsed);
    if (job->hosts && job->elapsed) return 0;
    report_job_free(job);
    return -1;
}

void report_job_free(report_job_t *job)
{
    for (int i = 0; i < job->nevents; i++) {
        free(job->events[i].present);
        free(job->events[i].ival);
        free(job->events[i].dval);
    }
    free(job->events);
    free(job->skips);
    free(job->senders.present);
    free(job->senders.matrix);
    free(job->senders.other);
    for (int k = 0; k < REPORT_MATRIX_KINDS; k++) free(job->matrix.cells[k]);
    free(job->hosts);
    free(job->elapsed);
    for (int i = 0; i < job->nseries; i++) free(job->series[i].t), free(job->series[i].v);
    free(job->series);
    memset(job, 0, sizeof *job);
}

report_event_t *report_job_event(report_job_t *job, const char *name, const char *units, int is_fp)
{
    for (int i = 0; i < job->nevents; i++)
        if (strcmp(job->events[i].name, name) == 0) return &job->events[i];
    if (job->nevents == job->cap_events) {
        int cap = job->cap_events ? 2 * job->cap_events : 16;
        report_event_t *e = realloc(job->events, (size_t)cap * sizeof *e);
        if (!e) return NULL;
        job->events = e;
        job->cap_events = cap;
    }
    report_event_t *e = &job->events[job->nevents];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->units, sizeof e->units, "%s", units ? units : "");
    e->is_fp = is_fp;
    e->present = zalloc((size_t)job->nprocs, 1);
    e->ival = zalloc((size_t)job->nprocs, sizeof *e->ival);
    e->dval = zalloc((size_t)job->nprocs, sizeof *e->dval);
    if (!e->present || !e->ival || !e->dval) {
        free(e->present), free(e->ival), free(e->dval);
        return NULL;
    }
    e->min_rank = e->max_rank = -1;
    job->nevents++;
    return e;
}

report_skip_t *report_job_skip(report_job_t *job, const char *name, const char *reason, int rank)
{
    for (int i = 0; i < job->nskips; i++)
        if (strcmp(job->skips[i].name, name) == 0) {
            job->skips[i].nranks++;
            return &job->skips[i];
        }
    if (job->nskips == job->cap_skips) {
        int cap = job->cap_skips ? 2 * job->cap_skips : 8;
        report_skip_t *s = realloc(job->skips, (size_t)cap * sizeof *s);
        if (!s) return NULL;
        job->skips = s;
        job->cap_skips = cap;
    }
    report_skip_t *s = &job->skips[job->nskips++];
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    s->nranks = 1;
    s->first_rank = rank;
    s->is_default = 0;
    return s;
}

int report_not_provided_count(const report_job_t *job)
{
    int n = 0;
    for (int i = 0; i < job->nskips; i++) n += job->skips[i].is_default;
    return n;
}

/* The metric's name as people know it: mpit:::OOS_MSGS -> OOS_MSGS */
static const char *short_name(const char *name) { return strncmp(name, "mpit:::", 7) == 0 ? name + 7 : name; }

const char *report_reason_cause(const report_skip_t *s)
{
    const char *me = short_name(s->name), *sep = strstr(s->reason, ": ");
    size_t n = strlen(me);
    if (sep && strncmp(s->reason, me, n) == 0 && s->reason[n] == ' ') return sep + 2;
    return s->reason;
}

/* Two skips with one cause: the same text, or one cut at the reason's length
 * limit (REPORT_REASON_LEN) where it is the start of the other (a longer
 * name leaves room for less of the same sentence). */
static int truncated(const report_skip_t *s) { return strlen(s->reason) + 1 >= REPORT_REASON_LEN; }

static int same_cause(const report_skip_t *a, const report_skip_t *b)
{
    const char *ca = report_reason_cause(a), *cb = report_reason_cause(b);
    size_t la = strlen(ca), lb = strlen(cb);
    if (la == lb) return strcmp(ca, cb) == 0;
    if (la < lb) return truncated(a) && strncmp(ca, cb, la) == 0;
    return truncated(b) && strncmp(ca, cb, lb) == 0;
}

int report_not_provided_groups(const report_job_t *job, int *group_of)
{
    int ngroups = 0;
    for (int i = 0; i < job->nskips; i++) {
        group_of[i] = -1;
        if (!job->skips[i].is_default) continue;
        for (int j = 0; j < i && group_of[i] < 0; j++)
            if (group_of[j] >= 0 && same_cause(&job->skips[j], &job->skips[i])) group_of[i] = group_of[j];
        if (group_of[i] < 0) group_of[i] = ngroups++;
    }
    return ngroups;
}

void report_not_provided_line(FILE *out, const report_job_t *job, const int *group_of, int g, int html)
{
    int n = 0, first = -1; /* first: the group's longest reason */
    for (int i = 0; i < job->nskips; i++)
        if (group_of[i] == g) {
            n++;
            if (first < 0 ||
                strlen(report_reason_cause(&job->skips[i])) > strlen(report_reason_cause(&job->skips[first])))
                first = i;
        }
    if (first < 0) return;
    /* "it needs X" / "needs X" reads "N metrics need X"; any other cause in parentheses */
    const char *cause = report_reason_cause(&job->skips[first]), *need = NULL;
    if (strncmp(cause, "it needs ", 9) == 0) need = cause + 9;
    if (strncmp(cause, "needs ", 6) == 0) need = cause + 6;
    fprintf(out, "%d metric%s ", n, n == 1 ? "" : "s");
    if (need) {
        fputs(n == 1 ? "needs " : "need ", out);
        html ? report_xml_str(out, need) : (void)fputs(need, out);
        if (truncated(&job->skips[first])) fputs("...", out);
    } else {
        fputs("not provided by this MPI (", out);
        html ? report_xml_str(out, cause) : (void)fputs(cause, out);
        fputc(')', out);
    }
    fputc(':', out);
    const char *sep = " ";
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        if (group_of[i] != g) continue;
        fputs(sep, out);
        if (html) {
            fputs("<code>", out);
            report_xml_str(out, short_name(s->name));
            fputs("</code>", out);
        } else {
            fputs(short_name(s->name), out);
        }
        if (s->nranks < job->nprocs) fprintf(out, " (on %d of %d ranks)", s->nranks, job->nprocs);
        sep = ", ";
    }
}

void report_not_provided_table(FILE *out, const report_job_t *job, const char *prefix)
{
    int *group_of = calloc((size_t)job->nskips + 1, sizeof *group_of);
    if (!group_of) return;
    int ngroups = report_not_provided_groups(job, group_of);
    for (int g = 0; g < ngroups; g++) {
        fputs(prefix, out);
        report_not_provided_line(out, job, group_of, g, 0);
        fputc('\n', out);
    }
    free(group_of);
}

/* What would give a default metric this MPI cannot, as its reason names it.
 * A metric goes under every remedy its reason names. */
static const struct remedy {
    const char *named_by[2]; /* the reason names it when it holds one of these */
    const char *gives;
    const char *or_second; /* said only when a listed reason holds named_by[1] */
    const char *family;    /* first where the running MPI is this one */
} remedies[] = {
    {{"--enable-spc", "Open MPI 6.0 or later"},
     "Open MPI built with --enable-spc",
     " (or Open MPI 6.0)",
     "Open MPI"},
    {{"MPICH built with", NULL},
     "MPICH built with --enable-mpit-events=yes --enable-mpit-pvars=recvq",
     "",
     "MPICH"},
    {{"monitoring on", NULL}, "Open MPI's monitoring (--matrix)", "", "Open MPI"},
};
enum { NREMEDIES = sizeof remedies / sizeof remedies[0] };

static int names_remedy(const report_skip_t *s, const struct remedy *r)
{
    for (int k = 0; k < 2; k++)
        if (r->named_by[k] && strstr(s->reason, r->named_by[k])) return 1;
    return 0;
}

/* ", NAME" for each default skip that r names (NULL: that no remedy names) */
static int list_named(FILE *out, const report_job_t *job, const struct remedy *r)
{
    int n = 0;
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        if (!s->is_default) continue;
        int named = 0;
        for (int k = 0; k < NREMEDIES && !r; k++) named |= names_remedy(s, &remedies[k]);
        if (r ? !names_remedy(s, r) : named) continue;
        if (out) fprintf(out, "%s%s", n ? ", " : "", short_name(s->name));
        n++;
    }
    return n;
}

void report_not_provided_brief(FILE *out, const report_job_t *job)
{
    if (!report_not_provided_count(job)) return;
    const char *where =
        job->no_files ? "every reason: -o DIR, in DIR/report.txt" : "every reason in report.txt";
    /* the remedies with metrics, the running MPI's own first */
    const struct remedy *order[NREMEDIES];
    int nlines = 0, left = list_named(NULL, job, NULL);
    for (int mine = 1; mine >= 0; mine--)
        for (int k = 0; k < NREMEDIES; k++)
            if (!strstr(job->mpi_library, remedies[k].family) == !mine && list_named(NULL, job, &remedies[k]))
                order[nlines++] = &remedies[k];
    for (int l = 0; l < nlines; l++) {
        /* "or Open MPI 6.0" only where 6.0 would give one of them, and
         * never to a user who runs 6.0 already */
        const char *ompi = strstr(job->mpi_library, "Open MPI v");
        int second = !ompi || atoi(ompi + strlen("Open MPI v")) < 6;
        int named_second = 0;
        for (int i = 0; i < job->nskips && order[l]->named_by[1]; i++)
            named_second |= job->skips[i].is_default && strstr(job->skips[i].reason, order[l]->named_by[1]);
        second &= named_second;
        fprintf(out, "not measured, needs %s%s: ", order[l]->gives, second ? order[l]->or_second : "");
        list_named(out, job, order[l]);
        if (l == nlines - 1 && (!left || nlines == 3)) { /* the last line says the rest */
            if (left) {
                fputs("; also ", out);
                list_named(out, job, NULL);
            }
            fprintf(out, " (%s)", where);
            left = 0;
        }
        fputc('\n', out);
    }
    if (left) {
        fputs("not measured, not provided by this MPI: ", out);
        list_named(out, job, NULL);
        fprintf(out, " (%s)\n", where);
    }
}

int report_job_senders(report_job_t *job, int ncols)
{
    report_senders_t *s = &job->senders;
    s->present = zalloc((size_t)job->nprocs, 1);
    s->matrix = zalloc((size_t)job->nprocs * (size_t)(ncols ? ncols : 1), sizeof *s->matrix);
    s->other = zalloc((size_t)job->nprocs, sizeof *s->other);
    if (s->present && s->matrix && s->other) {
        s->ncols = ncols;
        return 0;
    }
    free(s->present), free(s->matrix), free(s->other);
    s->present = NULL, s->matrix = NULL, s->other = NULL;
    return -1;
}

void report_compute(report_job_t *job)
{
    for (int i = 0; i < job->nevents; i++) {
        report_event_t *e = &job->events[i];
        e->nranks = 0;
        e->sum = 0;
        e->min_rank = e->max_rank = -1;
        for (int r = 0; r < job->nprocs; r++) {
            if (!e->present[r]) continue;
            double v = e->dval[r];
            e->sum += e->is_fp ? (long double)v : (long double)e->ival[r];
            if (e->min_rank < 0 || v < e->min) e->min = v, e->min_rank = r;
            if (e->max_rank < 0 || v > e->max) e->max = v, e->max_rank = r;
            e->nranks++;
        }
        e->mean = e->nranks ? (double)(e->sum / e->nranks) : 0.0;
        e->imbalance = e->mean != 0.0 ? e->max / e->mean : 0.0;
    }
}

void report_fmt_value(char *buf, size_t len, const report_event_t *e, int r)
{
    if (e->is_fp)
        snprintf(buf, len, "%.17g", e->dval[r]);
    else
        snprintf(buf, len, "%lld", e->ival[r]);
}

static double max_elapsed(const report_job_t *job)
{
    double m = 0;
    for (int r = 0; r < job->nprocs; r++)
        if (job->elapsed[r] > m) m = job->elapsed[r];
    return m;
}

int report_rank_missing(const report_job_t *job, int r)
{
    return (job->partial || job->left_out) && !job->hosts[r][0];
}

int report_host_seen_before(const report_job_t *job, int r)
{
    int seen = 0;
    for (int q = 0; q < r && !seen; q++)
        seen = !report_rank_missing(job, q) && strcmp(job->hosts[q], job->hosts[r]) == 0;
    return seen;
}

int *report_host_first(const report_job_t *job)
{
    size_t cap = 16, n = (size_t)job->nprocs;
    while (cap < 2 * n) cap *= 2;
    int *first = malloc(sizeof *first * (n ? n : 1)), *slot = malloc(sizeof *slot * cap);
    if (!first || !slot) {
        free(first), free(slot);
        return NULL;
    }
    memset(slot, 0xff, sizeof *slot * cap);
    for (size_t r = 0; r < n; r++) {
        first[r] = -1;
        if (report_rank_missing(job, (int)r)) continue;
        uint64_t x = 0xcbf29ce484222325ULL; /* FNV-1a of the name */
        for (const char *c = job->hosts[r]; *c; c++) x = (x ^ (unsigned char)*c) * 0x100000001B3ULL;
        size_t i = (size_t)x & (cap - 1);
        while (slot[i] >= 0 && strcmp(job->hosts[slot[i]], job->hosts[r])) i = (i + 1) & (cap - 1);
        if (slot[i] < 0) slot[i] = (int)r;
        first[r] = slot[i];
    }
    free(slot);
    return first;
}

int report_count_hosts(const report_job_t *job, int *nmissing)
{
    int n = 0, gone = 0, *first = report_host_first(job);
    for (int r = 0; r < job->nprocs; r++) {
        if (report_rank_missing(job, r)) { /* no state: its host is not known, and is not one */
            gone++;
            continue;
        }
        int seen = first ? first[r] != r : report_host_seen_before(job, r);
        n += !seen;
    }
    free(first);
    if (nmissing) *nmissing = gone;
    return n;
}

/* the ranks that left no state (or whose record was left out), a line
 * each (at most 32, then how many more) */
static void write_missing(FILE *out, const report_job_t *job)
{
    int k = 0, total = 0;
    const char *what = job->partial ? "no state" : "no record";
    const char *why = job->partial ? "killed before writing it, or snapshots off there"
                                   : "left out of the collection, as said on stderr";
    for (int r = 0; r < job->nprocs; r++) total += report_rank_missing(job, r);
    for (int r = 0; r < job->nprocs && k < 32; r++)
        if (report_rank_missing(job, r)) fprintf(out, "  rank %d: %s (%s)\n", r, what, why), k++;
    if (total > k) fprintf(out, "  and %d more ranks: %s\n", total - k, what);
}

/* ---- the sampled maxima */
int report_sampling_note(char *buf, size_t len, const report_job_t *job)
{
    size_t n = 0;
    int k = 0;
    buf[0] = '\0';
    for (int i = 0; i < job->nevents && n < len; i++)
        if (job->events[i].sampled)
            n += (size_t)snprintf(buf + n, len - n, "%s%s", k++ ? ", " : "", job->events[i].name);
    if (!k || n >= len) return k;
    if (job->sample_ms > 0 && job->samples_min == 0)
        snprintf(buf + n, len - n,
                 ": NOT maxima: some rank ran shorter than the sample period (%g ms) and took no sample, so "
                 "these are only what the start and end reads saw, a lower bound (the MPI publishes only "
                 "the current length; --sample-period sets the period)",
                 job->sample_ms);
    else if (job->sample_ms > 0)
        snprintf(buf + n, len - n,
                 ": the largest queue length seen by a read every %g ms (sampled; at least %ld sample%s per "
                 "rank), as the MPI publishes only the current length",
                 job->sample_ms, job->samples_min, job->samples_min == 1 ? "" : "s");
    else
        snprintf(buf + n, len - n,
                 ": the largest queue length seen at the start and end reads only (sampling off), as the MPI "
                 "publishes only the current length");
    return k;
}

/* ---- the sender matrix */
#define TOP_SENDERS 3

static const long long *senders_row(const report_job_t *job, int r)
{
    return job->senders.matrix + (size_t)r * (size_t)job->senders.ncols;
}

static const char *senders_kind_name(int kind)
{
    return kind == REPORT_SENDERS_COUNT ? "count" : kind == REPORT_SENDERS_QUEUE_MAX ? "queue_max" : "none";
}

/* Text: per receiver with any, its largest senders (ties: lower rank first). */
static void write_top_senders(FILE *out, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    if (s->kind == REPORT_SENDERS_NONE) {
        if (s->note[0]) fprintf(out, "unexpected messages by sender: not available (%s)\n", s->note);
        return;
    }
    if (s->kind == REPORT_SENDERS_COUNT)
        fprintf(out, "unexpected messages by sender (top %d per receiver; %s):\n", TOP_SENDERS,
                job->no_files ? "-o writes all to senders.csv" : "all in senders.csv");
    else
        fprintf(out, "largest unexpected queue by sender, at the moments read (top %d per receiver; %s):\n",
                TOP_SENDERS, job->no_files ? "-o writes all to senders.csv" : "all in senders.csv");
    int any = 0;
    for (int r = 0; r < job->nprocs; r++) {
        if (!s->present[r]) continue;
        const long long *row = senders_row(job, r);
        int top[TOP_SENDERS], ntop = 0;
        long double total = s->other[r];
        for (int c = 0; c < s->ncols; c++) {
            total += row[c];
            if (row[c] <= 0) continue;
            /* insertion into the sorted top list */
            int k = ntop < TOP_SENDERS ? ntop++ : TOP_SENDERS;
            if (k == TOP_SENDERS) {
                if (row[c] <= row[top[TOP_SENDERS - 1]]) continue;
                k = TOP_SENDERS - 1;
            }
            while (k > 0 && row[top[k - 1]] < row[c]) {
                top[k] = top[k - 1];
                k--;
            }
            top[k] = c;
        }
        if (!ntop && !s->other[r]) continue;
        any = 1;
        if (s->kind == REPORT_SENDERS_COUNT)
            fprintf(out, "  rank %d (%.0Lf in all):", r, total);
        else
            fprintf(out, "  rank %d:", r);
        for (int k = 0; k < ntop; k++)
            fprintf(out, "%s from rank %d: %lld", k ? "," : "", top[k], row[top[k]]);
        if (s->other[r]) fprintf(out, "%s other senders: %lld", ntop ? "," : "", s->other[r]);
        fputc('\n', out);
    }
    if (!any) fprintf(out, "  (none on any rank)\n");
}

int report_stats_nan(const double *v, int n, double *min, int *min_rank, double *mean, double *max,
                     int *max_rank)
{
    int k = 0;
    double sum = 0;
    *min_rank = *max_rank = -1;
    *min = *max = *mean = 0;
    for (int r = 0; v && r < n; r++) {
        if (isnan(v[r])) continue;
        if (*min_rank < 0 || v[r] < *min) *min = v[r], *min_rank = r;
        if (*max_rank < 0 || v[r] > *max) *max = v[r], *max_rank = r;
        sum += v[r], k++;
    }
    *mean = k ? sum / k : 0;
    return k ? 0 : -1;
}

static int mpi_share_stats(const report_job_t *job, double *min, int *min_rank, double *mean, double *max,
                           int *max_rank)
{
    return report_stats_nan(job->mpi_share, job->nprocs, min, min_rank, mean, max, max_rank);
}

/* its row in the table, in per cent, with the events' columns */
static void write_mpi_share(FILE *out, const report_job_t *job, int wname, int wunits, int w)
{
    double mn, me, mx;
    int lo, hi;
    if (mpi_share_stats(job, &mn, &lo, &me, &mx, &hi)) return;
    char imb[32] = "-";
    if (me > 0) snprintf(imb, sizeof imb, "%.3f", mx / me);
    fprintf(out,
            "%-*s  %-*s  %*.1f %6d  %*.1f  %*.1f %6d  %8s  (time in the call sites' MPI calls / elapsed)\n",
            wname, "MPI time share", wunits, "%", w, 100 * mn, lo, w, 100 * me, w, 100 * mx, hi, imb);
}

int report_write_table(FILE *out, const report_job_t *job)
{
    int nmissing, nhosts = report_count_hosts(job, &nmissing);
    char took[32], with[48] = "";
    report_fmt_seconds(took, sizeof took, max_elapsed(job));
    if (nmissing)
        snprintf(with, sizeof with, ", %d with a %s,", job->nprocs - nmissing,
                 job->partial ? "state" : "record");
    fprintf(out, "papi-mpit-report: %d rank%s%s on %d host%s, %s from MPI_Init to %s\n", job->nprocs,
            job->nprocs == 1 ? "" : "s", with, nhosts, nhosts == 1 ? "" : "s", took,
            job->partial ? "the last state taken (the run ended early)" : "MPI_Finalize");
    write_missing(out, job);
    if (job->mpi_library[0]) fprintf(out, "  MPI: %s\n", job->mpi_library);
    if (job->command[0]) fprintf(out, "  program: %s\n", job->command);
    char sampling[2048];
    if (report_sampling_note(sampling, sizeof sampling, job)) fprintf(out, "  maxima: %s\n", sampling);

    int wname = (int)strlen(job->mpi_share ? "MPI time share" : "event"), wunits = (int)strlen("units");
    for (int i = 0; i < job->nevents; i++) {
        int n = (int)strlen(job->events[i].name), u = (int)strlen(job->events[i].units);
        if (n > wname) wname = n;
        if (u > wunits) wunits = u;
    }
    /* values for people (report_fmt_human): KiB, ms, ...; exact in the files */
    int w = 10;
    for (int i = 0; i < job->nevents; i++) {
        const report_event_t *e = &job->events[i];
        const double v[3] = {e->min, e->mean, e->max};
        char b[64];
        for (int k = 0; k < 3; k++) {
            report_fmt_human(b, sizeof b, v[k], e->units);
            if (report_text_width(b) > w) w = report_text_width(b);
        }
    }
    fprintf(out, "%-*s  %-*s  %*s %6s  %*s  %*s %6s  %8s\n", wname, "event", wunits, "units", w, "min",
            "rank", w, "mean", w, "max", "rank", "max/mean");
    for (int i = 0; i < job->nevents; i++) {
        const report_event_t *e = &job->events[i];
        if (!e->nranks) {
            fprintf(out, "%-*s  %-*s  (no rank measured it)\n", wname, e->name, wunits, e->units);
            continue;
        }
        char mn[64], me[64], mx[64], imb[32];
        report_fmt_human(mn, sizeof mn, e->min, e->units);
        report_fmt_human(me, sizeof me, e->mean, e->units);
        report_fmt_human(mx, sizeof mx, e->max, e->units);
        if (e->mean != 0.0)
            snprintf(imb, sizeof imb, "%.3f", e->imbalance);
        else
            snprintf(imb, sizeof imb, "-");
        /* padded by columns, not bytes: "µs" is one column in two bytes */
        fprintf(out, "%-*s  %-*s  %*s%s %6d  %*s%s  %*s%s %6d  %8s", wname, e->name, wunits, e->units,
                w - report_text_width(mn), "", mn, e->min_rank, w - report_text_width(me), "", me,
                w - report_text_width(mx), "", mx, e->max_rank, imb);
        if (e->nranks < job->nprocs) fprintf(out, "  (%d of %d ranks)", e->nranks, job->nprocs);
        if (e->sampled)
            fputs(job->sample_ms > 0 && job->samples_min > 0 ? "  (sampled)"
                                                             : "  (start and end only: a lower bound)",
                  out);
        fputc('\n', out);
    }
    if (!job->nevents) fprintf(out, "(no event could be measured)\n");
    write_mpi_share(out, job, wname, wunits, w);
    /* after the measurement: what this MPI cannot give, a line per reason
     * (the terminal: a line per remedy) */
    if (job->console)
        report_not_provided_brief(out, job);
    else
        report_not_provided_table(out, job, "");
    for (int i = 0; i < job->nskips; i++) {
        const report_skip_t *s = &job->skips[i];
        if (s->is_default) continue; /* said above, by reason */
        if (s->nranks == job->nprocs)
            fprintf(out, "skipped on all ranks: %s (%s)\n", s->name, s->reason);
        else
            fprintf(out, "skipped on %d of %d ranks (first: rank %d): %s (%s)\n", s->nranks, job->nprocs,
                    s->first_rank, s->name, s->reason);
    }
    write_top_senders(out, job);
    report_matrix_table(out, job);
    return ferror(out) ? -1 : 0;
}

/* ---- CSV: one row per rank, one column per event (RFC 4180 quoting) */
static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int report_write_csv(FILE *out, const report_job_t *job)
{
    fputs("rank,host,elapsed_s", out);
    for (int i = 0; i < job->nevents; i++) {
        fputc(',', out);
        csv_field(out, job->events[i].name);
    }
    if (job->mpi_s) fputs(",mpi_s,mpi_share", out); /* the call sites' time in MPI, its share of elapsed */
    fputc('\n', out);
    for (int r = 0; r < job->nprocs; r++) {
        fprintf(out, "%d,", r);
        csv_field(out, job->hosts[r]);
        fprintf(out, ",%.9f", job->elapsed[r]);
        for (int i = 0; i < job->nevents; i++) {
            char v[64] = "";
            if (job->events[i].present[r]) report_fmt_value(v, sizeof v, &job->events[i], r);
            fprintf(out, ",%s", v);
        }
        if (job->mpi_s && isnan(job->mpi_share[r]))
            fputs(",,", out);
        else if (job->mpi_s)
            fprintf(out, ",%.9f,%.9f", job->mpi_s[r], job->mpi_share[r]);
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

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
        const long long *v = senders_row(job, r);
        json_t *row = json_array();
        for (int c = 0; c < s->ncols; c++) bad |= PUSH(row, json_integer(v[c]));
        bad |= PUSH(rows, row);
        bad |= PUSH(other, json_integer(s->other[r]));
    }
    bad |= SET(o, "senders",
               json_pack("{s:s,s:i,s:o,s:o}", "kind", senders_kind_name(s->kind), "columns", s->ncols,
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
    if (mpi_share_stats(job, &mn, &lo, &me, &mx, &hi))
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
    bad |= SET(o, "elapsed_s", report_json_number(max_elapsed(job)));
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

/* ---- the sender matrix as CSV: a row per receiver, a column per sender */
int report_write_senders_csv(FILE *out, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    fputs("receiver", out);
    for (int c = 0; c < s->ncols; c++) fprintf(out, ",%d", c);
    fputs(",other\n", out);
    for (int r = 0; r < job->nprocs; r++) {
        fprintf(out, "%d", r);
        const long long *row = senders_row(job, r);
        for (int c = 0; c < s->ncols; c++) {
            if (s->present[r])
                fprintf(out, ",%lld", row[c]);
            else
                fputc(',', out);
        }
        if (s->present[r])
            fprintf(out, ",%lld\n", s->other[r]);
        else
            fputs(",\n", out);
    }
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
        const long long *row = senders_row(job, r);
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
        const long long *row = senders_row(job, r);
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

/* ---- files */
int report_mkdir_p(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(path, 0777) && errno != EEXIST) return -1;
        *p = '/';
    }
    if (mkdir(path, 0777) && errno != EEXIST) return -1;
    return 0;
}

/* A new file dir/.FILE.tmp.PID.XXXXXX, XXXXXX random: created with O_EXCL,
 * so that neither a symbolic link someone left there (in a directory shared
 * with other users) nor an existing file is followed or reused, and named
 * so that it cannot be guessed in advance.  Permissions as fopen's (0666
 * less the umask): the final file keeps them. */
FILE *report_open_temp(const char *dir, const char *file, char *tmp, size_t len)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100; attempt++) {
        unsigned char r[6];
        if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
            /* no entropy yet (early boot): the clock's nanoseconds */
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            unsigned long x = (unsigned long)t.tv_nsec * 2654435761u ^ (unsigned long)attempt << 20;
            for (size_t i = 0; i < sizeof r; i++) r[i] = (unsigned char)(x >> (5 * i));
        }
        char suffix[sizeof r + 1];
        for (size_t i = 0; i < sizeof r; i++) suffix[i] = letters[r[i] % (sizeof letters - 1)];
        suffix[sizeof r] = '\0';
        if (snprintf(tmp, len, "%s/.%s.tmp.%ld.%s", dir, file, (long)getpid(), suffix) >= (int)len) {
            errno = ENAMETOOLONG;
            return NULL;
        }
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno == EEXIST) continue; /* taken (or a link): another name */
        if (fd < 0) return NULL;
        FILE *f = fdopen(fd, "w");
        if (!f) {
            int err = errno;
            close(fd);
            unlink(tmp);
            errno = err;
        }
        return f;
    }
    errno = EEXIST;
    return NULL;
}

/* Written whole or not at all: into a new temporary file in the same
 * directory (report_open_temp), renamed over the final name only once
 * complete.  On failure errno tells why and nothing is left behind; the
 * caller says so (once). */
int report_write_file(const char *dir, const char *file, const report_job_t *job,
                      int (*render)(FILE *, const report_job_t *))
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = report_open_temp(dir, file, tmp, sizeof tmp);
    if (!f) return -1;
    /* a write that fails inside render (the buffer flushed on the way)
     * leaves its errno: say that one (EFBIG, ENOSPC), not a generic EIO */
    errno = 0;
    int rc = render(f, job), err = rc ? (errno ? errno : EIO) : 0;
    if (fflush(f) && !err) err = errno;
    if (fsync(fileno(f)) && !err && errno != EINVAL) err = errno;
    if (fclose(f) && !err) err = errno;
    if (!err && rename(tmp, path)) err = errno;
    if (err) {
        unlink(tmp);
        errno = err;
        return -1;
    }
    return 0;
}
