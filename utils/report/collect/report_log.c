/*
 * papi-mpit-report event log mode (PAPI_MPIT_REPORT_LOG=1, flag --log).
 *
 * Watches every MPI_T event instance through the mpit component
 * (papi_mpit_watch_start): the component's callbacks, which also feed its
 * counters, hand each instance with its timestamp and elements to on_event.
 * That runs inside the MPI library, possibly at its strictest safety level,
 * so it only takes a slot in a preallocated buffer with an atomic increment
 * and copies the values: no lock, no allocation, no I/O.  A full buffer
 * counts the instance as dropped (as do the MPI's own drops).  At
 * MPI_Finalize each rank writes <dir>/mpit-events.<rank>.log: one line per
 * instance, sorted by timestamp, then queue statistics for every
 * insert/remove pair of event types (enqueued/dequeued, insert/remove):
 * instances in and out, maximum depth, time-weighted mean depth, total and
 * mean residence time.
 *
 * What the MPI's events are, how their elements decode, which of them must
 * not be read and what unnamed elements mean all come from the component.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>
#include <papi.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "papi_mpit.h"
#include "report.h"
#include "report_env.h"
#include "report_log.h"

#define PFX             "papi-mpit-report: "
#define LOG_ELEMS_KEPT  6      /* elements kept per instance (the rest: "not kept") */
#define LOG_DEFAULT_CAP 200000 /* instances kept per rank (PAPI_MPIT_REPORT_LOG_MAX) */

typedef struct logrec {
    uint64_t ts;
    int type; /* 0: slot taken but not filled (yet); else type index + 1 */
    int nelem;
    int64_t elem[LOG_ELEMS_KEPT];
} logrec_t;

static papi_mpit_event_type_t *types;
static int ntypes;
static logrec_t *buf;
static unsigned long cap, next_slot, dropped_full;
static uint64_t dropped_mpi, ts_start, ts_end;
static int active;

static int log_wanted(void) { return report_bool_env("PAPI_MPIT_REPORT_LOG", 0); }

static void on_event(void *ctx, int type, uint64_t time_ns, const int64_t *elements, int nelements)
{
    (void)ctx;
    unsigned long slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
    if (slot >= cap) {
        __atomic_fetch_add(&dropped_full, 1, __ATOMIC_RELAXED);
        return;
    }
    logrec_t *r = &buf[slot];
    r->ts = time_ns;
    r->nelem = nelements < LOG_ELEMS_KEPT ? nelements : LOG_ELEMS_KEPT;
    for (int e = 0; e < r->nelem; e++) r->elem[e] = elements[e];
    __atomic_store_n(&r->type, type + 1, __ATOMIC_RELEASE);
}

static void stop_log(void)
{
    free(buf);
    free(types);
    buf = NULL;
    types = NULL;
}

void report_log_start(int rank)
{
    if (!log_wanted()) return;
    const char *c = getenv("PAPI_MPIT_REPORT_LOG_MAX");
    cap = c && atol(c) > 0 ? (unsigned long)atol(c) : LOG_DEFAULT_CAP;
    buf = calloc(cap, sizeof *buf);
    if (!buf) {
        if (rank == 0) fprintf(stderr, PFX "event log: out of memory for %lu records: no log\n", cap);
        return;
    }
    /* the component's reasons are said once, here, by rank 0 */
    int was_quiet = papi_mpit_quiet(1);
    int rc = papi_mpit_watch_start(on_event, NULL, &ntypes);
    papi_mpit_quiet(was_quiet);
    if (rc != PAPI_OK) {
        char why[REPORT_REASON_LEN];
        if (!papi_mpit_why("events", why, sizeof why)) snprintf(why, sizeof why, "%s", PAPI_strerror(rc));
        if (rank == 0) fprintf(stderr, PFX "event log: %s: no log\n", why);
        stop_log();
        return;
    }
    types = calloc((size_t)ntypes + 1, sizeof *types);
    if (!types) {
        papi_mpit_watch_stop(NULL);
        if (rank == 0) fprintf(stderr, PFX "event log: out of memory: no log\n");
        stop_log();
        return;
    }
    for (int i = 0; i < ntypes; i++)
        if (papi_mpit_watch_type(i, &types[i]) != PAPI_OK) types[i].name[0] = '\0';
    ts_start = papi_mpit_watch_now();
    active = 1;
}

static int by_time(const void *a, const void *b)
{
    const logrec_t *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void print_element(FILE *f, const papi_mpit_event_type_t *t, int e, const logrec_t *r)
{
    fprintf(f, " %s=", t->elem_name[e]);
    if (!t->readable) {
        fputc('?', f);
        return;
    }
    if (e >= r->nelem) {
        fputs("(not kept)", f);
        return;
    }
    int64_t v = r->elem[e];
    switch (t->elem_kind[e]) {
    case PAPI_MPIT_ELEM_SIGNED: fprintf(f, "%lld", (long long)v); break;
    case PAPI_MPIT_ELEM_UNSIGNED: fprintf(f, "%llu", (unsigned long long)v); break;
    case PAPI_MPIT_ELEM_DOUBLE: {
        double d;
        memcpy(&d, &v, sizeof d);
        fprintf(f, "%.17g", d);
        break;
    }
    default: fputc('?', f);
    }
}

/* The queue counterpart of an insert-type event name, or -1. */
static int removal_of(int i)
{
    static const char *const pairs[][2] = {
        {"enqueued", "dequeued"}, {"_insert", "_remove"}, {"_enqueue", "_dequeue"}};
    const char *n = types[i].name;
    size_t len = strlen(n);
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
        size_t sl = strlen(pairs[p][0]);
        if (len < sl || strcmp(n + len - sl, pairs[p][0]) != 0) continue;
        char want[REPORT_NAME_LEN];
        snprintf(want, sizeof want, "%.*s%s", (int)(len - sl), n, pairs[p][1]);
        for (int j = 0; j < ntypes; j++)
            if (strcmp(types[j].name, want) == 0) return j;
    }
    return -1;
}

/* Nanoseconds from the start of the log to ts (instances stamped just
 * before the start give small negatives). */
static double since_start(uint64_t ts) { return (double)(int64_t)(ts - ts_start); }

static void queue_stats(FILE *f, const logrec_t *recs, unsigned long n)
{
    double span = since_start(ts_end);
    for (int i = 0; i < ntypes; i++) {
        int j = removal_of(i);
        if (j < 0) continue;
        long long in = 0, out = 0, depth = 0, maxdepth = 0;
        double integral = 0, last = 0;
        for (unsigned long k = 0; k < n; k++) {
            int t = recs[k].type - 1;
            if (t != i && t != j) continue;
            double now = since_start(recs[k].ts);
            integral += (double)depth * (now - last);
            last = now;
            if (t == i) {
                in++;
                depth++;
                if (depth > maxdepth) maxdepth = depth;
            } else {
                out++;
                if (depth > 0) depth--;
            }
        }
        integral += (double)depth * (span - last);
        fprintf(f,
                "# queue %s/%s: in %lld, out %lld, left %lld, max depth %lld, mean depth %.6g, "
                "residence total %.0f ns, mean %.6g ns per message\n",
                types[i].name, types[j].name, in, out, depth, maxdepth, span > 0 ? integral / span : 0.0,
                integral, in ? integral / (double)in : 0.0);
    }
}

static void write_header(FILE *f, int rank, unsigned long n)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    for (char *c = version; *c; c++)
        if (*c == '\t') *c = ' ';
    fprintf(f, "# papi-mpit-report event log, rank %d, %s\n", rank, version);
    fprintf(f, "# %lu event instances, %lu dropped (buffer full), %llu dropped by the MPI\n", n, dropped_full,
            (unsigned long long)dropped_mpi);
    fprintf(f, "# columns: time_ns (since the log started, after MPI_Init) event element=value ...\n");
    for (int i = 0; i < ntypes; i++) {
        if (!types[i].name[0]) continue;
        fprintf(f, "# event type %d %s:", i, types[i].name);
        for (int e = 0; e < types[i].nelem; e++) fprintf(f, " %s", types[i].elem_name[e]);
        if (!types[i].readable) fputs(" (element data not readable in this MPI version)", f);
        fputc('\n', f);
    }
}

void report_log_finish(int rank)
{
    if (!active) return;
    active = 0;
    ts_end = papi_mpit_watch_now();
    papi_mpit_watch_stop(&dropped_mpi);
    /* a callback still under way (an MPI progress thread) now finds the
     * buffer full and writes nothing */
    unsigned long n = __atomic_exchange_n(&next_slot, cap, __ATOMIC_ACQ_REL);
    if (n > cap) n = cap;
    /* keep filled slots only (a callback may have been cut short) */
    unsigned long k = 0;
    for (unsigned long s = 0; s < n; s++) {
        int t = __atomic_load_n(&buf[s].type, __ATOMIC_ACQUIRE);
        if (t > 0 && t <= ntypes) buf[k++] = buf[s];
    }
    n = k;
    qsort(buf, n, sizeof *buf, by_time);

    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (!dir || !*dir) dir = ".";
    char path[4096], tmp[4200], file[64];
    snprintf(file, sizeof file, "mpit-events.%d.log", rank);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    /* whole or not at all: a new temporary file, renamed once complete */
    FILE *f = report_mkdir_p(dir) == 0 ? report_open_temp(dir, file, tmp, sizeof tmp) : NULL;
    if (!f) {
        fprintf(stderr, PFX "event log: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    write_header(f, rank, n);
    for (unsigned long s = 0; s < n; s++) {
        const logrec_t *r = &buf[s];
        const papi_mpit_event_type_t *t = &types[r->type - 1];
        fprintf(f, "%.0f %s", since_start(r->ts), t->name);
        for (int e = 0; e < t->nelem; e++) print_element(f, t, e, r);
        fputc('\n', f);
    }
    queue_stats(f, buf, n);
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        fprintf(stderr, PFX "event log: cannot write %s: %s\n", path, bad ? "write error" : strerror(errno));
        unlink(tmp);
    } else if (rank == 0) {
        fprintf(stderr,
                PFX "event log: rank 0 logged %lu event instances (%llu dropped); per-rank logs in "
                    "%s/mpit-events.<rank>.log\n",
                n, (unsigned long long)(dropped_full + dropped_mpi), dir);
    }
    /* buf and types stay: a callback that took its slot just before the
     * exchange above may still be writing its record */
}
