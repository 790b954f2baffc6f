/*
 * Chooses and scales the clock of event timestamps (event_clock.h).
 */
#include "event_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct event_clock backend_clock = {EVENT_CLOCK_MPI, 0, 0, 0};

#define CALIBRATE_NS 200000 /* TSC scaled over 0.2 ms: measured within 3e-5 here */
#define PAIR_TRIES   5      /* (TSC, CLOCK_MONOTONIC) reads; the tightest wins */

uint64_t backend_clock_monotonic(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static const struct {
    const char *name;
    int kind;
} names[] = {{"mpi", EVENT_CLOCK_MPI}, {"monotonic", EVENT_CLOCK_MONOTONIC}, {"tsc", EVENT_CLOCK_TSC}};

#if defined(__x86_64__)
/* The kernel keeps time with the TSC only once it found it invariant and
 * synchronized across CPUs: then the TSC is a clock, not a cycle count. */
static int tsc_usable(void)
{
    char cs[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f) return 0;
    int ok = fgets(cs, sizeof cs, f) && strncmp(cs, "tsc", 3) == 0 && (cs[3] == '\n' || cs[3] == '\0');
    fclose(f);
    return ok;
}

/* A TSC value and the CLOCK_MONOTONIC time between two TSC reads, from the
 * tightest of a few tries (a preempted try is wide). */
static void clock_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < PAIR_TRIES; i++) {
        uint64_t a = __builtin_ia32_rdtsc(), m = backend_clock_monotonic(), b = __builtin_ia32_rdtsc();
        if (b - a < best) {
            best = b - a;
            *tsc = a + (b - a) / 2;
            *ns = m;
        }
    }
}

/* ns per tick, as a 32.32 fixed-point factor, over CALIBRATE_NS. */
static int tsc_calibrate(void)
{
    uint64_t t0 = 0, n0 = 0, t1 = 0, n1 = 0;
    clock_pair(&t0, &n0);
    do clock_pair(&t1, &n1);
    while (n1 - n0 < CALIBRATE_NS);
    if (t1 <= t0) return 0;
    backend_clock.tsc0 = t0;
    backend_clock.ns0 = n0;
    backend_clock.mult = (uint64_t)((((unsigned __int128)(n1 - n0)) << 32) / (t1 - t0));
    return backend_clock.mult > 0;
}
#else
static int tsc_usable(void) { return 0; }
static int tsc_calibrate(void) { return 0; }
#endif

void backend_clock_setup(int synchronous)
{
    int want = synchronous ? EVENT_CLOCK_TSC : EVENT_CLOCK_MPI;
    const char *env = getenv("PAPI_MPIT_EVENT_CLOCK");
    for (size_t i = 0; env && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(env, names[i].name) == 0) want = names[i].kind;
    /* an own clock read in a callback the MPI may call late is no event time */
    if (!synchronous) want = EVENT_CLOCK_MPI;
    if (want == EVENT_CLOCK_TSC && !(tsc_usable() && tsc_calibrate())) want = EVENT_CLOCK_MONOTONIC;
    backend_clock.kind = want;
}
