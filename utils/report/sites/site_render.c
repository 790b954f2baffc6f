/*
 * papi-mpit-report: the call sites in text and CSV: the table of the
 * heaviest sites, the program's point-to-point matrix (p2p.csv: what the
 * program's sends asked for, as its wrappers saw them; not Open MPI's
 * wire-level matrix.csv), sites.csv and the collectives by call and root
 * (collectives.csv).  No MPI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_figures.h"
#include "site_job.h"

#define TOP_SITES 10 /* sites in the text table */

#define GRID_MAX 16 /* ranks drawn as a grid; more: the heaviest pairs */

/* the program's point-to-point bytes, sender by receiver */
static void write_matrix_text(FILE *out, const sites_job_t *j)
{
    char b[32];
    if (!j->ncells) return;
    if (j->nprocs <= GRID_MAX) {
        fputs("\npoint-to-point bytes as the program sent them (row: sender, column: receiver; all in "
              "p2p.csv with "
              "-o):\n     ",
              out);
        for (int c = 0; c < j->nprocs; c++) fprintf(out, " %9d", c);
        fputc('\n', out);
        for (int r = 0, k = 0; r < j->nprocs; r++) {
            fprintf(out, "  %3d", r);
            for (int c = 0; c < j->nprocs; c++) {
                long long v = 0;
                while (k < j->ncells &&
                       (j->cells[k].sender < r || (j->cells[k].sender == r && j->cells[k].receiver < c)))
                    k++;
                if (k < j->ncells && j->cells[k].sender == r && j->cells[k].receiver == c)
                    v = j->cells[k].bytes;
                if (v)
                    report_fmt_human(b, sizeof b, (double)v, "bytes");
                else
                    snprintf(b, sizeof b, ".");
                fprintf(out, " %9s", b);
            }
            fputc('\n', out);
        }
        return;
    }
    /* too many ranks for a grid: the ten heaviest pairs */
    fputs("\npoint-to-point: the heaviest sender-receiver pairs (all in p2p.csv with -o):\n", out);
    unsigned char *shown = calloc((size_t)j->ncells, 1);
    for (int n = 0; shown && n < 10 && n < j->ncells; n++) {
        int best = -1;
        for (int i = 0; i < j->ncells; i++)
            if (!shown[i] && (best < 0 || j->cells[i].bytes > j->cells[best].bytes)) best = i;
        shown[best] = 1;
        report_fmt_human(b, sizeof b, (double)j->cells[best].bytes, "bytes");
        fprintf(out, "  %d -> %d: %s in %lld messages\n", j->cells[best].sender, j->cells[best].receiver, b,
                j->cells[best].msgs);
    }
    free(shown);
}

int sites_write_table(FILE *out, const sites_job_t *j)
{
    if (!j->nsites) return ferror(out) ? -1 : 0; /* said at the top (sites_unseen_line) */
    int n = j->nsites < TOP_SITES ? j->nsites : TOP_SITES;
    fprintf(out,
            "\ncall sites (%d of %d, by time in the call over all ranks; every site in sites.csv with -o):\n",
            n, j->nsites);
    fprintf(out, "  %-28s %-18s %10s %10s %10s %10s %10s %10s %8s  %s\n", "site", "call", "calls", "time",
            "max/rank", "mean/rank", "sent", "received", j->watched ? "waiting" : "",
            "top pair (sender-receiver)");
    for (int i = 0; i < n; i++) {
        const site_agg_t *s = &j->sites[i];
        sites_texts_t t;
        char pr[64];
        sites_site_texts(&t, j, s);
        sites_peers_text(pr, sizeof pr, s);
        char fw[32] = "";
        if (j->watched) snprintf(fw, sizeof fw, "%lld", s->found);
        fprintf(out, "  %-28s %-18s %10lld %10s %10s %10s %10s %10s %8s  %s\n", s->label,
                sites_fn_name(s->fn), s->calls, t.time, t.max, t.mean, t.sent, t.received, fw, pr);
    }
    if (j->watched)
        fprintf(
            out,
            "  waiting: receives posted at the site that found their message already in the unexpected queue "
            "(MPI_T events, %d rank%s); outside the program's calls: %lld\n",
            j->watched, j->watched == 1 ? "" : "s", j->found_outside);
    int behind = 0, none = 0;
    for (int i = 0; i < j->nsites; i++) {
        behind += j->sites[i].how == SITES_PROG_NATIVE || j->sites[i].how == SITES_PROG_PYTHON;
        none += j->sites[i].how == SITES_PROG_NONE || j->sites[i].how == SITES_PROG_NOPY;
    }
    if (behind || none)
        fprintf(out,
                "  %d site%s named by the program's line behind a library (sites.csv's via: the library's "
                "line); %d inside a library with no program frame within --site-depth %d\n",
                behind, behind == 1 ? "" : "s", none, j->depth);
    if (j->frames_why[0]) fprintf(out, "  program lines: %s\n", j->frames_why);
    for (int i = 0; i < j->nnolines; i++)
        fprintf(out, "  no line information for %s (no -g, and no separate debug file found)\n",
                j->nolines[i]);
    write_matrix_text(out, j);
    if (j->overflow_sites || j->overflow_colls || j->untracked)
        fprintf(
            out,
            "  not recorded: %lld calls beyond the sites kept, %lld collectives beyond the cells kept, %lld "
            "requests beyond the tracked\n",
            j->overflow_sites, j->overflow_colls, j->untracked);
    return ferror(out) ? -1 : 0;
}

static void csv_text(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"') fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

int sites_write_csv(FILE *out, const sites_job_t *j)
{
    fputs("call,file,line,function,module,offset,calls,time_ns,ranks,time_min_ns,time_min_rank,time_mean_ns,"
          "time_max_ns,time_max_rank,msgs_sent,bytes_sent,msgs_received,bytes_received,via,call_max_ns,"
          "call_max_rank,call_min_ns,call_min_rank\n",
          out);
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        double mean;
        int lo = sites_extreme_rank(s, j->nprocs, 0, &mean), hi = sites_extreme_rank(s, j->nprocs, 1, &mean);
        fprintf(out, "%s,", sites_fn_name(s->fn));
        csv_text(out, s->file);
        fprintf(out, ",%d,", s->line);
        csv_text(out, s->func);
        fputc(',', out);
        csv_text(out, s->module);
        fprintf(out, ",0x%lx,%lld,%lld,%d,%lld,%d,%.1f,%lld,%d,%lld,%lld,%lld,%lld,", s->off, s->calls, s->ns,
                s->nranks, lo >= 0 ? s->rank_ns[lo] : 0, lo, mean, hi >= 0 ? s->rank_ns[hi] : 0, hi,
                s->msgs_out, s->bytes_out, s->msgs_in, s->bytes_in);
        csv_text(out, s->how == SITES_PROG_NATIVE || s->how == SITES_PROG_PYTHON ? s->via : "");
        long long lmax, lmin;
        int lmin_rank, lmax_rank = sites_call_extremes(s, j->nprocs, &lmax, &lmin, &lmin_rank);
        fprintf(out, ",%lld,%d,%lld,%d\n", lmax, lmax_rank, lmin, lmin_rank);
    }
    return ferror(out) ? -1 : 0;
}

int sites_write_p2p_csv(FILE *out, const sites_job_t *j)
{
    fputs("sender,receiver,messages,bytes\n", out);
    for (int i = 0; i < j->ncells; i++)
        fprintf(out, "%d,%d,%lld,%lld\n", j->cells[i].sender, j->cells[i].receiver, j->cells[i].msgs,
                j->cells[i].bytes);
    return ferror(out) ? -1 : 0;
}

int sites_write_colls_csv(FILE *out, const sites_job_t *j)
{
    fputs("call,root,calls,bytes\n", out);
    for (int i = 0; i < j->ncolls; i++) {
        fprintf(out, "%s,", sites_fn_name(j->colls[i].fn));
        if (j->colls[i].root >= 0) fprintf(out, "%d", j->colls[i].root);
        fprintf(out, ",%lld,%lld\n", j->colls[i].calls, j->colls[i].bytes);
    }
    return ferror(out) ? -1 : 0;
}
