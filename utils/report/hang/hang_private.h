/*
 * papi-mpit-report: what the files of why a run hangs share among
 * themselves (report_hang.h is their face to papi-mpit-merge).  Arrows:
 * hang_findings.c -> hang_cycles.c -> hang_sentences.c -> hang_alloc.c;
 * hang_parse.c reads the snapshots, hang_write.c writes the result.
 */
#ifndef PAPI_MPIT_HANG_PRIVATE_H
#define PAPI_MPIT_HANG_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "report_hang.h"

/* text of any length (hang_alloc.c) */
typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf_t;

/* point-to-point counts of one (sender, receiver) pair (hang_parse.c) */
typedef struct hang_pair {
    uint64_t key; /* sender << 32 | receiver, + 1 (0: empty) */
    long long sent, got;
    int mixed;
} hang_pair_t;

/* whom a call waits for, as words: a rank, or (for ranks in the same
 * state) a distance on the ring of ranks or the same rank for all */
enum { REL_NONE, REL_RANK, REL_DIST, REL_NOCALL };
typedef struct rel {
    int kind, val;
} rel_t;

/* ranks in the same state, grouped (hang_sentences.c).  An item is a call
 * (>= 0) or a rank in no call (-1 - rank). */
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

/* the wait graph (hang_cycles.c): ranks 0..n-1, then a node per collective
 * left incomplete (from each rank in it, to each member that is not) */
typedef struct edge {
    int from, to, call; /* call: the waiting call (-1 from a collective's node) */
} edge_t;

typedef struct graph {
    edge_t *e;
    int ne, cap, nnodes;
} graph_t;

/* hang_alloc.c: an allocation that fails ends the merge (status 1) with a
 * line saying what it was for; text appended to b, grown as needed */
void *hang_alloc(size_t n, size_t size, const char *what);
void *hang_grow(void *p, size_t n, size_t size, const char *what);
char *hang_strdup(const char *s, const char *what);
void hang_sb_printf(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* hang_parse.c: the pair's counts, made when create and new (NULL else) */
hang_pair_t *hang_pair_get(struct hang_pairs *p, int s, int r, int create);

/* hang_sentences.c: a sentence added to the findings (b's text, or fmt's) */
void hang_say_sb(hang_t *h, sbuf_t *b);
void hang_say(hang_t *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "0, 2 and 5", "0-3", or "0, 4, 8 ... and 1021 more" */
void hang_rank_list(sbuf_t *b, const int *ranks, int k);
/* the members "0-3,6" of a communicator: calls each(rank, arg); their count */
int hang_each_member(const char *s, int n, void (*each)(int r, void *arg), void *arg);
int hang_is_coll(const hang_call_t *c);
int hang_waits_for_peer(const hang_call_t *c);
int hang_sends(const hang_call_t *c);
/* a call in words ("waits in MPI_Recv from rank 3, tag 5, at ring.c:12") */
void hang_describe(sbuf_t *b, const hang_t *h, const hang_call_t *c);
/* rank r's state as a relative clause ("which waits in ...") */
void hang_state_of(sbuf_t *b, const hang_t *h, int r);
/* the calls by rank (hang_t.rank_first, by_rank) */
void hang_index_by_rank(hang_t *h);
/* the calls qsort's comparators index (they take no argument) */
extern const hang_call_t *hang_cmp_calls;
/* each distinct site's label, once */
void hang_name_sites(hang_t *h);
int hang_item_rank(const hang_t *h, int item);
/* groups items (ascending ranks) by state; hang_by_size: the largest first */
void hang_group_items(const hang_t *h, const int *items, int k, grouping_t *out);
int hang_by_size(const void *a, const void *b);
void hang_grouping_free(grouping_t *g);
/* "rank 3 waits in ..." or "4095 ranks (1-4095) wait in ..." */
void hang_group_words(sbuf_t *b, const hang_t *h, const grouping_t *gr, const group_t *g, int capital);

/* hang_cycles.c: an edge of the wait graph; the cycles said, how many */
void hang_add_edge(graph_t *gr, int from, int to, int call);
int hang_find_cycles(hang_t *h, graph_t *gr);

#endif
