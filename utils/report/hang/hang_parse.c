/*
 * papi-mpit-report: why a run hangs (report_hang.h): the ranks' snapshots
 * read (the calls in progress, the states, the point-to-point counts by
 * sender and receiver).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_hang.h"
#include "hang_private.h"
#include "site_fn.h"

/* ---- point-to-point counts by (sender, receiver): open addressing */
struct hang_pairs {
    hang_pair_t *slot;
    size_t n, cap;
};

static uint64_t pair_key(int s, int r) { return ((uint64_t)(uint32_t)s << 32 | (uint32_t)r) + 1; }
static size_t pair_hash(uint64_t k, size_t cap)
{
    return (size_t)((k * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

hang_pair_t *hang_pair_get(struct hang_pairs *p, int s, int r, int create)
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
            hang_pair_get(h->pairs, rank, peer, 1)->sent += atoll(q[1]);
        else if (what == 'R')
            hang_pair_get(h->pairs, peer, rank, 1)->got += atoll(q[1]);
        else
            hang_pair_get(h->pairs, peer, rank, 1)->mixed = 1;
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
