/*
 * papi-mpit-report: why a run hangs (report_hang.h).
 *
 * The wait graph: an edge from rank r to rank p when a thread of r waits
 * in a point-to-point call for p (a receive, probe or completion from p, a
 * blocking send to p), and from r to every member of a communicator that
 * has not entered the collective r waits in (MPI_Finalize counts as a
 * collective of MPI_COMM_WORLD: the tool's collection waits there).  A
 * cycle is a deadlock.  The messages in flight come from the wrappers'
 * counts: what s's sends to r were (posted, for nonblocking ones) against
 * what r's receive sites got from s; no MPI here gives its unexpected
 * queue by sender and tag at a moment, so a mismatch is said as likely,
 * with what could not be checked.
 *
 * At any size: the graph is kept as edge lists (a collective left
 * incomplete is one node between the ranks that entered it and those that
 * did not, not an edge for every pair), the message counts as a hash of
 * the pairs the files name, and cycles are found by one iterative
 * depth-first walk (linear in ranks and edges, no recursion).  Ranks in
 * the same state are said in one sentence: the same call, site, tag and
 * communicator, waiting for a peer at the same distance ("their left
 * neighbour") or for the same rank.
 */
#include <jansson.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"
#include "report_hang.h"
#include "site_fn.h"
#include "site_job.h"

#define MAX_CYCLES    5  /* deadlocks named */
#define CYCLE_LISTED  8  /* a cycle up to this long is said member by member */
#define STATES_SAID   6  /* states in a cycle's sentence, then how many more */
#define WHERE_LINES   16 /* lines of "where each rank was", then how many more */
#define FINDINGS_EACH 8  /* collectives or mismatches said one by one, then how many more */
#define RANGES_SAID   12 /* ranges of a list of ranks, then how many more */

/* ---- memory: every allocation checked; a merge that cannot hold its
 * states says so and ends, never a partial or crashed report */
static void *hang_alloc(size_t n, size_t size, const char *what)
{
    void *p = size && n > SIZE_MAX / size ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "papi-mpit-report: --merge: out of memory: %zu x %zu bytes for %s\n", n, size, what);
        exit(1);
    }
    return p;
}

static void *hang_grow(void *p, size_t n, size_t size, const char *what)
{
    void *q = size && n > SIZE_MAX / size ? NULL : realloc(p, n * size);
    if (!q) {
        fprintf(stderr, "papi-mpit-report: --merge: out of memory: %zu x %zu bytes for %s\n", n, size, what);
        exit(1);
    }
    return q;
}

static char *hang_strdup(const char *s, const char *what)
{
    size_t n = strlen(s) + 1;
    return memcpy(hang_alloc(n, 1, what), s, n);
}

/* ---- text of any length */
typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf_t;

static void sb_printf(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    if (!b->s || b->n + (size_t)w + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + (size_t)w + 1) cap *= 2;
        b->s = hang_grow(b->s, cap, 1, "a sentence");
        b->cap = cap;
        va_start(ap, fmt);
        vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap);
        va_end(ap);
    }
    b->n += (size_t)w;
}

/* ---- point-to-point counts by (sender, receiver): open addressing */
typedef struct hang_pair {
    uint64_t key; /* sender << 32 | receiver, + 1 (0: empty) */
    long long sent, got;
    int mixed;
} hang_pair_t;

struct hang_pairs {
    hang_pair_t *slot;
    size_t n, cap;
};

static uint64_t pair_key(int s, int r) { return ((uint64_t)(uint32_t)s << 32 | (uint32_t)r) + 1; }
static size_t pair_hash(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

static hang_pair_t *pair_get(struct hang_pairs *p, int s, int r, int create)
{
    uint64_t k = pair_key(s, r);
    if (p->cap) {
        for (size_t i = pair_hash(k, p->cap);; i = (i + 1) & (p->cap - 1)) {
            if (p->slot[i].key == k) return &p->slot[i];
            if (!p->slot[i].key) break;
        }
    }
    if (!create) return NULL;
    if (2 * (p->n + 1) > p->cap) { /* at most half full */
        size_t cap = p->cap ? 2 * p->cap : 1024;
        hang_pair_t *old = p->slot, *slot = hang_alloc(cap, sizeof *slot, "the message counts by pair");
        for (size_t j = 0; j < p->cap; j++) {
            if (!old[j].key) continue;
            size_t i = pair_hash(old[j].key, cap);
            while (slot[i].key) i = (i + 1) & (cap - 1);
            slot[i] = old[j];
        }
        free(old);
        p->slot = slot, p->cap = cap;
    }
    size_t i = pair_hash(k, p->cap);
    while (p->slot[i].key) i = (i + 1) & (p->cap - 1);
    p->slot[i].key = k;
    p->n++;
    return &p->slot[i];
}

void hang_init(hang_t *h, int nprocs)
{
    memset(h, 0, sizeof *h);
    h->nprocs = nprocs;
    size_t n = (size_t)nprocs;
    h->st = hang_alloc(n, sizeof *h->st, "the ranks' states");
    h->pairs = hang_alloc(1, sizeof *h->pairs, "the message counts by pair");
    h->has_t = hang_alloc(n, 1, "the ranks' states");
    h->unexpected = hang_alloc(n, sizeof *h->unexpected, "the ranks' queue lengths");
    for (int r = 0; r < nprocs; r++) h->unexpected[r] = -1;
}

void hang_free(hang_t *h)
{
    for (int i = 0; i < h->ncalls; i++) free(h->calls[i].module);
    for (int i = 0; i < h->nlines; i++) free(h->lines[i]);
    if (h->pairs) free(h->pairs->slot);
    free(h->calls), free(h->lines), free(h->st), free(h->pairs), free(h->has_t);
    free(h->unexpected), free(h->rank_first), free(h->by_rank);
    memset(h, 0, sizeof *h);
}

static const char *kind_of_fn(int fn) { return fn >= 0 && fn < SITES_NFN ? sites_fn[fn].kind : ""; }

static int is_recv_kind(const char *k)
{
    return !strcmp(k, "recv") || !strcmp(k, "irecv") || !strcmp(k, "precv") || !strcmp(k, "mrecv") ||
           !strcmp(k, "imrecv");
}

static void add_call(hang_t *h, int rank, char **f)
{
    if (h->ncalls == h->cap_calls) {
        int cap = h->cap_calls ? 2 * h->cap_calls : 16;
        h->calls = hang_grow(h->calls, (size_t)cap, sizeof *h->calls, "the calls in progress");
        h->cap_calls = cap;
    }
    hang_call_t *c = &h->calls[h->ncalls];
    memset(c, 0, sizeof *c);
    c->rank = rank;
    c->tid = atol(f[0]);
    snprintf(c->fn, sizeof c->fn, "%s", f[1]);
    snprintf(c->kind, sizeof c->kind, "%s", f[2]);
    c->module = hang_strdup(f[3], "the calls in progress");
    c->off = strtoul(f[4], NULL, 16);
    c->age = strtod(f[5], NULL);
    c->peer = atoi(f[6]);
    c->has_tag = strcmp(f[7], "-") != 0;
    c->tag = c->has_tag ? atoi(f[7]) : 0;
    c->any_source = atoi(f[8]);
    c->any_tag = atoi(f[9]);
    snprintf(c->comm, sizeof c->comm, "%s", f[10]);
    snprintf(c->members, sizeof c->members, "%s", strcmp(f[11], "-") ? f[11] : "");
    h->ncalls++;
}

/* "peer:msgs:bytes,..." of a T line (sends of rank) or a receive site's C line */
static void read_pairs(hang_t *h, int rank, char *list, int what)
{
    int n = h->nprocs;
    for (char *p = list, *next; p && *p; p = next) {
        next = strchr(p, ',');
        if (next) *next++ = '\0';
        char *q[3];
        if (report_split(p, ':', q, 3) != 3) continue;
        int peer = atoi(q[0]);
        if (peer < 0 || peer >= n) continue;
        if (what == 'T')
            pair_get(h->pairs, rank, peer, 1)->sent += atoll(q[1]);
        else if (what == 'R')
            pair_get(h->pairs, peer, rank, 1)->got += atoll(q[1]);
        else
            pair_get(h->pairs, peer, rank, 1)->mixed = 1;
    }
}

int hang_read(hang_t *h, int rank, const char *text)
{
    if (rank < 0 || rank >= h->nprocs) return -1;
    char *copy = hang_strdup(text, "a rank's state"), *save = NULL;
    int seen_r = 0;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!line[0] || line[1] != '\t') continue;
        char kind = line[0], *f[16];
        int nf = report_split(line + 2, '\t', f, 16);
        if (kind == 'R' && nf >= 7) {
            hang_state_t *s = &h->st[rank];
            s->present = seen_r = 1;
            snprintf(s->why, sizeof s->why, "%s", f[2]);
            s->signo = atoi(f[3]);
            s->wall = strtod(f[4], NULL);
            s->seq = atol(f[5]);
            s->elapsed = strtod(f[6], NULL);
        } else if (kind == 'D' && nf >= 1) {
            h->st[rank].took = strtod(f[0], NULL);
        } else if (kind == 'A' && nf >= 12) {
            add_call(h, rank, f);
        } else if (kind == 'T' && nf >= 2) {
            h->has_t[rank] = 1;
            if (strcmp(f[0], "-")) read_pairs(h, rank, f[0], 'T');
        } else if (kind == 'C' && nf >= 6) {
            const char *k = kind_of_fn(atoi(f[2]));
            int recv = is_recv_kind(k), mixed = !strcmp(k, "sendrecv");
            if ((recv || mixed) && strcmp(f[4], "-")) read_pairs(h, rank, f[4], recv ? 'R' : 'M');
        } else if (kind == 'Z' && nf >= 2 && strstr(f[0], "UNEXPECTED_QUEUE_LENGTH")) {
            const char *last = strrchr(f[1], ':');
            if (last) h->unexpected[rank] = strtod(last + 1, NULL);
        }
    }
    free(copy);
    return seen_r ? 0 : -1;
}

/* ---- sentences */
static void say_sb(hang_t *h, sbuf_t *b)
{
    if (h->nlines == h->cap_lines) {
        int cap = h->cap_lines ? 2 * h->cap_lines : 16;
        h->lines = hang_grow(h->lines, (size_t)cap, sizeof *h->lines, "the sentences");
        h->cap_lines = cap;
    }
    h->lines[h->nlines++] = b->s ? b->s : hang_strdup("", "the sentences");
    memset(b, 0, sizeof *b);
}

static void say(hang_t *h, const char *fmt, ...)
{
    sbuf_t b = {0};
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (w < 0) return;
    b.s = hang_alloc((size_t)w + 1, 1, "the sentences");
    va_start(ap, fmt);
    vsnprintf(b.s, (size_t)w + 1, fmt, ap);
    va_end(ap);
    say_sb(h, &b);
}

/* "0, 2 and 5", "0-3", or "0, 4, 8 ... and 1021 more": ranks ascending,
 * never cut (at most RANGES_SAID ranges, then how many more ranks) */
static void rank_list(sbuf_t *b, const int *ranks, int k)
{
    int ranges = 0, done = 0;
    for (int i = 0; i < k;) {
        int e = i;
        while (e + 1 < k && ranks[e + 1] == ranks[e] + 1) e++;
        if (ranges == RANGES_SAID) {
            sb_printf(b, " and %d more", k - done);
            return;
        }
        const char *sep = ranges == 0 ? "" : e + 1 == k ? " and " : ", ";
        if (e == i)
            sb_printf(b, "%s%d", sep, ranks[i]);
        else
            sb_printf(b, "%s%d-%d", sep, ranks[i], ranks[e]);
        ranges++, done += e - i + 1;
        i = e + 1;
    }
}

/* the members "0-3,6" of a communicator: calls each(rank, arg); their count */
static int each_member(const char *s, int n, void (*each)(int r, void *arg), void *arg)
{
    int count = 0;
    for (const char *p = s; p && *p;) {
        char *end;
        long lo = strtol(p, &end, 10), hi = lo;
        if (end == p) break;
        if (*end == '-') hi = strtol(end + 1, &end, 10);
        if (lo < 0) lo = 0;
        if (hi >= n) hi = n - 1;
        for (long r = lo; r <= hi; r++) each((int)r, arg), count++;
        p = *end == ',' ? end + 1 : NULL;
    }
    return count;
}

/* communicators are made and freed collectively too (mpi-calls.tsv's comm rows) */
static int is_coll(const hang_call_t *c)
{
    return !strcmp(c->kind, "coll") || !strcmp(c->kind, "finalize") || !strcmp(c->kind, "comm") ||
           !strcmp(c->kind, "comm_free");
}
static int waits_for_peer(const hang_call_t *c) { return !is_coll(c) && c->peer >= 0 && !c->any_source; }
static int sends(const hang_call_t *c) { return !strcmp(c->kind, "send"); }

/* whom a call waits for, as words: a rank, or (for ranks in the same
 * state) a distance on the ring of ranks or the same rank for all */
enum { REL_NONE, REL_RANK, REL_DIST, REL_NOCALL };
typedef struct rel {
    int kind, val;
} rel_t;

static void peer_words(sbuf_t *b, const hang_t *h, rel_t rel)
{
    int n = h->nprocs, d = rel.val;
    if (rel.kind == REL_RANK)
        sb_printf(b, "rank %d", d);
    else if (n == 2)
        sb_printf(b, "the other rank");
    else if (d == n - 1)
        sb_printf(b, "their left neighbour");
    else if (d == 1)
        sb_printf(b, "their right neighbour");
    else if (d <= n / 2)
        sb_printf(b, "the rank %d above each", d);
    else
        sb_printf(b, "the rank %d below each", n - d);
}

/* what a call is, in words: "waits in MPI_Recv from rank 3, tag 4, at x.c:12"
 * (one rank), or "wait in ... from their left neighbour ..." (plural) */
static void describe_as(sbuf_t *b, const hang_t *h, const hang_call_t *c, rel_t rel, int plural)
{
    const char *waits = plural ? "wait" : "waits", *is = plural ? "are" : "is";
    char tag[48] = "";
    if (c->any_tag)
        snprintf(tag, sizeof tag, ", any tag,");
    else if (c->has_tag)
        snprintf(tag, sizeof tag, ", tag %d,", c->tag);
    if (!strcmp(c->kind, "finalize"))
        sb_printf(b, "%s in MPI_Finalize (the tool's collection waits for every rank there)", is);
    else if (is_coll(c) && c->peer >= 0)
        sb_printf(b, "%s in %s (root %d) at %s", waits, c->fn, c->peer, c->label);
    else if (is_coll(c))
        sb_printf(b, "%s in %s at %s", waits, c->fn, c->label);
    else if (c->any_source)
        sb_printf(b, "%s in %s from any rank%s at %s", waits, c->fn, tag, c->label);
    else if (c->peer >= 0) {
        sb_printf(b, "%s in %s %s ", waits, c->fn, sends(c) ? "to" : "from");
        peer_words(b, h, rel.kind == REL_DIST ? rel : (rel_t){REL_RANK, c->peer});
        sb_printf(b, "%s at %s", tag, c->label);
    } else
        sb_printf(b, "%s in %s at %s", is, c->fn, c->label);
}

static void describe(sbuf_t *b, const hang_t *h, const hang_call_t *c)
{
    describe_as(b, h, c, (rel_t){REL_RANK, c->peer}, 0);
}

static int first_call(const hang_t *h, int r)
{
    return h->rank_first[r] < h->rank_first[r + 1] ? h->by_rank[h->rank_first[r]] : -1;
}

static void state_of(sbuf_t *b, const hang_t *h, int r)
{
    int c = r >= 0 && r < h->nprocs ? first_call(h, r) : -1;
    if (r < 0 || r >= h->nprocs || !h->st[r].present)
        sb_printf(b, "whose state is missing");
    else if (c >= 0) {
        sb_printf(b, "which ");
        describe(b, h, &h->calls[c]);
    } else
        sb_printf(b, "which is in no wrapped MPI call (it computes, or is in a call the tool does not wrap)");
}

/* the calls by rank, in rank order (a counting sort) */
static void index_by_rank(hang_t *h)
{
    int n = h->nprocs;
    h->rank_first = hang_alloc((size_t)n + 1, sizeof *h->rank_first, "the calls by rank");
    h->by_rank = hang_alloc((size_t)h->ncalls + 1, sizeof *h->by_rank, "the calls by rank");
    for (int i = 0; i < h->ncalls; i++) h->rank_first[h->calls[i].rank + 1]++;
    for (int r = 0; r < n; r++) h->rank_first[r + 1] += h->rank_first[r];
    int *fill = hang_alloc((size_t)n + 1, sizeof *fill, "the calls by rank");
    memcpy(fill, h->rank_first, sizeof *fill * (size_t)n);
    for (int i = 0; i < h->ncalls; i++) h->by_rank[fill[h->calls[i].rank]++] = i;
    free(fill);
}

/* sites: each distinct (module, offset) named once */
static const hang_call_t *cmp_calls;
static int by_site(const void *a, const void *b)
{
    const hang_call_t *x = &cmp_calls[*(const int *)a], *y = &cmp_calls[*(const int *)b];
    int m = strcmp(x->module, y->module);
    return m ? m : x->off < y->off ? -1 : x->off > y->off;
}

static void name_sites(hang_t *h)
{
    int *order = hang_alloc((size_t)h->ncalls + 1, sizeof *order, "the sites");
    for (int i = 0; i < h->ncalls; i++) order[i] = i;
    cmp_calls = h->calls;
    qsort(order, (size_t)h->ncalls, sizeof *order, by_site);
    sites_job_t j;
    sites_job_init(&j, 1);
    /* the distinct sites: site k is the calls order[first[k]...] */
    int *first = hang_alloc((size_t)h->ncalls + 1, sizeof *first, "the sites"), nsites = 0;
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[order[i]];
        if (!strcmp(c->module, "-") || !strcmp(c->module, "?")) continue;
        if (nsites && !by_site(&order[first[nsites - 1]], &order[i])) continue;
        first[nsites++] = i;
    }
    j.sites = hang_alloc((size_t)nsites + 1, sizeof *j.sites, "the sites");
    for (; j.nsites < nsites; j.nsites++) {
        site_agg_t *s = &j.sites[j.nsites];
        s->module = hang_strdup(h->calls[order[first[j.nsites]]].module, "the sites");
        s->off = h->calls[order[first[j.nsites]]].off;
    }
    sites_name_all(&j);
    for (int k = 0; k < j.nsites; k++)
        for (int i = first[k]; i < h->ncalls && !by_site(&order[first[k]], &order[i]); i++)
            snprintf(h->calls[order[i]].label, sizeof h->calls[0].label, "%s", j.sites[k].label);
    for (int i = 0; i < h->ncalls; i++)
        if (!h->calls[i].label[0])
            snprintf(h->calls[i].label, sizeof h->calls[i].label, "the tool's MPI_Finalize");
    free(first), free(order);
    sites_job_free(&j);
}

/* ---- ranks in the same state, grouped.  An item is a call (>= 0) or a
 * rank in no call (-1 - rank). */
typedef struct group {
    int item; /* the first, which speaks for all */
    rel_t rel;
    int nranks, last_rank;
    int first; /* its ranks: members[first .. first + nranks) */
    int id;    /* its index as made (grouping_t.of), kept when the groups are sorted */
} group_t;

typedef struct grouping {
    group_t *g;
    int ng;
    int *members; /* ranks, ascending within each group */
    int *of;      /* the group of each item (by position) */
} grouping_t;

static int item_rank(const hang_t *h, int item) { return item >= 0 ? h->calls[item].rank : -1 - item; }

static rel_t rel_of(const hang_t *h, int item, int by_distance)
{
    if (item < 0) return (rel_t){REL_NOCALL, 0};
    const hang_call_t *c = &h->calls[item];
    if (c->peer < 0 || (c->any_source && !is_coll(c))) return (rel_t){REL_NONE, 0};
    if (is_coll(c) || !by_distance || c->peer >= h->nprocs) return (rel_t){REL_RANK, c->peer};
    return (rel_t){REL_DIST, ((c->peer - c->rank) % h->nprocs + h->nprocs) % h->nprocs};
}

static uint64_t mix(uint64_t x, uint64_t v) { return (x ^ v) * 0x100000001B3ULL; }
static uint64_t mix_str(uint64_t x, const char *s)
{
    while (*s) x = mix(x, (unsigned char)*s++);
    return mix(x, 0xff);
}

static uint64_t state_hash(const hang_t *h, int item, rel_t rel)
{
    uint64_t x = mix(mix(0xcbf29ce484222325ULL, (uint64_t)rel.kind), (uint64_t)(uint32_t)rel.val);
    if (item < 0) return x;
    const hang_call_t *c = &h->calls[item];
    x = mix_str(mix_str(mix_str(mix_str(x, c->fn), c->kind), c->comm), c->label);
    x = mix(mix(mix(mix(x, (uint64_t)c->has_tag), (uint64_t)(uint32_t)c->tag), (uint64_t)c->any_tag),
            (uint64_t)c->any_source);
    return x;
}

static int same_state(const hang_t *h, int a, rel_t ra, int b, rel_t rb)
{
    if (ra.kind != rb.kind || ra.val != rb.val || (a < 0) != (b < 0)) return 0;
    if (a < 0) return 1;
    const hang_call_t *x = &h->calls[a], *y = &h->calls[b];
    return !strcmp(x->fn, y->fn) && !strcmp(x->kind, y->kind) && !strcmp(x->comm, y->comm) &&
           !strcmp(x->label, y->label) && x->has_tag == y->has_tag && x->tag == y->tag &&
           x->any_tag == y->any_tag && x->any_source == y->any_source;
}

/* groups items (ascending ranks) by state: a peer at the same distance
 * first; the ranks alone in theirs, by the same peer rank */
static void group_items(const hang_t *h, const int *items, int k, grouping_t *out)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)k + 2) cap *= 2;
    int *slot = hang_alloc(cap, sizeof *slot, "the states' groups");
    rel_t *rel = hang_alloc((size_t)k + 1, sizeof *rel, "the states' groups");
    group_t *g = hang_alloc((size_t)k + 1, sizeof *g, "the states' groups");
    int *of = hang_alloc((size_t)k + 1, sizeof *of, "the states' groups"), ng = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < k; i++)
            if (pass == 0)
                rel[i] = rel_of(h, items[i], 1);
            else if (rel[i].kind == REL_DIST && g[of[i]].nranks == 1)
                rel[i].kind = -1; /* below: by the peer's rank */
        memset(slot, 0xff, cap * sizeof *slot);
        ng = 0;
        for (int i = 0; i < k; i++) {
            if (rel[i].kind == -1) rel[i] = rel_of(h, items[i], 0);
            size_t s = (size_t)state_hash(h, items[i], rel[i]) & (cap - 1);
            while (slot[s] >= 0 && !same_state(h, g[slot[s]].item, g[slot[s]].rel, items[i], rel[i]))
                s = (s + 1) & (cap - 1);
            if (slot[s] < 0) {
                slot[s] = ng;
                g[ng] = (group_t){items[i], rel[i], 0, -1, 0, ng};
                ng++;
            }
            group_t *x = &g[slot[s]];
            of[i] = slot[s];
            if (x->last_rank != item_rank(h, items[i])) x->nranks++, x->last_rank = item_rank(h, items[i]);
        }
    }
    int total = 0;
    for (int i = 0; i < ng; i++)
        g[i].first = total, total += g[i].nranks, g[i].last_rank = -1, g[i].nranks = 0;
    int *members = hang_alloc((size_t)total + 1, sizeof *members, "the states' groups");
    for (int i = 0; i < k; i++) {
        group_t *x = &g[of[i]];
        int r = item_rank(h, items[i]);
        if (x->last_rank != r) members[x->first + x->nranks++] = r, x->last_rank = r;
    }
    free(slot), free(rel);
    *out = (grouping_t){g, ng, members, of};
}

static int by_size(const void *a, const void *b)
{
    const group_t *x = a, *y = b;
    if (x->nranks != y->nranks) return x->nranks > y->nranks ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static void grouping_free(grouping_t *g) { free(g->g), free(g->members), free(g->of); }

/* "rank 3 waits in ..." or "4095 ranks (1-4095) wait in ..." */
static void group_words(sbuf_t *b, const hang_t *h, const grouping_t *gr, const group_t *g, int capital)
{
    const int *m = gr->members + g->first;
    if (g->nranks == 1)
        sb_printf(b, "%s %d ", capital ? "Rank" : "rank", m[0]);
    else {
        sb_printf(b, "%d ranks (", g->nranks);
        rank_list(b, m, g->nranks);
        sb_printf(b, ") ");
    }
    if (g->item < 0)
        sb_printf(b, "%s in no wrapped MPI call", g->nranks == 1 ? "was" : "were");
    else
        describe_as(b, h, &h->calls[g->item], g->rel, g->nranks > 1);
}

/* ---- the wait graph: ranks 0..n-1, then a node per collective left
 * incomplete (from each rank in it, to each member that is not) */
typedef struct edge {
    int from, to, call; /* call: the waiting call (-1 from a collective's node) */
} edge_t;

typedef struct graph {
    edge_t *e;
    int ne, cap, nnodes;
} graph_t;

static void add_edge(graph_t *gr, int from, int to, int call)
{
    if (gr->ne == gr->cap) {
        gr->cap = gr->cap ? 2 * gr->cap : 1024;
        gr->e = hang_grow(gr->e, (size_t)gr->cap, sizeof *gr->e, "the wait graph");
    }
    gr->e[gr->ne++] = (edge_t){from, to, call};
}

/* a cycle: its ranks in order (each waits for the next, the last for the
 * first) and the call each waits in */
static void say_cycle(hang_t *h, const int *ranks, const int *calls, int len)
{
    sbuf_t b = {0};
    sb_printf(&b, "Deadlock: ");
    if (len <= CYCLE_LISTED) {
        for (int i = 0; i < len; i++) {
            sb_printf(&b, "%srank %d ", i ? "; " : "", ranks[i]);
            describe(&b, h, &h->calls[calls[i]]);
        }
        sb_printf(&b, ": a cycle of %d rank%s, none of which can go on.", len, len == 1 ? "" : "s");
        say_sb(h, &b);
        return;
    }
    sb_printf(&b,
              "a cycle of %d ranks, none of which can go on: rank %d waits for rank %d, rank %d for rank %d, "
              "and so on through %d more ranks to rank %d, which waits for rank %d.",
              len, ranks[0], ranks[1], ranks[1], ranks[2], len - 4, ranks[len - 1], ranks[0]);
    /* its ranks' states, grouped */
    int *items = hang_alloc((size_t)len, sizeof *items, "a cycle");
    int *pos = hang_alloc((size_t)h->nprocs, sizeof *pos, "a cycle");
    for (int i = 0; i < len; i++) pos[ranks[i]] = i + 1;
    int k = 0;
    for (int r = 0; r < h->nprocs; r++)
        if (pos[r]) items[k++] = calls[pos[r] - 1];
    grouping_t gr;
    group_items(h, items, k, &gr);
    qsort(gr.g, (size_t)gr.ng, sizeof *gr.g, by_size);
    int shown = 0;
    for (int i = 0; i < gr.ng && i < STATES_SAID; i++) {
        sb_printf(&b, "%s", i ? "; " : " ");
        group_words(&b, h, &gr, &gr.g[i], i == 0);
        shown += gr.g[i].nranks;
    }
    if (gr.ng > STATES_SAID)
        sb_printf(&b, "; and %d more ranks in %d other states", len - shown, gr.ng - STATES_SAID);
    sb_printf(&b, ".");
    grouping_free(&gr);
    free(items), free(pos);
    say_sb(h, &b);
}

static int find_cycles(hang_t *h, graph_t *gr)
{
    int nn = gr->nnodes, ne = gr->ne, found = 0;
    /* edges by source node */
    int *first = hang_alloc((size_t)nn + 1, sizeof *first, "the wait graph"),
        *adj = hang_alloc((size_t)ne + 1, sizeof *adj, "the wait graph");
    for (int i = 0; i < ne; i++) first[gr->e[i].from + 1]++;
    for (int u = 0; u < nn; u++) first[u + 1] += first[u];
    int *fill = hang_alloc((size_t)nn + 1, sizeof *fill, "the wait graph");
    memcpy(fill, first, sizeof *fill * (size_t)nn);
    for (int i = 0; i < ne; i++) adj[fill[gr->e[i].from]++] = i;
    free(fill);
    unsigned char *color = hang_alloc((size_t)nn, 1, "the wait graph"),
                  *in_cycle = hang_alloc((size_t)nn, 1, "the wait graph");
    int *via = hang_alloc((size_t)nn, sizeof *via, "the wait graph"),
        *stack = hang_alloc((size_t)nn, sizeof *stack, "the wait graph"),
        *depth = hang_alloc((size_t)nn, sizeof *depth, "the wait graph"),
        *next = hang_alloc((size_t)nn, sizeof *next, "the wait graph"),
        *cranks = hang_alloc((size_t)nn, sizeof *cranks, "the wait graph"),
        *ccalls = hang_alloc((size_t)nn, sizeof *ccalls, "the wait graph");
    /* iterative depth-first walk: each node entered once, each edge looked at once */
    for (int s = 0; s < nn && found < MAX_CYCLES; s++) {
        if (color[s]) continue;
        int sp = 0;
        stack[sp++] = s, next[s] = first[s], color[s] = 1, depth[s] = 0;
        while (sp && found < MAX_CYCLES) {
            int u = stack[sp - 1];
            if (next[u] == first[u + 1]) {
                color[u] = 2, sp--;
                continue;
            }
            int k = adj[next[u]++], v = gr->e[k].to;
            if (v < 0 || v >= nn) continue;
            if (color[v] == 0) {
                via[v] = k, color[v] = 1, next[v] = first[v], depth[v] = sp, stack[sp++] = v;
            } else if (color[v] == 1 && !in_cycle[v]) { /* back edge: the cycle v -> ... -> u -> v */
                int len = 0;
                for (int i = depth[v]; i < sp; i++) {
                    int x = stack[i], ek = i + 1 < sp ? via[stack[i + 1]] : k;
                    in_cycle[x] = 1;
                    if (x >= h->nprocs) continue; /* a collective's node: the rank before waits in it */
                    cranks[len] = x, ccalls[len] = gr->e[ek].call, len++;
                }
                if (len) say_cycle(h, cranks, ccalls, len), found++;
            }
        }
        for (int i = 0; i < sp; i++) color[stack[i]] = 2;
    }
    free(first), free(adj), free(color), free(in_cycle), free(via), free(stack), free(depth), free(next);
    free(cranks), free(ccalls);
    return found;
}

static void fmt_wall(char *b, size_t len, double t)
{
    time_t s = (time_t)t;
    struct tm tm;
    char hms[32];
    strftime(hms, sizeof hms, "%Y-%m-%d %H:%M:%S", localtime_r(&s, &tm));
    snprintf(b, len, "%s.%03d", hms, (int)((t - (double)s) * 1000));
}

static const char *why_words(const hang_state_t *s, char *b, size_t len)
{
    if (!strcmp(s->why, "signal"))
        snprintf(b, len, "on signal %d (%s)", s->signo,
                 s->signo == 15  ? "SIGTERM"
                 : s->signo == 2 ? "SIGINT"
                                 : "?");
    else if (!strcmp(s->why, "on-demand"))
        snprintf(b, len, "on demand (SIGUSR1)");
    else if (!strcmp(s->why, "periodic"))
        snprintf(b, len, "periodically (--snapshot-period)");
    else if (!strcmp(s->why, "mapped"))
        snprintf(b, len, "from the mapped state file, as of the last call or stamp");
    else if (!strcmp(s->why, "watchdog"))
        snprintf(b, len, "by the watchdog (no MPI call returned)");
    else
        snprintf(b, len, "(%s)", s->why);
    return b;
}

/* ---- collectives some members entered and others not */
typedef struct coll_ctx {
    hang_t *h;
    int *stamp, id; /* stamp[r] == id: r entered */
    int *missing, nmissing;
} coll_ctx_t;

static void note_missing(int r, void *arg)
{
    coll_ctx_t *x = arg;
    if (x->stamp[r] != x->id) x->missing[x->nmissing++] = r, x->stamp[r] = x->id; /* once each */
}

static int by_comm_fn(const void *a, const void *b)
{
    const hang_call_t *x = &cmp_calls[*(const int *)a], *y = &cmp_calls[*(const int *)b];
    int d = strcmp(x->comm, y->comm);
    if (!d) d = strcmp(x->fn, y->fn);
    return d ? d : x->rank - y->rank;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

static void collectives(hang_t *h, graph_t *gr, int *nsaid)
{
    int n = h->nprocs, nc = 0;
    int *order = hang_alloc((size_t)h->ncalls + 1, sizeof *order, "the collectives");
    for (int i = 0; i < h->ncalls; i++)
        if (is_coll(&h->calls[i])) order[nc++] = i;
    cmp_calls = h->calls;
    qsort(order, (size_t)nc, sizeof *order, by_comm_fn);
    coll_ctx_t x = {h, hang_alloc((size_t)n, sizeof *x.stamp, "the collectives"), 0,
                    hang_alloc((size_t)n, sizeof *x.missing, "the collectives"), 0};
    int *in = hang_alloc((size_t)n, sizeof *in, "the collectives"), more = 0;
    for (int a = 0; a < nc;) {
        /* the calls of one communicator: [a, c); another call than the first's on it: a mismatch */
        int c = a, other_call = 0;
        const hang_call_t *first = &h->calls[order[a]];
        for (; c < nc && !strcmp(h->calls[order[c]].comm, first->comm); c++)
            other_call |= strcmp(h->calls[order[c]].fn, first->fn) != 0;
        for (int sub = a; sub < c;) { /* each call on this communicator */
            int end = sub;
            const hang_call_t *cc = &h->calls[order[sub]];
            while (end < c && !strcmp(h->calls[order[end]].fn, cc->fn)) end++;
            x.id++;
            int nin = 0;
            for (int i = sub; i < end; i++)
                if (x.stamp[h->calls[order[i]].rank] != x.id)
                    x.stamp[h->calls[order[i]].rank] = x.id, in[nin++] = h->calls[order[i]].rank;
            int fin = !strcmp(cc->kind, "finalize");
            if (!fin && (!cc->members[0] || !strcmp(cc->comm, "?"))) {
                if ((*nsaid)++ < FINDINGS_EACH)
                    say(h,
                        "%s at %s: on a communicator the tool does not know (made by a call it does not "
                        "wrap), "
                        "so which ranks should have entered it could not be checked.",
                        cc->fn, cc->label);
                else
                    more++;
                sub = end;
                continue;
            }
            x.nmissing = 0;
            int nm = fin ? n : 0;
            if (fin)
                for (int r = 0; r < n; r++) note_missing(r, &x);
            else
                nm = each_member(cc->members, n, note_missing, &x);
            if (!x.nmissing || nin >= nm) {
                sub = end;
                continue;
            }
            /* the graph: each rank in it waits for the node, the node for each missing rank */
            int node = gr->nnodes++;
            for (int i = sub; i < end; i++) add_edge(gr, h->calls[order[i]].rank, node, order[i]);
            for (int i = 0; i < x.nmissing; i++) add_edge(gr, node, x.missing[i], -1);
            if ((*nsaid)++ >= FINDINGS_EACH) {
                more++;
                sub = end;
                continue;
            }
            /* the members: the entered and the missing, ascending */
            qsort(in, (size_t)nin, sizeof *in, by_int);
            qsort(x.missing, (size_t)x.nmissing, sizeof *x.missing, by_int);
            int nall = nin + x.nmissing;
            int *all = hang_alloc((size_t)nall, sizeof *all, "the collectives");
            for (int i = 0, j = 0, k = 0; k < nall; k++)
                all[k] = j >= x.nmissing || (i < nin && in[i] < x.missing[j]) ? in[i++] : x.missing[j++];
            sbuf_t s = {0};
            sb_printf(&s, "%s on %s of ranks ", cc->fn,
                      !strcmp(cc->comm, "world") ? "MPI_COMM_WORLD" : "a communicator");
            rank_list(&s, all, nall);
            sb_printf(&s, " (at %s): entered by rank%s ", cc->label, nin == 1 ? "" : "s");
            rank_list(&s, in, nin);
            sb_printf(&s, ", not by ");
            for (int i = 0; i < x.nmissing && i < 8; i++) {
                sb_printf(&s, "%srank %d, ", i ? "; nor by " : "", x.missing[i]);
                state_of(&s, h, x.missing[i]);
            }
            if (x.nmissing > 8) sb_printf(&s, "; and %d more", x.nmissing - 8);
            sb_printf(&s, ".%s",
                      other_call ? " Some members are in another collective on the same communicator: a "
                                   "mismatched order of collectives."
                                 : "");
            say_sb(h, &s);
            free(all);
            sub = end;
        }
        a = c;
    }
    if (more)
        say(h,
            "And %d more collectives on other communicators are left incomplete or unchecked the same way.",
            more);
    free(order), free(x.stamp), free(x.missing), free(in);
}

/* ---- receives that wait while messages from that peer were sent and not received */
static void mismatches(hang_t *h)
{
    int n = h->nprocs, said = 0, more = 0;
    for (int k = 0; k < h->ncalls; k++) {
        const hang_call_t *c = &h->calls[h->by_rank[k]];
        if (sends(c) || is_coll(c) || c->any_source || c->peer < 0 || c->peer >= n) continue;
        int r = c->rank, p = c->peer;
        if (!h->st[p].present || !h->has_t[p]) continue;
        const hang_pair_t *pr = pair_get(h->pairs, p, r, 0);
        if (!pr || pr->mixed || pr->sent <= pr->got) continue;
        long long sent = pr->sent, got = pr->got;
        if (said++ >= FINDINGS_EACH) {
            more++;
            continue;
        }
        char tag[48], unexp[160] = "";
        if (c->any_tag)
            snprintf(tag, sizeof tag, "any tag");
        else
            snprintf(tag, sizeof tag, "tag %d", c->tag);
        if (h->unexpected[r] > 0)
            snprintf(unexp, sizeof unexp, " Its unexpected queue held %g message%s at the last sample.",
                     h->unexpected[r], h->unexpected[r] == 1 ? "" : "s");
        say(h,
            "Rank %d waits in %s for %s from rank %d at %s, while %lld message%s rank %d sent it %s not been "
            "received: a tag or communicator mismatch is likely (this MPI does not give its unexpected queue "
            "by "
            "sender and tag, so the tags of the waiting messages could not be checked).%s",
            r, c->fn, tag, p, c->label, sent - got, sent - got == 1 ? "" : "s", p,
            sent - got == 1 ? "has" : "have", unexp);
    }
    if (more)
        say(h,
            "And %d more receives wait for a peer whose messages to them were sent and not received "
            "(report.json "
            "has every rank's call).",
            more);
}

/* ---- where each rank was: a line per state, the largest first */
static void where(hang_t *h)
{
    int n = h->nprocs, k = 0;
    int *items = hang_alloc((size_t)h->ncalls + (size_t)n + 1, sizeof *items, "where each rank was");
    for (int r = 0; r < n; r++) {
        if (!h->st[r].present) continue;
        if (h->rank_first[r] == h->rank_first[r + 1]) items[k++] = -1 - r;
        for (int i = h->rank_first[r]; i < h->rank_first[r + 1]; i++) items[k++] = h->by_rank[i];
    }
    grouping_t gr;
    group_items(h, items, k, &gr);
    /* ages and when, per group: lowest and highest of each */
    double *lo = hang_alloc((size_t)gr.ng + 1, 4 * sizeof *lo, "where each rank was");
    unsigned char *seen = hang_alloc((size_t)gr.ng + 1, 1, "where each rank was");
    for (int i = 0; i < k; i++) {
        double *x = lo + 4 * gr.of[i], age = items[i] >= 0 ? h->calls[items[i]].age : 0,
               wall = h->st[item_rank(h, items[i])].wall;
        if (!seen[gr.of[i]]) x[0] = x[1] = age, x[2] = x[3] = wall, seen[gr.of[i]] = 1;
        if (age < x[0]) x[0] = age;
        if (age > x[1]) x[1] = age;
        if (wall < x[2]) x[2] = wall;
        if (wall > x[3]) x[3] = wall;
    }
    free(seen);
    qsort(gr.g, (size_t)gr.ng, sizeof *gr.g, by_size);
    int shown = 0;
    for (int i = 0; i < gr.ng && i < WHERE_LINES; i++) {
        const group_t *g = &gr.g[i];
        const double *x = lo + 4 * g->id;
        const int *m = gr.members + g->first;
        char when[64], until[64], why[64];
        sbuf_t b = {0};
        group_words(&b, h, &gr, g, 1);
        fmt_wall(when, sizeof when, x[2]);
        fmt_wall(until, sizeof until, x[3]);
        if (g->nranks == 1) {
            why_words(&h->st[m[0]], why, sizeof why);
            if (g->item >= 0)
                sb_printf(&b, ", for %.3g s (state taken %s, %s).", x[0], why, when);
            else
                sb_printf(&b, " (state taken %s, %s).", why, when);
        } else {
            /* why the states were taken: the same for all, or how many each way */
            int same = 1;
            for (int j = 1; j < g->nranks && same; j++)
                same = !strcmp(h->st[m[j]].why, h->st[m[0]].why) && h->st[m[j]].signo == h->st[m[0]].signo;
            /* a range, or one value when its ends read the same */
            char a0[32], a1[32];
            snprintf(a0, sizeof a0, "%.3g", x[0]);
            snprintf(a1, sizeof a1, "%.3g", x[1]);
            if (g->item >= 0 && strcmp(a0, a1))
                sb_printf(&b, ", for %s to %s s", a0, a1);
            else if (g->item >= 0)
                sb_printf(&b, ", for %s s", a0);
            sb_printf(&b, " (states taken %s, %s%s%s).",
                      same ? why_words(&h->st[m[0]], why, sizeof why) : "for several reasons", when,
                      strcmp(when, until) ? " to " : "", strcmp(when, until) ? until : "");
        }
        say_sb(h, &b);
        shown += g->nranks;
    }
    if (gr.ng > WHERE_LINES)
        say(h, "And %d more ranks in %d other states (report.json has every rank's calls).", k - shown,
            gr.ng - WHERE_LINES);
    grouping_free(&gr);
    free(items), free(lo);
}

void hang_finish(hang_t *h)
{
    int n = h->nprocs, present = 0;
    name_sites(h);
    index_by_rank(h);
    for (int r = 0; r < n; r++) present += h->st[r].present;
    if (present < n) {
        int *gone = hang_alloc((size_t)(n - present), sizeof *gone, "the ranks with no state"), k = 0;
        for (int r = 0; r < n; r++)
            if (!h->st[r].present) gone[k++] = r;
        sbuf_t b = {0};
        sb_printf(&b, "%d of %d ranks left no state: rank%s ", n - present, n, n - present == 1 ? "" : "s");
        rank_list(&b, gone, k);
        sb_printf(&b, " (killed before writing it, or snapshots off there); what they did is unknown.");
        say_sb(h, &b);
        free(gone);
    }

    /* the edges: point-to-point waits, then the collectives left incomplete */
    graph_t gr = {0};
    gr.nnodes = n;
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        if (waits_for_peer(c) && c->peer < n) add_edge(&gr, c->rank, c->peer, i);
    }
    int nsaid = 0;
    collectives(h, &gr, &nsaid);
    find_cycles(h, &gr);
    free(gr.e);
    mismatches(h);
    h->nfindings = h->nlines;
    where(h);
}

int hang_write_text(FILE *out, const hang_t *h)
{
    fputs("Why the run did not end\n", out);
    if (!h->nfindings)
        fputs("  No deadlock, incomplete collective or waiting mismatch found in the states.\n", out);
    for (int i = 0; i < h->nlines; i++) {
        if (i == h->nfindings) fputs("Where each rank was\n", out);
        fprintf(out, "  %s\n", h->lines[i]);
    }
    fputs("\n", out);
    return ferror(out) ? -1 : 0;
}

int hang_write_html(FILE *out, const hang_t *h)
{
    fputs("<h2 id=\"hang\">Why the run did not end</h2>\n", out);
    if (!h->nfindings)
        fputs("<p>No deadlock, incomplete collective or waiting mismatch found in the states.</p>\n", out);
    if (h->nfindings) fputs("<ul class=\"findings\">\n", out);
    for (int i = 0; i < h->nfindings; i++)
        fputs("<li>", out), report_xml_str(out, h->lines[i]), fputs("</li>\n", out);
    if (h->nfindings) fputs("</ul>\n", out);
    fputs("<h3>Where each rank was</h3>\n<ul>\n", out);
    for (int i = h->nfindings; i < h->nlines; i++)
        fputs("<li>", out), report_xml_str(out, h->lines[i]), fputs("</li>\n", out);
    fputs("</ul>\n", out);
    return ferror(out) ? -1 : 0;
}

/* report.json: every rank's state and every call, as columns (one array
 * per field, an entry per rank or call: compact at any size); a call's
 * site is an index into "sites" */
static int put(json_t *o, const char *key, json_t *v) { return !v || json_object_set_new(o, key, v); }

int hang_json(json_t *obj, const hang_t *h)
{
    int bad = 0;
    json_t *o = json_object(), *find = json_array(), *where = json_array(), *missing = json_array();
    json_t *st = json_object(), *s_rank = json_array(), *s_why = json_array(), *s_sig = json_array(),
           *s_time = json_array(), *s_seq = json_array(), *s_el = json_array(), *s_took = json_array();
    json_t *calls = json_object(), *c_rank = json_array(), *c_call = json_array(), *c_site = json_array(),
           *c_sec = json_array(), *c_comm = json_array(), *c_peer = json_array(), *c_tag = json_array(),
           *sites = json_array(), *site_ix = json_object();
    if (!o || !find || !where || !missing || !st || !s_rank || !s_why || !s_sig || !s_time || !s_seq ||
        !s_el || !s_took || !calls || !c_rank || !c_call || !c_site || !c_sec || !c_comm || !c_peer ||
        !c_tag || !sites || !site_ix)
        bad = 1;
    for (int r = 0; !bad && r < h->nprocs; r++) {
        const hang_state_t *s = &h->st[r];
        if (!s->present) {
            bad |= json_array_append_new(missing, json_integer(r));
            continue;
        }
        bad |= json_array_append_new(s_rank, json_integer(r));
        bad |= json_array_append_new(s_why, json_string(s->why));
        bad |= json_array_append_new(s_sig, json_integer(s->signo));
        bad |= json_array_append_new(s_time, json_real(s->wall));
        bad |= json_array_append_new(s_seq, json_integer(s->seq));
        bad |= json_array_append_new(s_el, json_real(s->elapsed));
        bad |= json_array_append_new(s_took, json_real(s->took));
    }
    for (int k = 0; !bad && k < h->ncalls; k++) {
        const hang_call_t *c = &h->calls[h->by_rank ? h->by_rank[k] : k];
        json_t *ix = json_object_get(site_ix, c->label);
        if (!ix) {
            ix = json_integer((json_int_t)json_array_size(sites));
            bad |= json_array_append_new(sites, json_string(c->label)) ||
                   json_object_set_new(site_ix, c->label, ix);
        }
        bad |= json_array_append_new(c_rank, json_integer(c->rank));
        bad |= json_array_append_new(c_call, json_string(c->fn));
        bad |= json_array_append(c_site, ix);
        bad |= json_array_append_new(c_sec, json_real(c->age));
        bad |= json_array_append_new(c_comm, json_string(c->comm));
        bad |= json_array_append_new(c_peer, c->any_source  ? json_string("any")
                                             : c->peer >= 0 ? json_integer(c->peer)
                                                            : json_null());
        bad |= json_array_append_new(c_tag, c->any_tag   ? json_string("any")
                                            : c->has_tag ? json_integer(c->tag)
                                                         : json_null());
    }
    json_decref(site_ix);
    for (int i = 0; !bad && i < h->nlines; i++)
        bad |= json_array_append_new(i < h->nfindings ? find : where, json_string(h->lines[i]));
    bad |= put(st, "rank", s_rank) | put(st, "why", s_why) | put(st, "signal", s_sig) |
           put(st, "time", s_time) | put(st, "seq", s_seq) | put(st, "elapsed_s", s_el) |
           put(st, "write_s", s_took);
    bad |= put(calls, "rank", c_rank) | put(calls, "call", c_call) | put(calls, "site", c_site) |
           put(calls, "seconds", c_sec) | put(calls, "comm", c_comm) | put(calls, "peer", c_peer) |
           put(calls, "tag", c_tag);
    bad |= put(o, "ranks_missing", missing) | put(o, "states", st) | put(o, "sites", sites) |
           put(o, "calls", calls) | put(o, "findings", find) | put(o, "where", where);
    return bad || json_object_set_new(obj, "hang", o) ? -1 : 0;
}
