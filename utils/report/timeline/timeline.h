/*
 * papi-mpit-merge: the last calls of every thread of every rank, read from
 * the ranks' mapped state files (sites/site_timeline.h's rings and each
 * thread's call in progress), as a timeline: Chrome/Perfetto trace events
 * (timeline.json, timeline_json.c) and an OTF2 archive (timeline_otf2.c,
 * where the build found libotf2).  hang/ calls in here, never the reverse.
 */
#ifndef PAPI_MPIT_TIMELINE_H
#define PAPI_MPIT_TIMELINE_H

#include <stdint.h>

typedef struct tl_call {
    uint64_t number; /* the call's number in its thread, from 1 */
    int fn;          /* the call (sites_fn) */
    int site;        /* index into timeline_t's sites */
    int peer, tag;   /* world rank (-1: none), tag (SITES_NO_TAG: none) */
    int any_source, any_tag;
    char comm[24];            /* "world", "self", or the communicator's key */
    long long sent, received; /* bytes */
    long long t0, t1;         /* entry and return, Unix ns; t1 0 while open */
    int open;                 /* in progress when the rank's state was last written */
} tl_call_t;

typedef struct tl_thread {
    int rank, slot;
    long tid;
    uint64_t done;    /* calls it completed */
    long long lost;   /* of the ring's last ones, records torn at death (left out) */
    tl_call_t *calls; /* oldest first; the open one last */
    int ncalls;
} tl_thread_t;

typedef struct tl_site {
    char *module;
    unsigned long off;
    char label[320]; /* "file.c:212", or the function and offset, or the module and offset */
} tl_site_t;

typedef struct timeline {
    int nprocs;
    char **hosts; /* by rank; NULL: no state file */
    tl_thread_t *threads;
    int nthreads;
    tl_site_t *sites;
    int nsites;
    long long origin; /* the earliest entry, Unix ns */
    long long end;    /* the latest time known (a return, a stamp), Unix ns */
    int ring_calls;   /* calls a ring keeps */
} timeline_t;

/* timeline_read.c: the state files DIR/state.RANK.map of ranks 0 .. nprocs-1.
 * 0, or -1 when no rank's file holds rings (a build without them, --no-sites). */
int timeline_read(const char *dir, int nprocs, timeline_t *tl);
void timeline_free(timeline_t *tl);

/* The writers: 0, or -1 with the reason on stderr. */
int timeline_write_json(const char *path, const timeline_t *tl);
/* The archive DIR/timeline-otf2/traces.otf2 (an earlier one is replaced);
 * 1 when the build has no OTF2 (timeline_otf2_none.c). */
int timeline_write_otf2(const char *dir, const timeline_t *tl);

/* All of it, for papi-mpit-merge: what was written on stderr. */
void timeline_write(const char *dir, int nprocs);

#endif
