/*
 * papi-mpit-report: the call sites in the report: started with the
 * counting (sites_start), merged on rank 0 into the job (sites_attach,
 * sites_finish), rendered beside the rest (the text's findings and table,
 * the files, report.json's members and report.html's section through the
 * job's extra hooks).
 */
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_env.h"
#include "site_fn.h"
#include "site_fortran.h"
#include "site_job.h"
#include "site_report.h"
#include "site_table.h"

static char why_off[256];

void sites_start(int rank, int nprocs)
{
    why_off[0] = '\0';
    if (!report_bool_env("PAPI_MPIT_REPORT_SITES", 1))
        snprintf(why_off, sizeof why_off, "turned off (--no-sites)");
    else if (sites_begin(rank, nprocs, why_off, sizeof why_off) == 0)
        sites_f_begin(); /* the Fortran sentinels and entries (a no-op without them) */
}

void sites_events_begin(void)
{
    if (!why_off[0]) sites_watch_start();
}

static int json(struct json_t *obj, const void *j) { return sites_json(obj, j); }
static int html_top(FILE *out, const void *j) { return sites_write_findings(out, j, 1); }
static int html(FILE *out, const void *j) { return sites_write_html(out, j); }

void sites_attach(report_job_t *job)
{
    sites_job_t *j = calloc(1, sizeof *j);
    if (!j) return;
    sites_job_init(j, job->nprocs);
    snprintf(j->off_reason, sizeof j->off_reason, "%s", why_off);
    job->extra = (report_extra_t){.arg = j,
                                  .json = json,
                                  .html_top = html_top,
                                  .html = html,
                                  .html_nav = "<a href=\"#findings\">Findings</a><a href=\"#sites\">Call "
                                              "sites</a><a href=\"#p2p\">Program matrix</a>"};
}

void sites_finish(report_job_t *job)
{
    sites_job_t *j = (sites_job_t *)job->extra.arg;
    if (!j) return;
    sites_job_finish(j);
    sites_unseen_line(j->unseen, sizeof j->unseen, job);
    unsigned char *missing = calloc((size_t)job->nprocs + 1, 1);
    for (int r = 0; missing && r < job->nprocs; r++) missing[r] = (unsigned char)report_rank_missing(job, r);
    sites_job_mpi_time(j, job->elapsed, missing);
    free(missing);
    job->mpi_s = j->rank_mpi_s;
    job->mpi_share = j->rank_share;
}

void sites_detach(report_job_t *job)
{
    sites_job_t *j = (sites_job_t *)job->extra.arg;
    if (j) sites_job_free(j);
    free(j);
    job->mpi_s = job->mpi_share = NULL;
    memset(&job->extra, 0, sizeof job->extra);
}

static const sites_job_t *of(const report_job_t *job) { return job->extra.arg; }

int sites_any(const report_job_t *job) { return of(job) && of(job)->nsites > 0; }

/* ---- never a silent blank: the program's calls the sites did not see */

/* The MPI's own counts of the program's traffic, in the order they are
 * named: the first with any is the witness. */
static const char *const witnesses[] = {
    "mpit:::BYTES_SENT",     "mpit:::MSGS_SENT",      "mpit:::COLL_BYTES_SENT", "mpit:::COLL_MSGS_SENT",
    "mpit:::RMA_BYTES_SENT", "mpit:::BYTES_RECEIVED", "mpit:::UNEXPECTED_MSGS", NULL};

/* an integer event's total over the ranks that measured it, -1 when none
 * did or it is not there (from the ranks' values: report_compute comes later) */
static long long total(const report_job_t *job, const char *name)
{
    for (int i = 0; i < job->nevents; i++) {
        const report_event_t *e = &job->events[i];
        if (strcmp(e->name, name) != 0 || e->is_fp) continue;
        long long t = -1;
        for (int r = 0; r < job->nprocs; r++)
            if (e->present[r]) t = (t < 0 ? 0 : t) + e->ival[r];
        return t;
    }
    return -1;
}

/* point-to-point bytes the MPI counted (BYTES_SENT, else the matrix of
 * Open MPI's monitoring), -1 when it counts none; what counted them */
static long long mpi_p2p_bytes(const report_job_t *job, const char **what)
{
    long long b = total(job, "mpit:::BYTES_SENT");
    if (b >= 0) {
        *what = "mpit:::BYTES_SENT";
        return b;
    }
    if (!job->matrix.nranks[REPORT_MATRIX_P2P]) return -1;
    b = 0;
    for (int c = 0; c < job->matrix.ncells[REPORT_MATRIX_P2P]; c++)
        b += job->matrix.cells[REPORT_MATRIX_P2P][c].bytes;
    *what = "Open MPI's monitoring (--matrix)";
    return b;
}

/* Unseen from 10 %: the sites saw 90 % or less of what the MPI counted. */
static int mostly_unseen(long long seen, long long mpi) { return mpi > 0 && 10 * (mpi - seen) >= mpi; }

/* Open MPI's per-call counters (SPCs, mpit:::runtime_spc_OMPI_SPC_ALLREDUCE
 * ...: the calls of MPI_Allreduce, its large-count MPI_Allreduce_c
 * included), where the job measured them: the first call whose sites saw
 * 90 % or less of its count, into name, seen and counted; 0 when none.
 * A counter that names no wrapped call (bytes, queues, a call the tool does
 * not wrap) is not compared.  The counters also count the tool's own calls
 * once counting has begun (report_collect.c, collect_started: each rank
 * but the first sends its parent one empty message and receives one, with
 * MPI_Send, MPI_Wait and MPI_Waitall): those are taken off first. */
#define SPC_EVENT "mpit:::runtime_spc_OMPI_SPC_"
static int same_call(const char *fn, const char *call, size_t k)
{
    return strcmp(fn, call) == 0 || (strncmp(fn, call, k) == 0 && strcmp(fn + k, "_c") == 0);
}
static int spc_calls_unseen(const report_job_t *job, const sites_job_t *j, char *name, size_t len,
                            long long *seen, long long *counted)
{
    for (int i = 0; i < job->nevents; i++) {
        const char *ev = job->events[i].name;
        if (strncmp(ev, SPC_EVENT, sizeof SPC_EVENT - 1) != 0) continue;
        /* OMPI_SPC_REDUCE_SCATTER_BLOCK: MPI_Reduce_scatter_block */
        char call[96];
        size_t k = (size_t)snprintf(call, sizeof call, "MPI_");
        for (const char *c = ev + sizeof SPC_EVENT - 1; *c && k + 1 < sizeof call; c++, k++)
            call[k] = (char)(k == 4 ? *c : (*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c));
        call[k] = '\0';
        int wrapped = 0;
        long long s = 0;
        for (int fn = 0; fn < SITES_NFN; fn++)
            if (same_call(sites_fn[fn].name, call, k)) wrapped = 1;
        if (!wrapped) continue;
        for (int x = 0; x < j->nsites; x++)
            if (same_call(sites_fn_name(j->sites[x].fn), call, k)) s += j->sites[x].calls;
        long long t = total(job, ev), others = job->nprocs > 1 ? job->nprocs - 1 : 0;
        if (strcmp(call, "MPI_Send") == 0) t -= 2 * others;
        if (strcmp(call, "MPI_Wait") == 0) t -= others;
        if (strcmp(call, "MPI_Waitall") == 0) t -= job->nprocs;
        if (mostly_unseen(s, t)) {
            snprintf(name, len, "%s", call);
            *seen = s, *counted = t;
            return 1;
        }
    }
    return 0;
}

/* One line for the first screen, or "" when the sites saw the program's
 * calls as far as the MPI's own counters tell: each total it keeps (the
 * point-to-point bytes, Open MPI's per-call counters) more than 90 % seen. */
void sites_unseen_line(char *line, size_t len, const report_job_t *job)
{
    const sites_job_t *j = of(job);
    const char *what = NULL;
    long long mpi = mpi_p2p_bytes(job, &what);
    line[0] = '\0';
    if (!j) return;
    if (j->nsites) {
        long long seen = 0, scalls = 0, calls = 0;
        char call[96];
        for (int c = 0; c < j->ncells; c++) seen += j->cells[c].bytes;
        if (mostly_unseen(seen, mpi))
            snprintf(
                line, len,
                "call sites: the sites saw %lld of the %lld point-to-point bytes %s counts: the rest went "
                "through calls the tool does not wrap (a binding or library that calls the MPI's internals)",
                seen, mpi, what);
        else if (spc_calls_unseen(job, j, call, sizeof call, &scalls, &calls))
            snprintf(line, len,
                     "call sites: the sites saw %lld of the %lld calls of %s Open MPI counts (" SPC_EVENT
                     "*): the rest went through a layer the tool does not wrap (a binding or library that "
                     "calls the MPI's internals)",
                     scalls, calls, call);
        return;
    }
    if (j->off_reason[0]) {
        snprintf(line, len, "call sites: none recorded (%s)", j->off_reason);
        return;
    }
    if (mpi <= 0) { /* another count of the MPI's, if any */
        mpi = -1;
        for (int w = 0; witnesses[w] && mpi <= 0; w++)
            if ((mpi = total(job, witnesses[w])) > 0) what = witnesses[w];
    }
    if (mpi > 0)
        snprintf(
            line, len,
            "call sites: none recorded, yet the MPI counts the program's traffic (%s: %lld): its calls went "
            "through a layer the tool does not wrap (a binding or library that calls the MPI's internals)",
            what, mpi);
    else
        snprintf(
            line, len,
            "call sites: none recorded: no call of the program reached the tool's wrappers (it made none of "
            "the calls they wrap, or made them through a layer the tool does not wrap)");
}

int sites_text_top(FILE *out, const report_job_t *job)
{
    if (!of(job)) return 0;
    if (of(job)->unseen[0]) fprintf(out, "%s\n", of(job)->unseen);
    return sites_write_findings(out, of(job), 0);
}

int sites_text_bottom(FILE *out, const report_job_t *job)
{
    return of(job) ? sites_write_table(out, of(job)) : 0;
}

int sites_csv(FILE *out, const report_job_t *job) { return sites_write_csv(out, of(job)); }
int sites_p2p_csv(FILE *out, const report_job_t *job) { return sites_write_p2p_csv(out, of(job)); }
int sites_colls_csv(FILE *out, const report_job_t *job) { return sites_write_colls_csv(out, of(job)); }
