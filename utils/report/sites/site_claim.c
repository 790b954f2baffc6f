/*
 * papi-mpit-report: a thread's slot for its calls in progress, claimed at
 * its first counted call (at most SITES_THREADS; site_slots.c writes and
 * reads them).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/syscall.h>
#include <unistd.h>

#include "site_count.h"
#include "site_table.h"

/* in the rank's mapped state file where it has one (sites_slots_place) */
static sites_slot_t slots_own[SITES_THREADS];
sites_slot_t *sites_slots = slots_own;
int sites_nslots;
static long long slots_overflow;
__thread sites_slot_t *sites_my_slot __attribute__((tls_model("initial-exec")));
__thread int sites_my_slot_tried __attribute__((tls_model("initial-exec")));

sites_slot_t *sites_slot_claim(void)
{
    sites_my_slot_tried = 1;
    int i = __atomic_fetch_add(&sites_nslots, 1, __ATOMIC_RELAXED);
    if (i >= SITES_THREADS) {
        ADD(&slots_overflow, 1);
        return NULL;
    }
    long tid = (long)syscall(SYS_gettid);
    for (int k = 0; k < 2; k++) sites_slots[i].rec[k].fn = -1, sites_slots[i].rec[k].tid = tid;
    return sites_my_slot = &sites_slots[i];
}
