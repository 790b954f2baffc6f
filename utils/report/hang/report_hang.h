/*
 * papi-mpit-report: why a run hangs, computed from the snapshots its ranks
 * left (hang_*.c): the wait graph (who waits in which call for whom,
 * at which site), cycles of it (deadlocks, once every wait in one has
 * lasted long enough), collectives some members of a communicator entered
 * and others not, and receives that wait for a tag or source while
 * messages from that peer were sent and not received (a tag mismatch).
 * No MPI: read by papi-mpit-merge.
 *
 * A snapshot's own lines (collect/report_rank_state.c):
 *   R rank nprocs why signal unix_time seq elapsed pid   the state: why
 *       (signal, on-demand, periodic, watchdog; "mapped": read from the
 *       rank's mapped state file, hang/merge_state_map.h), when, how many
 *       this rank wrote (stamps, for a mapped one), seconds from MPI_Init,
 *       the process
 *   I started library command                       the run (for the page)
 *   A tid call kind module offset seconds peer tag any_source any_tag comm members
 *       a thread's call in progress (peer: world rank, -1 none; tag: - for
 *       none; comm: site_comms.h's id; members: world ranks, "0-3,6")
 *   B comm size members                            a communicator of the rank
 *   D seconds [since]                              what writing it took; on a
 *       signal, the seconds from its arrival to the state (all but the rename)
 */
#ifndef PAPI_MPIT_REPORT_HANG_H
#define PAPI_MPIT_REPORT_HANG_H

#include <stdio.h>

typedef struct hang_call {
    int rank;
    long tid;
    char fn[48], kind[16], comm[64], members[256];
    char *module;
    unsigned long off;
    double age; /* seconds in the call */
    int peer, tag, has_tag, any_source, any_tag;
    char label[320]; /* the site: file:line, or function+offset */
} hang_call_t;

typedef struct hang_state {
    int present;
    char why[16];
    int signo;
    double wall, elapsed, took;
    long seq;
} hang_state_t;

struct hang_pairs; /* hang_parse.c: counts of point-to-point messages by (sender, receiver) */

typedef struct hang {
    int nprocs;
    hang_state_t *st; /* per rank */
    hang_call_t *calls;
    int ncalls, cap_calls;
    /* point-to-point messages, sparse (only the pairs the files name): what
     * s's wrappers sent r, what r's receive sites got from s, and whether a
     * sendrecv site of r mixed both */
    struct hang_pairs *pairs;
    unsigned char *has_t;
    double *unexpected; /* per rank: the last sampled unexpected queue length, -1 unknown */
    /* the calls by rank (hang_finish): those of rank r are by_rank[rank_first[r] .. rank_first[r+1]) */
    int *rank_first, *by_rank;
    /* the findings, as sentences (plain text) */
    char **lines;
    int nlines, cap_lines;
    int nfindings; /* of lines, the first nfindings are findings, the rest the wait graph */
} hang_t;

/* Nothing here is N x N: memory and time grow with the ranks and what their
 * files hold.  An allocation that fails ends the program (status 1) with a
 * line on stderr saying what it was for: no partial report. */

/* nprocs: from the files' R lines (the largest). */
void hang_init(hang_t *h, int nprocs);
void hang_free(hang_t *h);
/* Reads rank's snapshot text (left whole); 0, or -1 when it is not one. */
int hang_read(hang_t *h, int rank, const char *text);
/* Names the sites and computes the sentences: ranks in the same state are
 * one sentence ("4095 ranks (1-4095) wait in MPI_Recv from their left
 * neighbour, tag 3, at ring.c:12, ..."), the ranks that differ one each; a
 * cycle is named by its length, its first members and its last, whatever
 * its size. */
void hang_finish(hang_t *h);
/* Renderings: the text's section, report.html's (first on the page) and
 * report.json's member "hang", added to its object obj (a jansson json_t;
 * 0, or -1 when out of memory): every rank's state and calls, as columns. */
struct json_t;
int hang_write_text(FILE *out, const hang_t *h);
int hang_write_html(FILE *out, const hang_t *h);
int hang_json(struct json_t *obj, const hang_t *h);

#endif
