/*
 * papi-mpit-report: why a run hangs (report_hang.h): the wait graph and its
 * cycles, found by one iterative depth-first walk (linear in ranks and
 * edges, no recursion).  A cycle is a deadlock once it is settled: every
 * call in it waited SETTLED_S or longer when the states were taken.  A
 * younger one is said as a cycle of waits: ranks that exchange messages
 * (a ring of MPI_Sendrecv, each receiving from its left neighbour) are
 * each seen for a moment waiting for the next, states taken at that moment
 * (a job killed mid-exchange, a live job merged) show a cycle, and the
 * messages that end the waits may already be on their way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_hang.h"
#include "hang_private.h"

#define MAX_CYCLES   5 /* cycles named */
#define CYCLE_LISTED 8 /* a cycle up to this long is said member by member */
#define STATES_SAID  6 /* states in a cycle's sentence, then how many more */
/* Seconds every wait of a cycle must have lasted for it to be called a
 * deadlock.  A message between ranks that are all inside their calls is
 * delivered in microseconds to milliseconds, and in far less than this
 * even on a loaded machine where a rank waits its turn for a core; a real
 * deadlock that a launcher, a time limit or a user ends has waited far
 * longer.  (A --watchdog shorter than this writes its states before a
 * cycle can be settled; a mapped state's ages run to the rank's last
 * stamp, at most a second old.) */
#define SETTLED_S    0.5

/* ---- the wait graph: ranks 0..n-1, then a node per collective left
 * incomplete (from each rank in it, to each member that is not) */
void hang_add_edge(graph_t *gr, int from, int to, int call)
{
    if (gr->ne == gr->cap) {
        gr->cap = gr->cap ? 2 * gr->cap : 1024;
        gr->e = hang_grow(gr->e, (size_t)gr->cap, sizeof *gr->e, "the wait graph");
    }
    gr->e[gr->ne++] = (edge_t){from, to, call};
}

/* a cycle: its ranks in order (each waits for the next, the last for the
 * first) and the call each waits in; a deadlock when settled */
static void say_cycle(hang_t *h, const int *ranks, const int *calls, int len)
{
    double youngest = h->calls[calls[0]].age;
    for (int i = 1; i < len; i++)
        if (h->calls[calls[i]].age < youngest) youngest = h->calls[calls[i]].age;
    int settled = youngest >= SETTLED_S;
    char what[160]; /* what the cycle means */
    if (settled)
        snprintf(what, sizeof what, "none of which can go on");
    else
        snprintf(what, sizeof what,
                 "which may still have been exchanging messages (a deadlock is said once every wait in the "
                 "cycle is %g s old)",
                 SETTLED_S);
    sbuf_t b = {0};
    if (settled)
        hang_sb_printf(&b, "Deadlock: ");
    else
        hang_sb_printf(&b,
                       "Waits in a cycle, the shortest %.3f s old when the states were taken: ", youngest);
    if (len <= CYCLE_LISTED) {
        for (int i = 0; i < len; i++) {
            hang_sb_printf(&b, "%srank %d ", i ? "; " : "", ranks[i]);
            hang_describe(&b, h, &h->calls[calls[i]]);
        }
        hang_sb_printf(&b, ": a cycle of %d rank%s, %s.", len, len == 1 ? "" : "s", what);
        hang_say_sb(h, &b);
        return;
    }
    hang_sb_printf(&b,
                   "a cycle of %d ranks, %s: rank %d waits for rank %d, rank %d for rank %d, "
                   "and so on through %d more ranks to rank %d, which waits for rank %d.",
                   len, what, ranks[0], ranks[1], ranks[1], ranks[2], len - 4, ranks[len - 1], ranks[0]);
    /* its ranks' states, grouped */
    int *items = hang_alloc((size_t)len, sizeof *items, "a cycle");
    int *pos = hang_alloc((size_t)h->nprocs, sizeof *pos, "a cycle");
    for (int i = 0; i < len; i++) pos[ranks[i]] = i + 1;
    int k = 0;
    for (int r = 0; r < h->nprocs; r++)
        if (pos[r]) items[k++] = calls[pos[r] - 1];
    grouping_t gr;
    hang_group_items(h, items, k, &gr);
    qsort(gr.g, (size_t)gr.ng, sizeof *gr.g, hang_by_size);
    int shown = 0;
    for (int i = 0; i < gr.ng && i < STATES_SAID; i++) {
        hang_sb_printf(&b, "%s", i ? "; " : " ");
        hang_group_words(&b, h, &gr, &gr.g[i], i == 0);
        shown += gr.g[i].nranks;
    }
    if (gr.ng > STATES_SAID)
        hang_sb_printf(&b, "; and %d more ranks in %d other states", len - shown, gr.ng - STATES_SAID);
    hang_sb_printf(&b, ".");
    hang_grouping_free(&gr);
    free(items), free(pos);
    hang_say_sb(h, &b);
}

int hang_find_cycles(hang_t *h, graph_t *gr)
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
