/*
 * papi-mpit-report: the default metrics the running MPI cannot give, grouped
 * by their cause, as the table, the page and the terminal say them, with what
 * would give them.
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

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
