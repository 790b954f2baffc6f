/*
 * papi-mpit-report: why a run hangs (report_hang.h): the findings.
 *
 * The wait graph: an edge from rank r to rank p when a thread of r waits
 * in a point-to-point call for p (a receive, probe or completion from p, a
 * blocking send to p), and from r to every member of a communicator that
 * has not entered the collective r waits in (MPI_Finalize counts as a
 * collective of MPI_COMM_WORLD: the tool's collection waits there).  A
 * cycle is a deadlock once every wait in it is old enough (hang_cycles.c).
 * The messages in flight come from the wrappers' counts: what s's sends
 * to r were (posted, for nonblocking ones) against what r's receive sites
 * got from s; no MPI here gives its unexpected queue by sender and tag at
 * a moment, so a mismatch is said as likely, with what could not be
 * checked.
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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_hang.h"
#include "hang_private.h"

#define WHERE_LINES   16 /* lines of "where each rank was", then how many more */
#define FINDINGS_EACH 8  /* collectives or mismatches said one by one, then how many more */

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
    const hang_call_t *x = &hang_cmp_calls[*(const int *)a], *y = &hang_cmp_calls[*(const int *)b];
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
        if (hang_is_coll(&h->calls[i])) order[nc++] = i;
    hang_cmp_calls = h->calls;
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
                    hang_say(h,
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
                nm = hang_each_member(cc->members, n, note_missing, &x);
            if (!x.nmissing || nin >= nm) {
                sub = end;
                continue;
            }
            /* the graph: each rank in it waits for the node, the node for each missing rank */
            int node = gr->nnodes++;
            for (int i = sub; i < end; i++) hang_add_edge(gr, h->calls[order[i]].rank, node, order[i]);
            for (int i = 0; i < x.nmissing; i++) hang_add_edge(gr, node, x.missing[i], -1);
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
            hang_sb_printf(&s, "%s on %s of ranks ", cc->fn,
                           !strcmp(cc->comm, "world") ? "MPI_COMM_WORLD" : "a communicator");
            hang_rank_list(&s, all, nall);
            hang_sb_printf(&s, " (at %s): entered by rank%s ", cc->label, nin == 1 ? "" : "s");
            hang_rank_list(&s, in, nin);
            hang_sb_printf(&s, ", not by ");
            for (int i = 0; i < x.nmissing && i < 8; i++) {
                hang_sb_printf(&s, "%srank %d, ", i ? "; nor by " : "", x.missing[i]);
                hang_state_of(&s, h, x.missing[i]);
            }
            if (x.nmissing > 8) hang_sb_printf(&s, "; and %d more", x.nmissing - 8);
            hang_sb_printf(&s, ".%s",
                           other_call ? " Some members are in another collective on the same communicator: a "
                                        "mismatched order of collectives."
                                      : "");
            hang_say_sb(h, &s);
            free(all);
            sub = end;
        }
        a = c;
    }
    if (more)
        hang_say(
            h,
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
        if (hang_sends(c) || hang_is_coll(c) || c->any_source || c->peer < 0 || c->peer >= n) continue;
        int r = c->rank, p = c->peer;
        if (!h->st[p].present || !h->has_t[p]) continue;
        const hang_pair_t *pr = hang_pair_get(h->pairs, p, r, 0);
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
        hang_say(
            h,
            "Rank %d waits in %s for %s from rank %d at %s, while %lld message%s rank %d sent it %s not been "
            "received: a tag or communicator mismatch is likely (this MPI does not give its unexpected queue "
            "by "
            "sender and tag, so the tags of the waiting messages could not be checked).%s",
            r, c->fn, tag, p, c->label, sent - got, sent - got == 1 ? "" : "s", p,
            sent - got == 1 ? "has" : "have", unexp);
    }
    if (more)
        hang_say(h,
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
    hang_group_items(h, items, k, &gr);
    /* ages and when, per group: lowest and highest of each */
    double *lo = hang_alloc((size_t)gr.ng + 1, 4 * sizeof *lo, "where each rank was");
    unsigned char *seen = hang_alloc((size_t)gr.ng + 1, 1, "where each rank was");
    for (int i = 0; i < k; i++) {
        double *x = lo + 4 * gr.of[i], age = items[i] >= 0 ? h->calls[items[i]].age : 0,
               wall = h->st[hang_item_rank(h, items[i])].wall;
        if (!seen[gr.of[i]]) x[0] = x[1] = age, x[2] = x[3] = wall, seen[gr.of[i]] = 1;
        if (age < x[0]) x[0] = age;
        if (age > x[1]) x[1] = age;
        if (wall < x[2]) x[2] = wall;
        if (wall > x[3]) x[3] = wall;
    }
    free(seen);
    qsort(gr.g, (size_t)gr.ng, sizeof *gr.g, hang_by_size);
    int shown = 0;
    for (int i = 0; i < gr.ng && i < WHERE_LINES; i++) {
        const group_t *g = &gr.g[i];
        const double *x = lo + 4 * g->id;
        const int *m = gr.members + g->first;
        char when[64], until[64], why[64];
        sbuf_t b = {0};
        hang_group_words(&b, h, &gr, g, 1);
        fmt_wall(when, sizeof when, x[2]);
        fmt_wall(until, sizeof until, x[3]);
        if (g->nranks == 1) {
            why_words(&h->st[m[0]], why, sizeof why);
            if (g->item >= 0)
                hang_sb_printf(&b, ", for %.3g s (state taken %s, %s).", x[0], why, when);
            else
                hang_sb_printf(&b, " (state taken %s, %s).", why, when);
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
                hang_sb_printf(&b, ", for %s to %s s", a0, a1);
            else if (g->item >= 0)
                hang_sb_printf(&b, ", for %s s", a0);
            hang_sb_printf(&b, " (states taken %s, %s%s%s).",
                           same ? why_words(&h->st[m[0]], why, sizeof why) : "for several reasons", when,
                           strcmp(when, until) ? " to " : "", strcmp(when, until) ? until : "");
        }
        hang_say_sb(h, &b);
        shown += g->nranks;
    }
    if (gr.ng > WHERE_LINES)
        hang_say(h, "And %d more ranks in %d other states (report.json has every rank's calls).", k - shown,
                 gr.ng - WHERE_LINES);
    hang_grouping_free(&gr);
    free(items), free(lo);
}

void hang_finish(hang_t *h)
{
    int n = h->nprocs, present = 0;
    hang_name_sites(h);
    hang_index_by_rank(h);
    for (int r = 0; r < n; r++) present += h->st[r].present;
    if (present < n) {
        int *gone = hang_alloc((size_t)(n - present), sizeof *gone, "the ranks with no state"), k = 0;
        for (int r = 0; r < n; r++)
            if (!h->st[r].present) gone[k++] = r;
        sbuf_t b = {0};
        hang_sb_printf(&b, "%d of %d ranks left no state: rank%s ", n - present, n,
                       n - present == 1 ? "" : "s");
        hang_rank_list(&b, gone, k);
        hang_sb_printf(&b, " (killed before writing it, or snapshots off there); what they did is unknown.");
        hang_say_sb(h, &b);
        free(gone);
    }

    /* the edges: point-to-point waits, then the collectives left incomplete */
    graph_t gr = {0};
    gr.nnodes = n;
    for (int i = 0; i < h->ncalls; i++) {
        const hang_call_t *c = &h->calls[i];
        if (hang_waits_for_peer(c) && c->peer < n) hang_add_edge(&gr, c->rank, c->peer, i);
    }
    int nsaid = 0;
    collectives(h, &gr, &nsaid);
    hang_find_cycles(h, &gr);
    free(gr.e);
    mismatches(h);
    h->nfindings = h->nlines;
    where(h);
}
