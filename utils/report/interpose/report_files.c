/*
 * papi-mpit-report: rank 0's report of the job: the table on the terminal
 * and the files in PAPI_MPIT_REPORT_DIR.
 */
#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_files.h"
#include "report_rank.h"
#include "site_report.h"

static const char *chart_list;
static int render_senders_csv(FILE *out, const report_job_t *job)
{
    return report_write_senders_csv(out, job);
}
static int render_svg(FILE *out, const report_job_t *job) { return report_write_svg(out, job, chart_list); }

void report_read_library_version(report_job_t *job)
{
    int len = 0;
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    PMPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    /* one line, runs of blanks as one space ("MPICH Version:\t4.0.2") */
    char *o = job->mpi_library;
    for (const char *p = version; *p && o < job->mpi_library + sizeof job->mpi_library - 1; p++) {
        int blank = *p == ' ' || *p == '\t' || *p == '\r';
        if (blank && (o == job->mpi_library || o[-1] == ' ')) continue;
        *o++ = blank ? ' ' : *p;
    }
    *o = '\0';
}

/* report.txt and the terminal's table: the findings first, the sites last */
static int render_text(FILE *out, const report_job_t *job)
{
    if (sites_text_top(out, job)) return -1;
    if (report_write_table(out, job)) return -1;
    return sites_text_bottom(out, job);
}

void report_files(report_job_t *job)
{
    rank_read_command(job->command, sizeof job->command);
    snprintf(job->started, sizeof job->started, "%s", rank_started_iso);
    report_compute(job);
    const char *out_dir = getenv("PAPI_MPIT_REPORT_DIR");
    job->no_files = !out_dir || !*out_dir; /* the table then names no file to look in */

    /* Skips rank 0 already announced (all ranks) are not repeated; the default
     * metrics the MPI cannot give are, at the top, each with its reason. */
    if (!rank_quiet()) {
        int nskips = job->nskips, k = 0;
        report_skip_t *all = job->skips;
        report_skip_t *partial = calloc((size_t)nskips + 1, sizeof *partial);
        for (int i = 0; partial && i < nskips; i++)
            if (all[i].nranks < job->nprocs || all[i].is_default) partial[k++] = all[i];
        if (partial) job->skips = partial, job->nskips = k;
        fflush(stderr);
        job->console = 1;
        render_text(stderr, job);
        job->console = 0;
        fflush(stderr);
        job->skips = all;
        job->nskips = nskips;
        free(partial);
    }
    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (dir && *dir) {
        static const char *const files[] = {"report.txt", "ranks.csv",    "report.json",
                                            "chart.svg",  "overview.svg", "report.html"};
        int (*const render[])(FILE *, const report_job_t *) = {
            render_text, report_write_csv,          report_write_json,
            render_svg,  report_write_overview_svg, report_write_html};
        enum { NBASE = sizeof files / sizeof files[0] };
        chart_list = getenv("PAPI_MPIT_REPORT_CHART");
        char unknown[REPORT_REASON_LEN];
        int nunknown = report_chart_unknown(job, chart_list, unknown, sizeof unknown);
        if (nunknown) /* even with -q: a name asked for */
            rank_note("--chart (PAPI_MPIT_REPORT_CHART): %s: %s, not in chart.svg", unknown,
                      nunknown == 1 ? "no measured event of this name" : "no measured events of these names");
        /* one message for the whole directory: the first failure stops it;
         * with -q the table, which no file then holds, follows it */
        if (report_mkdir_p(dir)) {
            int err = errno;
            rank_note("cannot create the output directory %s: %s; no files written%s", dir, strerror(err),
                      rank_quiet() ? ": the report is the table below" : ": the report is the table above");
            if (rank_quiet()) render_text(stderr, job);
            return;
        }
        /* then the matrices' files, those that have a matrix */
        static const char *const sfiles[] = {"senders.csv", "senders.svg", "matrix.csv",     "matrix.svg",
                                             "sites.csv",   "p2p.csv",     "collectives.csv"};
        int (*const srender[])(FILE *, const report_job_t *) = {render_senders_csv,
                                                                report_write_senders_svg,
                                                                report_write_matrix_csv,
                                                                report_write_matrix_svg,
                                                                sites_csv,
                                                                sites_p2p_csv,
                                                                sites_colls_csv};
        const int swant[] = {job->senders.kind != REPORT_SENDERS_NONE,
                             job->senders.kind != REPORT_SENDERS_NONE,
                             report_matrix_any(job),
                             report_matrix_any(job),
                             sites_any(job),
                             sites_any(job),
                             sites_any(job)};
        int nfiles = NBASE + (int)(sizeof sfiles / sizeof sfiles[0]);
        for (int i = 0; i < nfiles; i++) {
            if (i >= NBASE && !swant[i - NBASE]) continue;
            const char *file = i < NBASE ? files[i] : sfiles[i - NBASE];
            if (report_write_file(dir, file, job, i < NBASE ? render[i] : srender[i - NBASE])) {
                int err = errno;
                rank_note("cannot write %s/%s: %s; %s", dir, file, strerror(err),
                          i              ? "the files before it are complete, the others not written"
                          : rank_quiet() ? "no files written: the report is the table below"
                                         : "no files written: the report is the table above");
                if (!i && rank_quiet()) render_text(stderr, job);
                return;
            }
        }
        /* the sites as a TAU profile, for pprof, ParaProf, Hatchet (site_tau.c):
         * a file per rank, so above SITES_TAU_RANKS only when asked */
        int tau = swant[4] ? sites_tau_wanted(job) : 0;
        if (tau > 0 && sites_write_tau(dir, job)) {
            int err = errno;
            rank_note("cannot write %s/tau: %s; the other files are complete", dir, strerror(err));
        }
        if (!rank_quiet())
            rank_note("wrote report.html, report.txt, ranks.csv, report.json, chart.svg, "
                      "overview.svg%s%s%s%s in %s",
                      swant[0] ? ", senders.csv, senders.svg" : "",
                      swant[2] ? ", matrix.csv, matrix.svg" : "",
                      swant[4] ? ", sites.csv, p2p.csv, collectives.csv" : "",
                      tau > 0 ? ", tau/ (a TAU profile)" : "", dir);
        if (tau < 0 && !rank_quiet())
            rank_note("no tau/ (the TAU profile, a file per rank) above %d ranks unless asked: "
                      "--tau (PAPI_MPIT_REPORT_TAU=1) writes it",
                      SITES_TAU_RANKS);
    }
}
