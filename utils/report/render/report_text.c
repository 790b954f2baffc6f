/*
 * papi-mpit-report: the job's result as text: the table (report.txt and the
 * terminal), the CSV of a row per rank, and the sender matrix's CSV.
 */
#include "report.h"
#include "report_private.h"

#include <math.h>
#include <string.h>

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

/* ---- the sender matrix */
#define TOP_SENDERS 3

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
        const long long *row = report_senders_row(job, r);
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

/* its row in the table, in per cent, with the events' columns */
static void write_mpi_share(FILE *out, const report_job_t *job, int wname, int wunits, int w)
{
    double mn, me, mx;
    int lo, hi;
    if (report_mpi_share_stats(job, &mn, &lo, &me, &mx, &hi)) return;
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
    report_fmt_seconds(took, sizeof took, report_max_elapsed(job));
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

/* ---- the sender matrix as CSV: a row per receiver, a column per sender */
int report_write_senders_csv(FILE *out, const report_job_t *job)
{
    const report_senders_t *s = &job->senders;
    fputs("receiver", out);
    for (int c = 0; c < s->ncols; c++) fprintf(out, ",%d", c);
    fputs(",other\n", out);
    for (int r = 0; r < job->nprocs; r++) {
        fprintf(out, "%d", r);
        const long long *row = report_senders_row(job, r);
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
