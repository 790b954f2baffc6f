/*
 * papi-mpit-merge: how fresh each rank's state is (merge_fresh.c): the
 * time of its last update against the job's end (the latest update of any
 * rank), and which files it came from.  A rank's mapped state file holds
 * its calls in progress, call sites, collectives and sends by receiver up
 * to its last MPI call; its counters (PAPI's and MPI_T's) are read by the
 * rank itself only when it writes a snapshot, so they are the snapshot's,
 * and a rank with no snapshot has none.
 */
#ifndef PAPI_MPIT_MERGE_FRESH_H
#define PAPI_MPIT_MERGE_FRESH_H

#include <stdio.h>

typedef struct merge_fresh {
    int nprocs;
    double *at;   /* per rank: its state's last update, Unix seconds; 0: no state */
    double *map;  /* its mapped file's last stamp or call; 0: none */
    double *snap; /* its snapshot's time (the counters'); 0: none */
    double end;   /* the job's end: the latest at */
} merge_fresh_t;

/* 0, or -1 when out of memory. */
int fresh_init(merge_fresh_t *f, int nprocs);
void fresh_free(merge_fresh_t *f);
/* The time on a state's R line (Unix seconds), 0 when it has none. */
double fresh_text_wall(const char *text);
/* rank's times (0: that file is not there; at: the state merged). */
void fresh_note(merge_fresh_t *f, int rank, double map, double snap, double at);
/* The section "How fresh each rank's state is" of report.txt, and of report.html (after why the run hung). */
int fresh_write_text(FILE *out, const merge_fresh_t *f);
int fresh_write_html(FILE *out, const merge_fresh_t *f);
/* report.json's member "freshness", added to obj (a jansson json_t); 0, or -1 out of memory. */
struct json_t;
int fresh_json(struct json_t *obj, const merge_fresh_t *f);

#endif
