/*
 * papi-mpit-report: why a run hangs (report_hang.h): a rank's state in
 * words, the sites named, and the ranks in the same state grouped into one
 * sentence: the same call, site, tag and communicator, waiting for a peer
 * at the same distance ("their left neighbour") or for the same rank.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_hang.h"
#include "hang_private.h"
#include "site_job.h"

#define RANGES_SAID 12 /* ranges of a list of ranks, then how many more */

/* ---- sentences */
void hang_say_sb(hang_t *h, sbuf_t *b)
{
    if (h->nlines == h->cap_lines) {
        int cap = h->cap_lines ? 2 * h->cap_lines : 16;
        h->lines = hang_grow(h->lines, (size_t)cap, sizeof *h->lines, "the sentences");
        h->cap_lines = cap;
    }
    h->lines[h->nlines++] = b->s ? b->s : hang_strdup("", "the sentences");
    memset(b, 0, sizeof *b);
}

void hang_say(hang_t *h, const char *fmt, ...)
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
    hang_say_sb(h, &b);
}

/* "0, 2 and 5", "0-3", or "0, 4, 8 ... and 1021 more": ranks ascending,
 * never cut (at most RANGES_SAID ranges, then how many more ranks) */
void hang_rank_list(sbuf_t *b, const int *ranks, int k)
{
    int ranges = 0, done = 0;
    for (int i = 0; i < k;) {
        int e = i;
        while (e + 1 < k && ranks[e + 1] == ranks[e] + 1) e++;
        if (ranges == RANGES_SAID) {
            hang_sb_printf(b, " and %d more", k - done);
            return;
        }
        const char *sep = ranges == 0 ? "" : e + 1 == k ? " and " : ", ";
        if (e == i)
            hang_sb_printf(b, "%s%d", sep, ranks[i]);
        else
            hang_sb_printf(b, "%s%d-%d", sep, ranks[i], ranks[e]);
        ranges++, done += e - i + 1;
        i = e + 1;
    }
}

/* the members "0-3,6" of a communicator: calls each(rank, arg); their count */
int hang_each_member(const char *s, int n, void (*each)(int r, void *arg), void *arg)
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
int hang_is_coll(const hang_call_t *c)
{
    return !strcmp(c->kind, "coll") || !strcmp(c->kind, "finalize") || !strcmp(c->kind, "comm") ||
           !strcmp(c->kind, "comm_free");
}
int hang_waits_for_peer(const hang_call_t *c) { return !hang_is_coll(c) && c->peer >= 0 && !c->any_source; }
int hang_sends(const hang_call_t *c) { return !strcmp(c->kind, "send"); }

/* whom a call waits for, as words */
static void peer_words(sbuf_t *b, const hang_t *h, rel_t rel)
{
    int n = h->nprocs, d = rel.val;
    if (rel.kind == REL_RANK)
        hang_sb_printf(b, "rank %d", d);
    else if (n == 2)
        hang_sb_printf(b, "the other rank");
    else if (d == n - 1)
        hang_sb_printf(b, "their left neighbour");
    else if (d == 1)
        hang_sb_printf(b, "their right neighbour");
    else if (d <= n / 2)
        hang_sb_printf(b, "the rank %d above each", d);
    else
        hang_sb_printf(b, "the rank %d below each", n - d);
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
        hang_sb_printf(b, "%s in MPI_Finalize (the tool's collection waits for every rank there)", is);
    else if (hang_is_coll(c) && c->peer >= 0)
        hang_sb_printf(b, "%s in %s (root %d) at %s", waits, c->fn, c->peer, c->label);
    else if (hang_is_coll(c))
        hang_sb_printf(b, "%s in %s at %s", waits, c->fn, c->label);
    else if (c->any_source)
        hang_sb_printf(b, "%s in %s from any rank%s at %s", waits, c->fn, tag, c->label);
    else if (c->peer >= 0) {
        hang_sb_printf(b, "%s in %s %s ", waits, c->fn, hang_sends(c) ? "to" : "from");
        peer_words(b, h, rel.kind == REL_DIST ? rel : (rel_t){REL_RANK, c->peer});
        hang_sb_printf(b, "%s at %s", tag, c->label);
    } else
        hang_sb_printf(b, "%s in %s at %s", is, c->fn, c->label);
}

void hang_describe(sbuf_t *b, const hang_t *h, const hang_call_t *c)
{
    describe_as(b, h, c, (rel_t){REL_RANK, c->peer}, 0);
}

static int first_call(const hang_t *h, int r)
{
    return h->rank_first[r] < h->rank_first[r + 1] ? h->by_rank[h->rank_first[r]] : -1;
}

void hang_state_of(sbuf_t *b, const hang_t *h, int r)
{
    int c = r >= 0 && r < h->nprocs ? first_call(h, r) : -1;
    if (r < 0 || r >= h->nprocs || !h->st[r].present)
        hang_sb_printf(b, "whose state is missing");
    else if (c >= 0) {
        hang_sb_printf(b, "which ");
        hang_describe(b, h, &h->calls[c]);
    } else
        hang_sb_printf(
            b, "which is in no wrapped MPI call (it computes, or is in a call the tool does not wrap)");
}

/* the calls by rank, in rank order (a counting sort) */
void hang_index_by_rank(hang_t *h)
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
const hang_call_t *hang_cmp_calls;
static int by_site(const void *a, const void *b)
{
    const hang_call_t *x = &hang_cmp_calls[*(const int *)a], *y = &hang_cmp_calls[*(const int *)b];
    int m = strcmp(x->module, y->module);
    return m ? m : x->off < y->off ? -1 : x->off > y->off;
}

void hang_name_sites(hang_t *h)
{
    int *order = hang_alloc((size_t)h->ncalls + 1, sizeof *order, "the sites");
    for (int i = 0; i < h->ncalls; i++) order[i] = i;
    hang_cmp_calls = h->calls;
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
int hang_item_rank(const hang_t *h, int item) { return item >= 0 ? h->calls[item].rank : -1 - item; }

static rel_t rel_of(const hang_t *h, int item, int by_distance)
{
    if (item < 0) return (rel_t){REL_NOCALL, 0};
    const hang_call_t *c = &h->calls[item];
    if (c->peer < 0 || (c->any_source && !hang_is_coll(c))) return (rel_t){REL_NONE, 0};
    if (hang_is_coll(c) || !by_distance || c->peer >= h->nprocs) return (rel_t){REL_RANK, c->peer};
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
void hang_group_items(const hang_t *h, const int *items, int k, grouping_t *out)
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
            if (x->last_rank != hang_item_rank(h, items[i]))
                x->nranks++, x->last_rank = hang_item_rank(h, items[i]);
        }
    }
    int total = 0;
    for (int i = 0; i < ng; i++)
        g[i].first = total, total += g[i].nranks, g[i].last_rank = -1, g[i].nranks = 0;
    int *members = hang_alloc((size_t)total + 1, sizeof *members, "the states' groups");
    for (int i = 0; i < k; i++) {
        group_t *x = &g[of[i]];
        int r = hang_item_rank(h, items[i]);
        if (x->last_rank != r) members[x->first + x->nranks++] = r, x->last_rank = r;
    }
    free(slot), free(rel);
    *out = (grouping_t){g, ng, members, of};
}

int hang_by_size(const void *a, const void *b)
{
    const group_t *x = a, *y = b;
    if (x->nranks != y->nranks) return x->nranks > y->nranks ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

void hang_grouping_free(grouping_t *g) { free(g->g), free(g->members), free(g->of); }

/* "rank 3 waits in ..." or "4095 ranks (1-4095) wait in ..." */
void hang_group_words(sbuf_t *b, const hang_t *h, const grouping_t *gr, const group_t *g, int capital)
{
    const int *m = gr->members + g->first;
    if (g->nranks == 1)
        hang_sb_printf(b, "%s %d ", capital ? "Rank" : "rank", m[0]);
    else {
        hang_sb_printf(b, "%d ranks (", g->nranks);
        hang_rank_list(b, m, g->nranks);
        hang_sb_printf(b, ") ");
    }
    if (g->item < 0)
        hang_sb_printf(b, "%s in no wrapped MPI call", g->nranks == 1 ? "was" : "were");
    else
        describe_as(b, h, &h->calls[g->item], g->rel, g->nranks > 1);
}
