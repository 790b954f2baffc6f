/*
 * papi-mpit-report: a call site's figures as the renderings of the sites
 * say them (site_findings.c, site_render.c, site_json.c, site_html.c):
 * time over the ranks, calls over the ranks, the longest and shortest
 * call, its name, its busiest pair, HTML escaping.  No MPI.
 */
#ifndef SITE_FIGURES_H
#define SITE_FIGURES_H

#include <stdio.h>

#include "site_job.h"

/* the time of every site, over all ranks */
long long sites_total_ns(const sites_job_t *j);
/* the site's rank with the most (max=1) or least time, and the mean */
int sites_extreme_rank(const site_agg_t *s, int nprocs, int max, double *mean);
/* the site's calls per rank: the least and the most (their ranks) and the
 * mean, over all ranks (as sites_extreme_rank does the time) */
void sites_calls_spread(const site_agg_t *s, int nprocs, long long *lo, int *lo_rank, double *mean,
                        long long *hi, int *hi_rank);
/* the longest single call over the ranks (its rank), and the shortest
 * (its rank), among the ranks with calls here; -1: none */
int sites_call_extremes(const site_agg_t *s, int nprocs, long long *max, long long *min, int *min_rank);
/* "MPI_Send at file:line (function)" */
void sites_site_name(char *b, size_t n, const site_agg_t *s);
/* HTML text: & < > " escaped */
void sites_hesc(FILE *out, const char *s);
/* the pair with the most bytes, and how many pairs there are */
void sites_peers_text(char *b, size_t n, const site_agg_t *s);

/* a site's figures for people: total time, the busiest rank's and the mean, bytes */
typedef struct site_texts {
    char time[32], max[32], mean[32], sent[32], received[32];
    int max_rank;
    double mean_ns;
} sites_texts_t;
void sites_site_texts(sites_texts_t *t, const sites_job_t *j, const site_agg_t *s);

#endif
