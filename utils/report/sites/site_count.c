/*
 * papi-mpit-report: the call-site tables' counting switch (atomic or
 * plain adds) and their counts of what did not fit, for the rank's report
 * and its snapshots.
 */
#include "site_count.h"

int sites_mt;
static sites_overflow_t overflow_heap; /* without a mapped state file */
sites_overflow_t *sites_over = &overflow_heap;

void sites_overflows(long long *s, long long *c, long long *u)
{
    *s = sites_over->sites;
    *c = sites_over->colls;
    *u = sites_over->untracked;
}
