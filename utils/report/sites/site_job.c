/*
 * papi-mpit-report: the ranks' call-site lines (site_record.c) merged on
 * rank 0: one site per (module, offset, call), with each rank's time and
 * calls kept for min / mean / max; the point-to-point cells and the
 * collectives by call and root.  No MPI.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "site_fn.h"
#include "site_job.h"

const char *sites_fn_name(int fn) { return fn >= 0 && fn < SITES_NFN ? sites_fn[fn].name : "?"; }

void sites_job_init(sites_job_t *j, int nprocs)
{
    memset(j, 0, sizeof *j);
    j->nprocs = nprocs;
}

void sites_job_free(sites_job_t *j)
{
    for (int i = 0; i < j->nsites; i++) {
        site_agg_t *s = &j->sites[i];
        free(s->module), free(s->pwhere), free(s->rank_ns), free(s->rank_calls), free(s->rank_max);
        free(s->rank_min), free(s->pairs);
    }
    for (int i = 0; i < j->nnolines; i++) free(j->nolines[i]);
    free(j->nolines);
    free(j->rank_mpi_s), free(j->rank_share);
    free(j->sites), free(j->slot), free(j->cells), free(j->colls);
    memset(j, 0, sizeof *j);
}

static void *grow(void *p, int *cap, int need, size_t size)
{
    if (need <= *cap) return p;
    int c = *cap ? 2 * *cap : 64;
    while (c < need) c *= 2;
    void *q = realloc(p, (size_t)c * size);
    if (!q) return NULL;
    memset((char *)q + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *cap = c;
    return q;
}

/* a site: its caller (module, offset), its call and its program line */
typedef struct site_key {
    const char *module;
    unsigned long off;
    int fn, how;
    const char *pwhere;
    unsigned long pat;
} site_key_t;

static unsigned long hash_site(const site_key_t *k)
{
    unsigned long h = 1469598103934665603UL ^ k->off ^ ((unsigned long)k->fn << 48) ^ k->pat * 31 ^
                      ((unsigned long)k->how << 40);
    for (const char *p = k->module; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211UL;
    for (const char *p = k->pwhere; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211UL;
    return h;
}

static site_key_t key_of(const site_agg_t *s)
{
    return (site_key_t){s->module, s->off, s->fn, s->how, s->pwhere, s->pat};
}

static int same_site(const site_agg_t *s, const site_key_t *k)
{
    return s->off == k->off && s->fn == k->fn && s->how == k->how && s->pat == k->pat &&
           strcmp(s->module, k->module) == 0 && strcmp(s->pwhere, k->pwhere) == 0;
}

/* rebuilds the index at twice the sites' capacity */
static int reindex(sites_job_t *j)
{
    int n = j->cap_sites * 2;
    int *slot = malloc(sizeof *slot * (size_t)n);
    if (!slot) return -1;
    for (int i = 0; i < n; i++) slot[i] = -1;
    for (int i = 0; i < j->nsites; i++) {
        site_key_t k = key_of(&j->sites[i]);
        unsigned long h = hash_site(&k) % (unsigned long)n;
        while (slot[h] >= 0) h = (h + 1) % (unsigned long)n;
        slot[h] = i;
    }
    free(j->slot);
    j->slot = slot;
    j->nslot = n;
    return 0;
}

static site_agg_t *find_site(sites_job_t *j, const site_key_t *k)
{
    if (j->nslot) {
        unsigned long h = hash_site(k) % (unsigned long)j->nslot;
        for (; j->slot[h] >= 0; h = (h + 1) % (unsigned long)j->nslot) {
            site_agg_t *s = &j->sites[j->slot[h]];
            if (same_site(s, k)) return s;
        }
    }
    site_agg_t *sites = grow(j->sites, &j->cap_sites, j->nsites + 1, sizeof *sites);
    if (!sites) return NULL;
    j->sites = sites;
    site_agg_t *s = &sites[j->nsites];
    s->module = strdup(k->module);
    s->pwhere = strdup(k->pwhere);
    s->off = k->off;
    s->fn = k->fn;
    s->how = k->how;
    s->pat = k->pat;
    s->rank_ns = calloc((size_t)j->nprocs, sizeof *s->rank_ns);
    s->rank_calls = calloc((size_t)j->nprocs, sizeof *s->rank_calls);
    s->rank_max = calloc((size_t)j->nprocs, sizeof *s->rank_max);
    s->rank_min = calloc((size_t)j->nprocs, sizeof *s->rank_min);
    if (!s->module || !s->pwhere || !s->rank_ns || !s->rank_calls || !s->rank_max || !s->rank_min) {
        free(s->module), free(s->pwhere), free(s->rank_ns), free(s->rank_calls);
        free(s->rank_max), free(s->rank_min);
        memset(s, 0, sizeof *s);
        return NULL;
    }
    j->nsites++;
    if (j->nslot < 2 * j->cap_sites) { /* the capacity grew: a new index holds the new one too */
        if (reindex(j)) return NULL;
    } else {
        unsigned long h = hash_site(k) % (unsigned long)j->nslot;
        while (j->slot[h] >= 0) h = (h + 1) % (unsigned long)j->nslot;
        j->slot[h] = j->nsites - 1;
    }
    return s;
}

static void add_pair(site_agg_t *s, int rank, int peer, long long msgs, long long bytes)
{
    site_pair_t *p = grow(s->pairs, &s->cap_pairs, s->npairs + 1, sizeof *p);
    if (!p) return;
    s->pairs = p;
    p[s->npairs++] = (site_pair_t){rank, peer, msgs, bytes};
}

static void site_line(sites_job_t *j, int rank, char **f)
{
    /* f: module, offset, fn, hist, peers, totals, how, where, at, func */
    site_key_t k = {f[0], strtoul(f[1], NULL, 16), atoi(f[2]), SITES_PROG_SELF, "", 0};
    if (f[6] && strcmp(f[6], "c") == 0) {
        k.how = SITES_PROG_NATIVE, k.pwhere = f[7], k.pat = strtoul(f[8], NULL, 16);
    } else if (f[6] && strcmp(f[6], "py") == 0) {
        k.how = SITES_PROG_PYTHON, k.pwhere = f[7], k.pat = strtoul(f[8], NULL, 10);
    } else if (f[6] && strcmp(f[6], "x") == 0) {
        k.how = SITES_PROG_NONE;
    } else if (f[6] && strcmp(f[6], "xpy") == 0) {
        k.how = SITES_PROG_NOPY;
    }
    site_agg_t *s = find_site(j, &k);
    if (!s) return;
    if (k.how == SITES_PROG_PYTHON && strcmp(f[9], "-")) snprintf(s->pfunc, sizeof s->pfunc, "%s", f[9]);
    long long v[9] = {0};
    char *t[9];
    int nt = report_split(f[5], ':', t, 9);
    for (int i = 0; i < nt; i++) v[i] = strtoll(t[i], NULL, 10);
    if (!s->rank_calls[rank]) s->nranks++;
    /* the longest and shortest single call (a record of before them: 0) */
    if (v[7] > s->rank_max[rank]) s->rank_max[rank] = v[7];
    if (v[0] && (!s->rank_calls[rank] || v[8] < s->rank_min[rank])) s->rank_min[rank] = v[8];
    s->rank_calls[rank] += v[0];
    s->rank_ns[rank] += v[1];
    s->calls += v[0], s->ns += v[1];
    s->msgs_out += v[2], s->bytes_out += v[3], s->msgs_in += v[4], s->bytes_in += v[5], s->found += v[6];
    char *item[SITES_JOB_HIST];
    int ni = strcmp(f[3], "-") ? report_split(f[3], ',', item, SITES_JOB_HIST) : 0;
    for (int i = 0; i < ni; i++) {
        int b = atoi(item[i]);
        char *c = strchr(item[i], ':');
        if (b >= 0 && b < SITES_JOB_HIST && c) s->hist[b] += strtoll(c + 1, NULL, 10);
    }
    for (char *p = f[4], *next; strcmp(f[4], "-") && p && *p; p = next) {
        next = strchr(p, ',');
        if (next) *next++ = '\0';
        char *q[3];
        if (report_split(p, ':', q, 3) == 3)
            add_pair(s, rank, atoi(q[0]), strtoll(q[1], NULL, 10), strtoll(q[2], NULL, 10));
    }
}

static void p2p_line(sites_job_t *j, int rank, char *cells, char *other)
{
    j->p2p_other += strtoll(other, NULL, 10);
    for (char *p = cells, *next; strcmp(cells, "-") && p && *p; p = next) {
        next = strchr(p, ',');
        if (next) *next++ = '\0';
        char *q[3];
        if (report_split(p, ':', q, 3) != 3) continue;
        /* "a-b": receivers a to b alike (report_records.c, records_compact_rows) */
        char *dash = strchr(q[0], '-');
        int first = atoi(q[0]), last = dash ? atoi(dash + 1) : first;
        if (last < first || last >= j->nprocs) continue;
        site_cell_t *c = grow(j->cells, &j->cap_cells, j->ncells + (last - first + 1), sizeof *c);
        if (!c) return;
        j->cells = c;
        for (int r = first; r <= last; r++)
            c[j->ncells++] = (site_cell_t){rank, r, strtoll(q[1], NULL, 10), strtoll(q[2], NULL, 10)};
    }
}

static void coll_line(sites_job_t *j, int fn, int root, char *v)
{
    char *t[2];
    if (report_split(v, ':', t, 2) != 2) return;
    for (int i = 0; i < j->ncolls; i++)
        if (j->colls[i].fn == fn && j->colls[i].root == root) {
            j->colls[i].calls += strtoll(t[0], NULL, 10);
            j->colls[i].bytes += strtoll(t[1], NULL, 10);
            return;
        }
    site_coll_t *c = grow(j->colls, &j->cap_colls, j->ncolls + 1, sizeof *c);
    if (!c) return;
    j->colls = c;
    c[j->ncolls++] = (site_coll_t){fn, root, strtoll(t[0], NULL, 10), strtoll(t[1], NULL, 10)};
}

int sites_job_line(sites_job_t *j, int rank, char *line)
{
    char *f[12] = {0};
    if (rank < 0 || rank >= j->nprocs || !line[0] || line[1] != '\t') return 0;
    char kind = line[0];
    if (!strchr("CTKG", kind)) return 0; /* another part's line: left whole */
    int n = report_split(line + 2, '\t', f, 11);
    switch (kind) {
    case 'C':
        if (n == 10 || n == 6) site_line(j, rank, f); /* 6: a record of before the program lines */
        return 1;
    case 'T':
        if (n == 2) p2p_line(j, rank, f[0], f[1]);
        j->nranks++;
        return 1;
    case 'K':
        if (n == 3) coll_line(j, atoi(f[0]), atoi(f[1]), f[2]);
        return 1;
    case 'G': {
        char *t[3];
        if (n >= 1 && report_split(f[0], ':', t, 3) == 3) {
            j->overflow_sites += strtoll(t[0], NULL, 10);
            j->overflow_colls += strtoll(t[1], NULL, 10);
            j->untracked += strtoll(t[2], NULL, 10);
        }
        if (n >= 2 && report_split(f[1], ':', t, 2) == 2 && atoi(t[0])) {
            j->watched++;
            j->found_outside += strtoll(t[1], NULL, 10);
        }
        if (n >= 3 && atoi(f[2]) > j->depth) j->depth = atoi(f[2]);
        if (n >= 4 && strcmp(f[3], "-") && !j->frames_why[0])
            snprintf(j->frames_why, sizeof j->frames_why, "%s", f[3]);
        return 1;
    }
    default: return 0;
    }
}

static int by_time(const void *a, const void *b)
{
    const site_agg_t *x = a, *y = b;
    if (x->ns != y->ns) return x->ns < y->ns ? 1 : -1;
    return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

static int by_cell(const void *a, const void *b)
{
    const site_cell_t *x = a, *y = b;
    return x->sender != y->sender ? x->sender - y->sender : x->receiver - y->receiver;
}

void sites_job_finish(sites_job_t *j)
{
    sites_name_all(j);
    if (j->nsites) qsort(j->sites, (size_t)j->nsites, sizeof *j->sites, by_time);
    free(j->slot); /* the order changed: no more lookups */
    j->slot = NULL, j->nslot = 0;
    if (j->ncells) qsort(j->cells, (size_t)j->ncells, sizeof *j->cells, by_cell);
}

void sites_job_mpi_time(sites_job_t *j, const double *elapsed, const unsigned char *missing)
{
    if (j->off_reason[0] || j->nprocs <= 0) return; /* the sites were off: nothing was timed */
    j->rank_mpi_s = calloc((size_t)j->nprocs, sizeof *j->rank_mpi_s);
    j->rank_share = calloc((size_t)j->nprocs, sizeof *j->rank_share);
    if (!j->rank_mpi_s || !j->rank_share) {
        free(j->rank_mpi_s), free(j->rank_share);
        j->rank_mpi_s = j->rank_share = NULL;
        return;
    }
    for (int r = 0; r < j->nprocs; r++) {
        long long ns = 0;
        for (int i = 0; i < j->nsites; i++) ns += j->sites[i].rank_ns[r];
        j->rank_mpi_s[r] = (double)ns / 1e9;
        /* as report.json writes them: seconds of the run to 9 places */
        j->rank_share[r] = (missing && missing[r]) || !(elapsed[r] > 0) ? NAN : j->rank_mpi_s[r] / elapsed[r];
    }
}
