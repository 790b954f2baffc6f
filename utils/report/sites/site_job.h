/*
 * papi-mpit-report: the call sites of every rank, merged on rank 0
 * (site_record.c), named (site_names.c) and rendered (site_render.c).
 * No MPI types: this side runs on rank 0 after the collection.
 */
#ifndef PAPI_MPIT_SITES_JOB_H
#define PAPI_MPIT_SITES_JOB_H

#include <stdio.h>

#include "site_frames.h"

#define SITES_JOB_HIST 42 /* = SITES_HIST */

typedef struct site_pair {
    int rank, peer; /* peer -1: other (outside MPI_COMM_WORLD, or beyond the peers kept) */
    long long msgs, bytes;
} site_pair_t;

/* One call site over all ranks: a call instruction of one module. */
typedef struct site_agg {
    char *module;      /* the file (the program, or a library) */
    unsigned long off; /* the return address, relative to the module's load address */
    int fn;            /* the wrapped call (sites_fn) */
    long long calls, ns, msgs_out, bytes_out, msgs_in, bytes_in;
    long long found; /* receives that found their message already waiting */
    long long hist[SITES_JOB_HIST];
    long long *rank_ns, *rank_calls; /* per rank */
    long long *rank_max, *rank_min;  /* per rank: its longest and shortest single call (ns; 0: no call) */
    int nranks;                      /* ranks with calls here */
    site_pair_t *pairs;
    int npairs, cap_pairs;
    /* the program line behind the caller (site_frames.h): SITES_PROG_* */
    int how;
    char *pwhere;      /* NATIVE: the program frame's module; PYTHON: the file */
    unsigned long pat; /* NATIVE: its offset; PYTHON: the line */
    char pfunc[64];    /* PYTHON: the function */
    /* named (site_names.c): the program line (the caller's own when how is
     * SITES_PROG_SELF, NONE or NOPY) */
    char func[128], file[256];
    int line;
    char label[320]; /* "file.c:212" or "func+0x1c (module)" */
    /* the caller, when it is a library's (how NATIVE or PYTHON): the site's detail */
    char via_func[128], via_file[256];
    int via_line;
    char via[320];
} site_agg_t;

typedef struct site_cell {
    int sender, receiver;
    long long msgs, bytes;
} site_cell_t;

typedef struct site_coll {
    int fn, root; /* root: world rank, -1 none */
    long long calls, bytes;
} site_coll_t;

typedef struct sites_job {
    int nprocs, nranks; /* ranks that sent sites */
    site_agg_t *sites;
    int nsites, cap_sites;
    int *slot; /* open-addressed index into sites */
    int nslot;
    site_cell_t *cells; /* point-to-point: sender x receiver, from the senders' wrappers */
    int ncells, cap_cells;
    long long p2p_other; /* messages to no rank of MPI_COMM_WORLD */
    site_coll_t *colls;
    int ncolls, cap_colls;
    long long overflow_sites, overflow_colls, untracked;
    int watched;             /* ranks that counted receives finding their message waiting */
    long long found_outside; /* such receives outside the program's calls */
    char off_reason[256];    /* why no sites were recorded (set by report_mpi.c) */
    int depth;               /* --site-depth of the ranks */
    char frames_why[256];    /* what of the program lines was off (Python's), "" for nothing */
    char **nolines;          /* modules holding sites but without line information */
    int nnolines;
    char unseen[512];   /* calls the sites did not see, in one line, or "" (site_report.c) */
    double elapsed_max; /* the run's length, for shares of time */
    /* each rank's time in MPI: the sum of its sites' time (its wrapped
     * calls), and as a share of its run (MPI_Init to MPI_Finalize); NULL
     * when the sites were off (sites_job_mpi_time) */
    double *rank_mpi_s, *rank_share; /* share: NaN where the rank's run is not known */
} sites_job_t;

void sites_job_init(sites_job_t *j, int nprocs);
void sites_job_free(sites_job_t *j);
/* One line of rank rank's record (C, T, K, G): 1 if it was one of ours. */
int sites_job_line(sites_job_t *j, int rank, char *line);
/* After the last line: names the sites (file:line, function) and orders
 * them by time. */
void sites_job_finish(sites_job_t *j);
/* After sites_job_finish: each rank's time in MPI and its share of the
 * rank's run (elapsed: seconds per rank; missing: 1 where a rank left no
 * state). */
void sites_job_mpi_time(sites_job_t *j, const double *elapsed, const unsigned char *missing);
/* The name of a wrapped call, by index. */
const char *sites_fn_name(int fn);

/* site_names.c: file, line and function of each site, through libdw */
void sites_name_all(sites_job_t *j);

/* site_render.c.  Each returns 0, or -1 on an output error. */
int sites_write_findings(FILE *out, const sites_job_t *j, int html);
int sites_write_table(FILE *out, const sites_job_t *j);
int sites_write_csv(FILE *out, const sites_job_t *j);
int sites_write_p2p_csv(FILE *out, const sites_job_t *j);
int sites_write_colls_csv(FILE *out, const sites_job_t *j);
/* report.json's members call_sites, program_matrix and collectives, added
 * to its object (a jansson json_t) */
struct json_t;
int sites_json(struct json_t *obj, const sites_job_t *j);
int sites_write_html(FILE *out, const sites_job_t *j);

#endif
