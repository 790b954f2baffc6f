/*
 * papi-mpit-report: the call-site tables' cells (site_table.h says what is
 * charged where), apart from any MPI type: the wrappers count into them in
 * the rank's mapped state file (collect/report_state_map.h), and
 * papi-mpit-merge reads them there after the rank is gone.
 */
#ifndef PAPI_MPIT_SITES_CELLS_H
#define PAPI_MPIT_SITES_CELLS_H

#include <stdint.h>

#define SITES_HIST  42   /* message sizes: 0, then [2^(k-1), 2^k) for k = 1..41 */
#define SITES_PEERS 8    /* peers kept per site; the rest are "other" */
#define SITES_MAX   2048 /* sites per rank; further ones are counted as overflow */

typedef struct sites_peer {
    int peer1; /* world rank + 1; 0: free slot */
    long long msgs, bytes;
} sites_peer_t;

typedef struct sites_site {
    uintptr_t pc;   /* the caller's return address; 0: free slot */
    uintptr_t prog; /* the program line behind it (how: SITES_PROG_*) */
    int how;
    int fn1;             /* index in sites_fn (the wrapped call) + 1; 0 until claimed */
    long long calls, ns; /* ns: in sites_ticks (sites_record converts) */
    long long ns_max;    /* the longest single call, in sites_ticks */
    long long ns_min1;   /* the shortest single call + 1, in sites_ticks; 0: none yet */
    long long msgs_out, bytes_out, msgs_in, bytes_in;
    long long hist[SITES_HIST];
    sites_peer_t peers[SITES_PEERS];
    long long other_msgs, other_bytes;
    long long found; /* receives posted here that found their message already waiting (MPI_T events) */
} sites_site_t;

typedef struct sites_coll_cell {
    int fn1;  /* fn + 1; 0: free */
    int root; /* world rank, -1: no root */
    long long calls, bytes;
} sites_coll_cell_t;

/* what did not fit: sites beyond SITES_MAX, collective cells beyond
 * COLL_MAX, requests the tracker's table had no room for */
typedef struct sites_overflow {
    long long sites, colls, untracked;
} sites_overflow_t;

#endif
