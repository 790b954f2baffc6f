/*
 * papi-mpit-merge DIR: the report of a run that ended before MPI_Finalize,
 * from the states its ranks left in DIR: their mapped state files
 * (DIR/state.RANK.map, updated in place up to the rank's last MPI call:
 * collect/report_state_map.h) and their snapshots (DIR/snapshot.RANK.txt,
 * written on signals and periodically: collect/report_rank_state.c).  A
 * rank's calls in progress, call sites and collectives come from the
 * newer of the two; its counters from its snapshot where there is one.
 * report.txt (also on stdout), report.json and report.html in DIR, opening
 * with why the run did not end (report_hang.c), which ranks left no state
 * and when each state was taken, and how fresh each rank's state is
 * (merge_fresh.h).  Run by `papi-mpit-report --merge DIR`.  No MPI: it
 * reads text.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "merge_fresh.h"
#include "merge_state_map.h"
#include "timeline.h"
#include "report_hang.h"
#include "report_record_text.h"
#include "site_job.h"

#define PFX "papi-mpit-report: --merge: "

typedef struct snap {
    int rank, nprocs;
    char *path;
    int map; /* a mapped state file (merge_state_map.h), else a snapshot */
} snap_t;

typedef struct both {
    hang_t *hang;
    sites_job_t *sites;
    merge_fresh_t *fresh;
} both_t;

static int json(struct json_t *obj, const void *a)
{
    const both_t *b = a;
    return hang_json(obj, b->hang) || sites_json(obj, b->sites) || fresh_json(obj, b->fresh);
}
static int html_top(FILE *out, const void *a)
{
    const both_t *b = a;
    return hang_write_html(out, b->hang) || fresh_write_html(out, b->fresh) ||
           sites_write_findings(out, b->sites, 1);
}
static int html(FILE *out, const void *a) { return sites_write_html(out, ((const both_t *)a)->sites); }

static both_t both;
static int text(FILE *out, const report_job_t *job)
{
    (void)job;
    if (hang_write_text(out, both.hang) || fresh_write_text(out, both.fresh) ||
        sites_write_findings(out, both.sites, 0))
        return -1;
    if (report_write_table(out, job)) return -1;
    return sites_write_table(out, both.sites);
}

/* report.txt is rendered once, into memory: stdout gets the same text (its
 * tables go over every rank: rendering them twice doubled the cost) */
static char *text_buf;
static size_t text_len;
static int text_render_once(const report_job_t *job)
{
    FILE *m = open_memstream(&text_buf, &text_len);
    if (!m) return -1;
    int rc = text(m, job);
    return fclose(m) || rc ? -1 : 0;
}
static int text_copy(FILE *out, const report_job_t *job)
{
    (void)job;
    return fwrite(text_buf, 1, text_len, out) == text_len ? 0 : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    size_t cap = 65536, n = 0;
    char *s = malloc(cap);
    while (s) {
        n += fread(s + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *t = realloc(s, cap *= 2);
        if (!t) free(s);
        s = t;
    }
    fclose(f);
    if (s) s[n] = '\0';
    return s;
}

/* A rank's text from its mapped state m and its snapshot snap (NULL: none;
 * freed): the map's lines alone; or, when no call of the rank began or
 * ended after the snapshot, the snapshot as it is (it holds the same calls,
 * and the counts); else the map's R, I, H, A, T, C and K lines (the calls
 * in progress, sends, call sites and collectives) with the rest of the
 * snapshot (its counters and communicators: the last ones it took). */
static char *with_map(char *snap, map_text_t *m)
{
    double snap_wall = -1;
    const char *r = snap && !strncmp(snap, "R\t", 2) ? snap : NULL;
    char *f[7];
    char head[256];
    if (r) {
        snprintf(head, sizeof head, "%.*s", (int)strcspn(r + 2, "\n"), r + 2);
        if (report_split(head, '\t', f, 7) >= 5) snap_wall = strtod(f[4], NULL);
    }
    if (snap && snap_wall >= m->changed) {
        free(m->text);
        return snap;
    }
    if (!snap) return m->text;
    size_t ml = strlen(m->text), sl = strlen(snap);
    char *out = malloc(ml + sl + 1);
    if (!out) {
        fprintf(stderr, PFX "out of memory merging rank %d's states\n", m->rank);
        exit(1);
    }
    memcpy(out, m->text, ml);
    size_t n = ml;
    for (const char *line = snap; *line;) {
        size_t len = strcspn(line, "\n");
        int mine = len >= 2 && line[1] == '\t' && strchr("RIHATDCK", line[0]);
        if (!mine) memcpy(out + n, line, len), n += len, out[n++] = '\n';
        line += len + (line[len] == '\n');
    }
    out[n] = '\0';
    free(m->text), free(snap);
    return out;
}

/* "I\tstarted\tlibrary\tcommand" */
static void info_line(report_job_t *job, const char *text)
{
    const char *p = strstr(text, "\nI\t");
    if (!p && strncmp(text, "I\t", 2) == 0) p = text - 1;
    if (!p) return;
    char line[2048], *f[3] = {0};
    snprintf(line, sizeof line, "%s", p + 3);
    line[strcspn(line, "\n")] = '\0';
    char *s = line;
    for (int i = 0; i < 3 && s; i++) {
        f[i] = s;
        s = strchr(s, '\t');
        if (s) *s++ = '\0';
    }
    if (f[0]) snprintf(job->started, sizeof job->started, "%s", f[0]);
    if (f[1]) snprintf(job->mpi_library, sizeof job->mpi_library, "%s", f[1]);
    if (f[2]) snprintf(job->command, sizeof job->command, "%s", f[2]);
}

/* The rank's files in dir, each checked by its first line (R rank nprocs):
 * only their names are kept, each file is read when merged and freed
 * after (memory grows with the ranks, not with their files' text).  -1
 * when dir cannot be read. */
static int list_snapshots(const char *dir, snap_t **out, int *nout)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, PFX "%s: %s\n", dir, strerror(errno));
        return -1;
    }
    snap_t *snaps = NULL;
    int nsnaps = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        int rank, map = 0;
        char tail[8];
        if (sscanf(de->d_name, "state.%d.ma%1s", &rank, tail) == 2 && !strcmp(tail, "p") && rank >= 0)
            map = 1;
        else if (sscanf(de->d_name, "snapshot.%d.tx%1s", &rank, tail) != 2 || strcmp(tail, "t") || rank < 0)
            continue;
        char path[4352], head[128] = "";
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        int r = -1, np = 0;
        if (map) {
            map_text_t m;
            if (map_text_read(path, &m)) continue;
            free(m.text);
            r = m.rank, np = m.nprocs;
            if (r != rank) {
                fprintf(stderr, PFX "%s is rank %d's state: left out\n", path, r);
                continue;
            }
        } else {
            FILE *f = fopen(path, "r");
            if (!f || !fgets(head, sizeof head, f) || sscanf(head, "R\t%d\t%d\t", &r, &np) != 2 ||
                r != rank || np <= 0 || r >= np) {
                fprintf(stderr, PFX "%s is not a rank's state: left out\n", path);
                if (f) fclose(f);
                continue;
            }
            fclose(f);
        }
        if (nsnaps == cap) {
            cap = cap ? 2 * cap : 64;
            snap_t *s = realloc(snaps, sizeof *s * (size_t)cap);
            if (!s) {
                fprintf(stderr, PFX "out of memory listing %s (%d files)\n", dir, nsnaps);
                exit(1);
            }
            snaps = s;
        }
        snaps[nsnaps].path = strdup(path);
        if (!snaps[nsnaps].path) {
            fprintf(stderr, PFX "out of memory listing %s (%d files)\n", dir, nsnaps);
            exit(1);
        }
        snaps[nsnaps].rank = r, snaps[nsnaps].nprocs = np, snaps[nsnaps].map = map, nsnaps++;
    }
    closedir(d);
    *out = snaps, *nout = nsnaps;
    return 0;
}

/* Whether the per-rank tables of nprocs ranks can be had at all, before
 * any is made: report_job_init (report_job.c) aborts when its calloc
 * fails, which a corrupt or enormous R line would make it do.  Exits with
 * status 1 and the reason when not. */
static void merge_preflight(int nprocs)
{
    size_t per_rank = REPORT_HOST_LEN + sizeof(double) + sizeof(hang_state_t) + 64;
    void *p = calloc((size_t)nprocs, per_rank);
    if (!p) {
        fprintf(stderr,
                PFX
                "out of memory: the snapshots say %d ranks, and the merge needs %zu bytes for each before "
                "reading them\n",
                nprocs, per_rank);
        exit(1);
    }
    free(p);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: papi-mpit-merge DIR (or papi-mpit-report --merge DIR)\n");
        return 2;
    }
    const char *dir = argv[1];
    snap_t *snaps = NULL;
    int nsnaps = 0, nprocs = 0;
    if (list_snapshots(dir, &snaps, &nsnaps)) return 2;
    for (int i = 0; i < nsnaps; i++)
        if (snaps[i].nprocs > nprocs) nprocs = snaps[i].nprocs;
    if (!nsnaps) {
        fprintf(stderr,
                PFX "no snapshot.RANK.txt in %s: nothing to merge (a run leaves them with -o, and removes "
                    "them when it reaches MPI_Finalize)\n",
                dir);
        return 1;
    }
    report_job_t job;
    sites_job_t sites;
    hang_t hang;
    merge_preflight(nprocs);
    if (report_job_init(&job, nprocs) != 0) {
        fprintf(stderr, PFX "out of memory: the snapshots say %d ranks\n", nprocs);
        return 1;
    }
    job.samples_min = -1;
    job.partial = 1;
    sites_job_init(&sites, nprocs);
    hang_init(&hang, nprocs);
    merge_fresh_t fresh;
    if (fresh_init(&fresh, nprocs)) {
        fprintf(stderr, PFX "out of memory: the states say %d ranks\n", nprocs);
        return 1;
    }
    /* each rank's mapped state, where it has one, by rank */
    int *map_of = malloc(sizeof *map_of * (size_t)nprocs);
    if (!map_of) {
        fprintf(stderr, PFX "out of memory: the states say %d ranks\n", nprocs);
        return 1;
    }
    for (int r = 0; r < nprocs; r++) map_of[r] = -1;
    int *snap_of = malloc(sizeof *snap_of * (size_t)nprocs);
    if (!snap_of) {
        fprintf(stderr, PFX "out of memory: the states say %d ranks\n", nprocs);
        return 1;
    }
    for (int r = 0; r < nprocs; r++) snap_of[r] = -1;
    for (int i = 0; i < nsnaps; i++) {
        if (snaps[i].nprocs != nprocs) {
            fprintf(stderr, PFX "%s is from a run of %d ranks, the others of %d: left out\n", snaps[i].path,
                    snaps[i].nprocs, nprocs);
            continue;
        }
        if (snaps[i].map)
            map_of[snaps[i].rank] = i;
        else
            snap_of[snaps[i].rank] = i;
    }
    for (int r = 0; r < nprocs; r++) {
        if (snap_of[r] < 0 && map_of[r] < 0) continue;
        map_text_t m = {0};
        if (map_of[r] >= 0 && map_text_read(snaps[map_of[r]].path, &m)) m.text = NULL;
        char *text = NULL;
        if (snap_of[r] >= 0) {
            int i = snap_of[r];
            errno = 0;
            text = slurp(snaps[i].path);
            if (!text && errno == ENOMEM) {
                fprintf(stderr, PFX "out of memory reading %s (%d ranks)\n", snaps[i].path, nprocs);
                return 1;
            }
            if (!text)
                fprintf(stderr, PFX "%s: %s: left out\n", snaps[i].path,
                        errno ? strerror(errno) : "cannot read it");
        }
        double snap_wall = fresh_text_wall(text), map_wall = m.text ? m.wall : 0;
        if (m.text) text = with_map(text, &m);
        if (!text) continue;
        fresh_note(&fresh, r, map_wall, snap_wall, fresh_text_wall(text));
        hang_read(&hang, r, text);
        if (!job.command[0]) info_line(&job, text);
        report_record_read(&job, &sites, r, text);
        free(text);
    }
    free(map_of), free(snap_of);
    report_matrix_finish(&job);
    sites_job_finish(&sites);
    if (sites.nsites) { /* each rank's time in MPI until its snapshot */
        unsigned char *missing = calloc((size_t)nprocs + 1, 1);
        for (int r = 0; missing && r < nprocs; r++) missing[r] = (unsigned char)report_rank_missing(&job, r);
        sites_job_mpi_time(&sites, job.elapsed, missing);
        free(missing);
        job.mpi_s = sites.rank_mpi_s, job.mpi_share = sites.rank_share;
    }
    hang_finish(&hang);
    report_compute(&job);
    both = (both_t){&hang, &sites, &fresh};
    job.extra =
        (report_extra_t){.arg = &both,
                         .json = json,
                         .html_top = html_top,
                         .html = html,
                         .html_nav = "<a href=\"#hang\">Why it hung</a><a href=\"#findings\">Findings</a><a "
                                     "href=\"#sites\">Call sites</a>"};
    if (text_render_once(&job)) {
        fprintf(stderr, PFX "out of memory writing the report of %d ranks\n", nprocs);
        return 1;
    }
    text_copy(stdout, &job);
    fflush(stdout);
    static const char *const files[] = {"report.txt", "report.json", "report.html"};
    int (*const render[])(FILE *, const report_job_t *) = {text_copy, report_write_json, report_write_html};
    int rc = 0;
    for (int i = 0; i < 3; i++)
        if (report_write_file(dir, files[i], &job, render[i])) {
            fprintf(stderr, PFX "cannot write %s/%s: %s\n", dir, files[i], strerror(errno));
            rc = 1;
            break;
        }
    if (!rc) fprintf(stderr, "papi-mpit-report: wrote report.html, report.txt, report.json in %s\n", dir);
    timeline_write(dir, nprocs); /* the ranks' last calls, from their state files */
    memset(&job.extra, 0, sizeof job.extra);
    hang_free(&hang);
    fresh_free(&fresh);
    sites_job_free(&sites);
    report_job_free(&job);
    for (int i = 0; i < nsnaps; i++) free(snaps[i].path);
    free(snaps), free(text_buf);
    return rc;
}
