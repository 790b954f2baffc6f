/*
 * papi-mpit-report event log mode (PAPI_MPIT_REPORT_LOG=1, flag --log).
 *
 * Registers a callback on every MPI_T event type the running MPI offers.  The
 * callback runs inside the MPI library, possibly at its strictest safety
 * level, so it only takes a slot in a preallocated buffer with an atomic
 * increment and reads the timestamp and the elements into it: no lock, no
 * allocation, no I/O.  A full buffer counts the instance as dropped (as do
 * the MPI's own drops, through the dropped handler).  At MPI_Finalize each
 * rank writes <dir>/mpit-events.<rank>.log: one line per instance, sorted by
 * timestamp, then queue statistics for every insert/remove pair of event
 * types (enqueued/dequeued, insert/remove): instances in and out, maximum
 * depth, time-weighted mean depth, total and mean residence time.
 *
 * MPI_T is finalized after MPI_Finalize, the order MPICH needs (mpi-facts:
 * finalizing MPI_T first can free state MPI_Finalize still uses).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "report_log.h"

#define PFX "papi-mpit-report: "

static int log_wanted(void)
{
    const char *v = getenv("PAPI_MPIT_REPORT_LOG");
    return v && *v && strcmp(v, "0") != 0;
}

#if MPI_VERSION >= 4

#define LOG_DATA        48 /* bytes of element data kept per instance */
#define LOG_ELEMS       16 /* elements described per event type */
#define LOG_DEFAULT_CAP 200000

typedef struct evtype {
    int index;
    char name[REPORT_NAME_LEN];
    int nelem;
    char elem_name[LOG_ELEMS][64];
    MPI_Datatype dtype[LOG_ELEMS];
    MPI_Aint disp[LOG_ELEMS];
    int size[LOG_ELEMS];
    int readable; /* 0: the MPI builds this event's data from a bad pointer */
    MPI_T_event_registration reg;
    int registered;
    long long seen; /* filled when writing */
} evtype_t;

typedef struct logrec {
    long long ts;
    int type;
    int source;
    unsigned char data[LOG_DATA];
} logrec_t;

static evtype_t *types;
static int ntypes;
static logrec_t *buf;
static unsigned long cap, next_slot, dropped_full, dropped_mpi;
static int active, mpit_inited;
static long long ts_start, ts_end;
static double ticks_per_ns = 1.0; /* of source 0 */

/* Event types whose data a given MPI builds from an invalid pointer: log the
 * timestamp only (mpi-facts: MPICH 4.0's unexp_message_dequeued). */
static int data_is_readable(const char *event)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    const char *v = strstr(version, "MPICH Version:");
    if (!v || strcmp(event, "unexp_message_dequeued") != 0) return 1;
    v += strlen("MPICH Version:");
    while (*v == ' ' || *v == '\t') v++;
    return strncmp(v, "4.0", 3) != 0 || (v[3] != '\0' && v[3] != '.' && v[3] != ' ' && v[3] != '\n');
}

/* MPICH 4.0 registers its events without setting their enumtype (left
 * uninitialised: MPI_T_enum_get_info on it crashes), so element names are
 * taken from the enumtype only for other MPIs; for MPICH's known events they
 * come from this table (mpi-facts: element 0 is the source rank, element 1
 * the context id), else they are elem0, elem1, ... */
static int enumtype_trusted(void)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    return strstr(version, "MPICH") == NULL;
}

static const struct {
    const char *event;
    const char *elems[2];
} known_elements[] = {
    {"unexp_message_enqueued", {"source", "context_id"}},
    {"unexp_message_dequeued", {"source", "context_id"}},
};

static void on_event(MPI_T_event_instance inst, MPI_T_event_registration reg, MPI_T_cb_safety safety,
                     void *user)
{
    (void)reg;
    (void)safety;
    const evtype_t *t = user;
    unsigned long slot = __atomic_fetch_add(&next_slot, 1, __ATOMIC_RELAXED);
    if (slot >= cap) {
        __atomic_fetch_add(&dropped_full, 1, __ATOMIC_RELAXED);
        return;
    }
    logrec_t *r = &buf[slot];
    MPI_Count ts = 0;
    MPI_T_event_get_timestamp(inst, &ts);
    r->ts = (long long)ts;
    r->source = 0;
    MPI_T_event_get_source(inst, &r->source);
    if (t->readable)
        for (int e = 0; e < t->nelem; e++)
            if (t->size[e] > 0 && t->disp[e] >= 0 && t->disp[e] + t->size[e] <= LOG_DATA)
                MPI_T_event_read(inst, e, r->data + t->disp[e]);
    __atomic_store_n(&r->type, t->index + 1, __ATOMIC_RELEASE); /* 0 = not filled */
}

static void on_dropped(MPI_Count count, MPI_T_event_registration reg, int source, MPI_T_cb_safety safety,
                       void *user)
{
    (void)reg;
    (void)source;
    (void)safety;
    (void)user;
    __atomic_fetch_add(&dropped_mpi, (unsigned long)count, __ATOMIC_RELAXED);
}

static void on_free(MPI_T_event_registration reg, MPI_T_cb_safety safety, void *user)
{
    (void)reg;
    (void)safety;
    (void)user;
}

static long long source_now(void)
{
    MPI_Count ts = 0;
    int n = 0;
    if (MPI_T_source_get_num(&n) != MPI_SUCCESS || n < 1) return 0;
    MPI_T_source_get_timestamp(0, &ts);
    return (long long)ts;
}

static void describe(int i, evtype_t *t)
{
    char name[REPORT_NAME_LEN], desc[1024];
    int nlen = sizeof name, dlen = sizeof desc, verb, nelem = 0, bind;
    MPI_T_enum en = MPI_T_ENUM_NULL;
    MPI_Info info;
    memset(t, 0, sizeof *t);
    t->index = i;
    /* first call: element count only */
    if (MPI_T_event_get_info(i, name, &nlen, &verb, NULL, NULL, &nelem, &en, &info, desc, &dlen, &bind) !=
        MPI_SUCCESS) {
        t->name[0] = '\0';
        return;
    }
    if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
    MPI_Datatype dt[64];
    MPI_Aint disp[64];
    int n = nelem > 64 ? 64 : nelem;
    nlen = sizeof name;
    dlen = sizeof desc;
    if (MPI_T_event_get_info(i, name, &nlen, &verb, dt, disp, &n, &en, &info, desc, &dlen, &bind) !=
        MPI_SUCCESS) {
        t->name[0] = '\0';
        return;
    }
    if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->nelem = n > LOG_ELEMS ? LOG_ELEMS : n;
    int nitems = 0;
    char ename[256];
    int elen = sizeof ename;
    if (enumtype_trusted() && en != MPI_T_ENUM_NULL) MPI_T_enum_get_info(en, &nitems, ename, &elen);
    for (int e = 0; e < t->nelem; e++) {
        t->dtype[e] = dt[e];
        t->disp[e] = disp[e];
        t->size[e] = 0;
        PMPI_Type_size(dt[e], &t->size[e]);
        snprintf(t->elem_name[e], sizeof t->elem_name[e], "elem%d", e);
        for (size_t k = 0; k < sizeof known_elements / sizeof known_elements[0]; k++)
            if (e < 2 && strcmp(known_elements[k].event, t->name) == 0)
                snprintf(t->elem_name[e], sizeof t->elem_name[e], "%s", known_elements[k].elems[e]);
        if (e < nitems) {
            int value;
            elen = sizeof ename;
            if (MPI_T_enum_get_item(en, e, &value, ename, &elen) == MPI_SUCCESS && ename[0])
                snprintf(t->elem_name[e], sizeof t->elem_name[e], "%.63s", ename);
        }
    }
    t->readable = data_is_readable(t->name);
    t->seen = 0;
    (void)bind;
}

void report_log_start(int rank)
{
    if (!log_wanted()) return;
    int level = MPI_THREAD_SINGLE, provided, n = 0;
    PMPI_Query_thread(&level); /* never lower the application's level */
    if (MPI_T_init_thread(level, &provided) != MPI_SUCCESS) {
        if (rank == 0) fprintf(stderr, PFX "event log: MPI_T_init_thread failed: no log\n");
        return;
    }
    mpit_inited = 1;
    if (MPI_T_event_get_num(&n) != MPI_SUCCESS) n = 0;
    if (n == 0) {
        if (rank == 0)
            fprintf(stderr, PFX "event log: this MPI library provides no MPI_T events: the log is empty\n");
    }
    const char *c = getenv("PAPI_MPIT_REPORT_LOG_MAX");
    cap = c && atol(c) > 0 ? (unsigned long)atol(c) : LOG_DEFAULT_CAP;
    buf = calloc(cap, sizeof *buf);
    types = calloc((size_t)n + 1, sizeof *types);
    if (!buf || !types) {
        if (rank == 0) fprintf(stderr, PFX "event log: out of memory for %lu records: no log\n", cap);
        free(buf);
        free(types);
        buf = NULL;
        types = NULL;
        return;
    }
    ntypes = n;
    int nsrc = 0;
    if (MPI_T_source_get_num(&nsrc) == MPI_SUCCESS && nsrc > 0) {
        char sname[256], sdesc[256];
        int sl = sizeof sname, dl = sizeof sdesc;
        MPI_T_source_order order;
        MPI_Count tps = 0, maxt = 0;
        MPI_Info info;
        if (MPI_T_source_get_info(0, sname, &sl, sdesc, &dl, &order, &tps, &maxt, &info) == MPI_SUCCESS) {
            if (tps > 0) ticks_per_ns = (double)tps / 1e9;
            if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
        }
    }
    for (int i = 0; i < n; i++) {
        evtype_t *t = &types[i];
        describe(i, t);
        if (!t->name[0]) continue;
        /* unbound events need no object; bound ones watch MPI_COMM_WORLD */
        MPI_Comm world = MPI_COMM_WORLD;
        if (MPI_T_event_handle_alloc(i, &world, MPI_INFO_NULL, &t->reg) != MPI_SUCCESS) continue;
        /* the strictest level: delivered whatever level the MPI raises it at */
        if (MPI_T_event_register_callback(t->reg, MPI_T_CB_REQUIRE_ASYNC_SIGNAL_SAFE, MPI_INFO_NULL, t,
                                          on_event) != MPI_SUCCESS) {
            MPI_T_event_handle_free(t->reg, NULL, on_free);
            continue;
        }
        MPI_T_event_set_dropped_handler(t->reg, on_dropped);
        t->registered = 1;
    }
    ts_start = source_now();
    active = 1;
}

static int by_time(const void *a, const void *b)
{
    const logrec_t *x = a, *y = b;
    return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void print_element(FILE *f, const evtype_t *t, int e, const unsigned char *data)
{
    const void *p = data + t->disp[e];
    MPI_Datatype d = t->dtype[e];
    if (!t->readable) {
        fprintf(f, " %s=?", t->elem_name[e]);
        return;
    }
    if (t->disp[e] < 0 || t->disp[e] + t->size[e] > LOG_DATA) {
        fprintf(f, " %s=(not kept)", t->elem_name[e]);
        return;
    }
    fprintf(f, " %s=", t->elem_name[e]);
    if (d == MPI_INT) {
        int v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%d", v);
    } else if (d == MPI_UNSIGNED) {
        unsigned v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%u", v);
    } else if (d == MPI_LONG) {
        long v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%ld", v);
    } else if (d == MPI_UNSIGNED_LONG) {
        unsigned long v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%lu", v);
    } else if (d == MPI_LONG_LONG || d == MPI_COUNT || d == MPI_AINT || d == MPI_OFFSET) {
        long long v = 0;
        memcpy(&v, p, t->size[e] <= 8 ? (size_t)t->size[e] : 8);
        fprintf(f, "%lld", v);
    } else if (d == MPI_UNSIGNED_LONG_LONG) {
        unsigned long long v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%llu", v);
    } else if (d == MPI_DOUBLE) {
        double v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%.17g", v);
    } else if (d == MPI_CHAR) {
        fprintf(f, "%d", *(const char *)p);
    } else {
        fputs("0x", f);
        for (int k = 0; k < t->size[e]; k++) fprintf(f, "%02x", ((const unsigned char *)p)[k]);
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

static void queue_stats(FILE *f, const logrec_t *recs, unsigned long n)
{
    double span = (double)(ts_end - ts_start) / ticks_per_ns;
    for (int i = 0; i < ntypes; i++) {
        int j = removal_of(i);
        if (j < 0) continue;
        long long in = 0, out = 0, depth = 0, maxdepth = 0;
        double integral = 0, last = (double)ts_start;
        for (unsigned long k = 0; k < n; k++) {
            int t = recs[k].type - 1;
            if (t != i && t != j) continue;
            integral += (double)depth * ((double)recs[k].ts - last);
            last = (double)recs[k].ts;
            if (t == i) {
                in++;
                depth++;
                if (depth > maxdepth) maxdepth = depth;
            } else {
                out++;
                if (depth > 0) depth--;
            }
        }
        integral += (double)depth * ((double)ts_end - last);
        integral /= ticks_per_ns;
        fprintf(f,
                "# queue %s/%s: in %lld, out %lld, left %lld, max depth %lld, mean depth %.6g, "
                "residence total %.0f ns, mean %.6g ns per message\n",
                types[i].name, types[j].name, in, out, depth, maxdepth, span > 0 ? integral / span : 0.0,
                integral, in ? integral / (double)in : 0.0);
    }
}

void report_log_finish(int rank)
{
    if (!active) return;
    active = 0;
    ts_end = source_now();
    for (int i = 0; i < ntypes; i++)
        if (types[i].registered) MPI_T_event_handle_free(types[i].reg, NULL, on_free);
    unsigned long n = __atomic_load_n(&next_slot, __ATOMIC_ACQUIRE);
    if (n > cap) n = cap;
    /* keep filled slots only (a callback may have been cut short) */
    unsigned long k = 0;
    for (unsigned long s = 0; s < n; s++)
        if (__atomic_load_n(&buf[s].type, __ATOMIC_ACQUIRE) > 0) buf[k++] = buf[s];
    n = k;
    qsort(buf, n, sizeof *buf, by_time);

    const char *dir = getenv("PAPI_MPIT_REPORT_DIR");
    if (!dir || !*dir) dir = ".";
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/mpit-events.%d.log", dir, rank);
    /* whole or not at all: a temporary name, renamed once complete */
    snprintf(tmp, sizeof tmp, "%s/.mpit-events.%d.log.tmp.%ld", dir, rank, (long)getpid());
    FILE *f = report_mkdir_p(dir) == 0 ? fopen(tmp, "w") : NULL;
    if (!f) {
        fprintf(stderr, PFX "event log: cannot write %s: %s\n", path, strerror(errno));
        goto out;
    }
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    PMPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0';
    for (char *c = version; *c; c++)
        if (*c == '\t') *c = ' ';
    fprintf(f, "# papi-mpit-report event log, rank %d, %s\n", rank, version);
    fprintf(f, "# %lu event instances, %lu dropped (buffer full), %lu dropped by the MPI\n", n, dropped_full,
            dropped_mpi);
    fprintf(f, "# columns: time_ns (since the log started, after MPI_Init) event element=value ...\n");
    for (int i = 0; i < ntypes; i++) {
        if (!types[i].registered) continue;
        fprintf(f, "# event type %d %s:", i, types[i].name);
        for (int e = 0; e < types[i].nelem; e++) fprintf(f, " %s", types[i].elem_name[e]);
        if (!types[i].readable) fputs(" (element data not readable in this MPI version)", f);
        fputc('\n', f);
    }
    for (unsigned long s = 0; s < n; s++) {
        const logrec_t *r = &buf[s];
        const evtype_t *t = &types[r->type - 1];
        fprintf(f, "%.0f %s", (double)(r->ts - ts_start) / ticks_per_ns, t->name);
        for (int e = 0; e < t->nelem; e++) print_element(f, t, e, r->data);
        fputc('\n', f);
    }
    queue_stats(f, buf, n);
    int bad = ferror(f);
    if (fclose(f) || bad || rename(tmp, path)) {
        fprintf(stderr, PFX "event log: cannot write %s: %s\n", path, bad ? "write error" : strerror(errno));
        unlink(tmp);
        goto out;
    }
    if (rank == 0)
        fprintf(stderr,
                PFX "event log: rank 0 logged %lu event instances (%lu dropped); per-rank logs in "
                    "%s/mpit-events.<rank>.log\n",
                n, dropped_full + dropped_mpi, dir);
out:
    free(buf);
    buf = NULL;
}

void report_log_after_finalize(void)
{
    if (mpit_inited) {
        mpit_inited = 0;
        MPI_T_finalize();
    }
}

#else /* no MPI_T events in this MPI's headers */

void report_log_start(int rank)
{
    if (log_wanted() && rank == 0)
        fprintf(stderr,
                PFX "event log: this MPI library's headers (MPI %d.%d) have no MPI_T events API: no log\n",
                MPI_VERSION, MPI_SUBVERSION);
}

void report_log_finish(int rank) { (void)rank; }
void report_log_after_finalize(void) {}

#endif
