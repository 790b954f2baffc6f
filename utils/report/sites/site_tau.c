/*
 * papi-mpit-report: the call sites as a TAU profile, DIR/tau/profile.RANK.0.0,
 * where users already look: TAU's pprof and ParaProf, and the TAU readers of
 * Hatchet and Thicket.  Per rank: the whole run as ".TAU application" (its
 * time from MPI_Init to MPI_Finalize), a timer per call site (calls and the
 * time inside the call) named by the call and its program line as TAU names
 * a source location ("MPI_Send() [{ring.c} {12,0}]"), once flat and once
 * under the application (TAU's callpath form, which Hatchet builds its tree
 * from); the MPI's counters the rank measured and its point-to-point totals
 * as user events.  Times are integer microseconds, as TAU writes them.
 * Written on rank 0 after the report, a file per rank (temporary, then
 * renamed), no fsync: derived data, rewritten by the next run.  Linear in
 * the ranks: the point-to-point totals from one pass over the program's
 * matrix.  By default only up to SITES_TAU_RANKS ranks (a file each);
 * above, on request (--tau, PAPI_MPIT_REPORT_TAU=1).
 */
#include "site_report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_env.h"
#include "site_job.h"

/* a TAU name: no double quote (it ends the name), no blank in the braces */
static void tau_text(char *out, size_t len, const char *in, int blanks)
{
    size_t o = 0;
    for (; *in && o + 1 < len; in++) out[o++] = *in == '"' ? '\'' : (!blanks && *in == ' ') ? '_' : *in;
    out[o] = '\0';
}

/* "MPI_Send() [{file} {line,0}]": the program line, or the site's label */
static void timer_name(char *out, size_t len, const site_agg_t *s)
{
    char where[400];
    tau_text(where, sizeof where, s->file[0] ? s->file : s->label, 0);
    snprintf(out, len, "%s() [{%s} {%d,0}]", sites_fn_name(s->fn), where, s->file[0] ? s->line : 0);
}

static long long us(long long ns) { return (ns + 500) / 1000; }

/* every rank's point-to-point totals, from one pass over the program's
 * matrix (not a pass per rank: 65536 ranks of a ring were 4e9 steps) */
typedef struct tau_p2p {
    long long msgs_out, bytes_out, msgs_in, bytes_in;
} tau_p2p_t;

static tau_p2p_t *p2p_totals(const sites_job_t *j, int nprocs)
{
    tau_p2p_t *t = calloc((size_t)nprocs, sizeof *t);
    if (!t) return NULL;
    for (int i = 0; i < j->ncells; i++) {
        const site_cell_t *c = &j->cells[i];
        if (c->sender >= 0 && c->sender < nprocs)
            t[c->sender].msgs_out += c->msgs, t[c->sender].bytes_out += c->bytes;
        if (c->receiver >= 0 && c->receiver < nprocs)
            t[c->receiver].msgs_in += c->msgs, t[c->receiver].bytes_in += c->bytes;
    }
    return t;
}

static int write_rank(FILE *f, const report_job_t *job, const sites_job_t *j, int r, const tau_p2p_t *p2p)
{
    long long calls = 0, mpi_us = 0;
    int ntimers = 1;
    for (int i = 0; i < j->nsites; i++) {
        const site_agg_t *s = &j->sites[i];
        if (!s->rank_calls || !s->rank_calls[r]) continue;
        calls += s->rank_calls[r];
        mpi_us += us(s->rank_ns[r]); /* the timers' own: excl + children = incl exactly */
        ntimers += 2;
    }
    long long run = job->elapsed ? (long long)(job->elapsed[r] * 1e6 + 0.5) : 0;
    if (run < mpi_us) run = mpi_us;
    fprintf(f, "%d templated_functions_MULTI_TIME\n", ntimers);
    fputs("# Name Calls Subrs Excl Incl ProfileCalls #<metadata><attribute><name>Metric Name</name>"
          "<value>TIME</value></attribute><attribute><name>Written by</name><value>papi-mpit-report: "
          "call sites</value></attribute></metadata>\n",
          f);
    fprintf(f, "\".TAU application\" 1 %lld %lld %lld 0 GROUP=\"TAU_DEFAULT\"\n", calls, run - mpi_us, run);
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < j->nsites; i++) {
            const site_agg_t *s = &j->sites[i];
            if (!s->rank_calls || !s->rank_calls[r]) continue;
            char name[600];
            timer_name(name, sizeof name, s);
            fprintf(f, "\"%s%s\" %lld 0 %lld %lld 0 GROUP=\"%s\"\n", pass ? ".TAU application => " : "", name,
                    s->rank_calls[r], us(s->rank_ns[r]), us(s->rank_ns[r]),
                    pass ? "MPI|TAU_CALLPATH" : "MPI");
        }
    fputs("0 aggregates\n", f);
    int nevents = 4;
    for (int e = 0; e < job->nevents; e++) nevents += job->events[e].present && job->events[e].present[r];
    fprintf(f, "%d userevents\n# eventname numevents max min mean sumsqr\n", nevents);
    for (int e = 0; e < job->nevents; e++) {
        const report_event_t *ev = &job->events[e];
        if (!ev->present || !ev->present[r]) continue;
        char name[REPORT_NAME_LEN + REPORT_UNITS_LEN + 8];
        char tn[sizeof name];
        snprintf(name, sizeof name, "%s (%s)", ev->name, ev->units[0] ? ev->units : "count");
        tau_text(tn, sizeof tn, name, 1);
        double v = ev->dval[r];
        fprintf(f, "\"%s\" 1 %.17g %.17g %.17g %.17g\n", tn, v, v, v, v * v);
    }
    const struct {
        const char *name;
        long long v;
    } totals[] = {{"Point-to-point messages sent by the program", p2p->msgs_out},
                  {"Point-to-point bytes sent by the program", p2p->bytes_out},
                  {"Point-to-point messages received by the program", p2p->msgs_in},
                  {"Point-to-point bytes received by the program", p2p->bytes_in}};
    for (int t = 0; t < 4; t++) {
        double v = (double)totals[t].v;
        fprintf(f, "\"%s\" 1 %.17g %.17g %.17g %.17g\n", totals[t].name, v, v, v, v * v);
    }
    return ferror(f) ? -1 : 0;
}

int sites_tau_wanted(const report_job_t *job)
{
    int asked = report_bool_env("PAPI_MPIT_REPORT_TAU", -1);
    if (asked >= 0) return asked;
    return job->nprocs <= SITES_TAU_RANKS ? 1 : -1;
}

int sites_write_tau(const char *dir, const report_job_t *job)
{
    const sites_job_t *j = job->extra.arg;
    if (!j || !j->nsites) return 0;
    char tau[4096], path[4200], tmp[4300];
    snprintf(tau, sizeof tau, "%s/tau", dir);
    if (mkdir(tau, 0777) && errno != EEXIST) return -1;
    tau_p2p_t *p2p = p2p_totals(j, job->nprocs);
    if (!p2p) return -1;
    int rc = 0;
    for (int r = 0; r < job->nprocs && !rc; r++) {
        snprintf(path, sizeof path, "%s/profile.%d.0.0", tau, r);
        snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
        FILE *f = fopen(tmp, "w");
        if (!f) {
            rc = -1;
            break;
        }
        int err = write_rank(f, job, j, r, &p2p[r]) ? (errno ? errno : EIO) : 0;
        if (fclose(f) && !err) err = errno;
        if (!err && rename(tmp, path)) err = errno;
        if (err) {
            unlink(tmp);
            errno = err;
            rc = -1;
        }
    }
    int err = errno;
    free(p2p);
    errno = err;
    return rc;
}
