/*
 * papi-mpit-report: a call's site in the rank's table of sites (one per
 * caller, program line and call): found, claimed with compare-and-swap, or,
 * when the table is full, the call counted once as not recorded.  The
 * table is site_charge.c's to place, allocate and free.
 */
#include "site_count.h"
#include "site_hash.h"
#include "site_table.h"

sites_site_t *sites_site_table;

sites_site_t *sites_site_find(sites_call_t *c)
{
    uintptr_t pc = (uintptr_t)c->pc;
    unsigned h = hash_ptr(pc ^ (c->prog * 31 + (uintptr_t)c->how)) & (SITES_MAX - 1);
    for (int probe = 0; probe < SITES_MAX; probe++, h = (h + 1) & (SITES_MAX - 1)) {
        sites_site_t *s = &sites_site_table[h];
        uintptr_t cur = __atomic_load_n(&s->pc, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uintptr_t want = 0;
            if (__atomic_compare_exchange_n(&s->pc, &want, pc, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                s->prog = c->prog;
                s->how = c->how;
                __atomic_store_n(&s->fn1, c->fn + 1, __ATOMIC_RELEASE);
                return c->site = s;
            }
            cur = want;
        }
        if (cur != pc) continue;
        /* claimed: its call is written right after (by another thread, maybe) */
        int fn1;
        while ((fn1 = __atomic_load_n(&s->fn1, __ATOMIC_ACQUIRE)) == 0) {}
        if (fn1 == c->fn + 1 && s->prog == c->prog && s->how == c->how) return c->site = s;
    }
    c->lost = 1;
    ADD(&sites_over->sites, 1);
    return NULL;
}
