/*
 * papi-mpit-report: how the call-site tables count (site_count.c holds the
 * switch and the counts of what did not fit): atomic adds where the
 * program's threads may call MPI at once, plain ones otherwise (a lock
 * prefix per count is most of a wrapper's cost).
 */
#ifndef PAPI_MPIT_SITES_COUNT_H
#define PAPI_MPIT_SITES_COUNT_H

#include "site_table.h"

#pragma GCC visibility push(hidden)

#define ADD(p, v)        (sites_mt ? (void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED) : (void)(*(p) += (v)))
#define ADD_ATOMIC(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)

/* whether the program's threads may call MPI at once (sites_begin sets it) */
extern int sites_mt;
/* what did not fit: in the mapped state file where the tables are
 * (sites_charge_place), else in site_count.c */
extern sites_overflow_t *sites_over;

#pragma GCC visibility pop

#endif
