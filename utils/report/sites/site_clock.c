/*
 * papi-mpit-report: the call sites' clock: the CPU's time-stamp counter
 * where it is steady (the architecture's system counter on aarch64), its
 * rate measured from sites_begin to the window's opening, or
 * clock_gettime's ns where there is no such counter.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <string.h>

#include "site_private.h"
#include "site_table.h"

/* ---- the clock: ticks and ns at sites_begin, for the rate */
int sites_use_tsc;
static long long anchor_ticks, anchor_ns;
static double ns_per_tick = 1; /* measured from sites_begin to the window's opening, then kept */

static int tsc_is_steady(void)
{
#if defined(__x86_64__)
    char line[4096];
    int steady = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            steady = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    if (f) fclose(f);
    return steady;
#elif defined(__aarch64__)
    return 1; /* the architecture's system counter: a fixed rate, never stopped */
#else
    return 0;
#endif
}

/* ns per tick where the counter says its rate, else 0 (measured) */
static double counter_rate(void)
{
#if defined(__aarch64__)
    unsigned long long hz;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
    return hz ? 1e9 / (double)hz : 0;
#else
    return 0;
#endif
}

double sites_ns_per_tick(void)
{
    if (!sites_use_tsc) return 1;
    if (counter_rate() > 0) return counter_rate();
    long long dt = sites_ticks() - anchor_ticks, dns = sites_now_ns() - anchor_ns;
    if (dt <= 0 || dns <= 0) return 1;
    return (double)dns / (double)dt;
}

long long sites_ticks_ns(long long ticks)
{
    return sites_use_tsc ? (long long)((double)ticks * sites_ns_per_tick()) : ticks;
}

void sites_clock_begin(void)
{
    sites_use_tsc = tsc_is_steady();
    anchor_ns = sites_now_ns();
    anchor_ticks = sites_ticks();
}

void sites_clock_window(int open)
{
    long long dt = sites_ticks() - anchor_ticks, dns = sites_now_ns() - anchor_ns;
    if (open && sites_use_tsc && dt > 0 && dns > 0) ns_per_tick = (double)dns / (double)dt;
    if (open && sites_use_tsc && counter_rate() > 0) ns_per_tick = counter_rate();
}

long long sites_clock_ns(long long ticks)
{
    return anchor_ns + (long long)((double)(ticks - anchor_ticks) * ns_per_tick);
}

void sites_clock(long long *ticks, long long *ns, double *ns_tick)
{
    *ticks = anchor_ticks, *ns = anchor_ns, *ns_tick = sites_use_tsc ? ns_per_tick : 1;
}
