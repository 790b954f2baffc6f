/*
 * The catalog's table (see mpit_catalog.h): its state, shared by the
 * catalog's files through mpit_catalog_internal.h, and the entries appended,
 * found, listed and forgotten.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_loader.h"

pthread_mutex_t catalog_lock = PTHREAD_MUTEX_INITIALIZER;
/* One rescan at a time.  A thread that finds another scanning waits for it
 * and then sees what it found; MPI_T_init_thread is in the first one.  The
 * thread inside never waits on itself: the re-entry guard refuses a nested
 * call into the component before it gets here.  Order: catalog_scan_lock,
 * then catalog_lock. */
pthread_mutex_t catalog_scan_lock = PTHREAD_MUTEX_INITIALIZER;
/* The catch-up after MPI_Init has run (mpit_catalog_settle). */
atomic_int catalog_settled;
mpit_entry_t *catalog_entries[MPIT_CATALOG_MAX];
atomic_int catalog_size;
int catalog_num_listed;
atomic_int catalog_scanned;      /* MPI_T pvar indices looked at so far */
int catalog_scanned_before_init; /* variables were listed before MPI_Init */
int catalog_events_listed;       /* the event counters were appended */
unsigned char catalog_metric_listed[MPIT_METRICS_MAX];
int catalog_metric_code[MPIT_METRICS_MAX];              /* the listed entry of a metric */
unsigned char catalog_metric_settled[MPIT_METRICS_MAX]; /* its source was picked while MPI runs */
/* the last rescan's word on each metric source: the MPI maintains it */
unsigned char catalog_metric_collecting[MPIT_METRICS_MAX][MPIT_METRIC_SOURCES];
atomic_int catalog_mpit_state; /* MPIT_INIT_* */
/* Why MPI_T could not be initialised the last time it was tried, kept for
 * the names that fail because of it ("" when it worked). */
char catalog_mpit_init_why[MPIT_WHY_LEN];

void mpit_catalog_clear(void)
{
    pthread_mutex_lock(&catalog_lock);
    int n = atomic_load(&catalog_size);
    for (int i = 0; i < n; i++) {
        free(catalog_entries[i]);
        catalog_entries[i] = NULL;
    }
    atomic_store(&catalog_size, 0);
    atomic_store(&catalog_scanned, 0);
    atomic_store(&catalog_settled, 0);
    catalog_num_listed = catalog_events_listed = catalog_scanned_before_init = 0;
    memset(catalog_metric_listed, 0, sizeof catalog_metric_listed);
    memset(catalog_metric_settled, 0, sizeof catalog_metric_settled);
    const mpit_backend_t *b = mpit_backend();
    int ready = atomic_exchange(&catalog_mpit_state, MPIT_INIT_NONE) == MPIT_INIT_DONE;
    pthread_mutex_unlock(&catalog_lock);
    if (ready && b) b->shutdown(); /* calls MPI: outside the lock */
}

int mpit_catalog_num_listed(void) { return catalog_num_listed; }

/* The entry a code names: a resolved pending entry stands for the one its
 * name means. */
const mpit_entry_t *mpit_catalog_get(int code)
{
    if (code < 0 || code >= atomic_load(&catalog_size)) return NULL;
    int alias = __atomic_load_n(&catalog_entries[code]->alias, __ATOMIC_ACQUIRE);
    return alias ? catalog_entries[alias - 1] : catalog_entries[code];
}

int catalog_append(mpit_entry_t *e)
{
    int n = atomic_load(&catalog_size);
    if (n >= MPIT_CATALOG_MAX) {
        free(e);
        return -1;
    }
    if (e->listed) {
        e->base = n;
        catalog_num_listed++;
    }
    catalog_entries[n] = e;
    atomic_store(&catalog_size, n + 1); /* publish after the entry is complete */
    return n;
}

mpit_entry_t *catalog_new_entry(int kind, const char *name)
{
    mpit_entry_t *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->kind = kind;
    e->parsed.comm = MPIT_COMM_WORLD;
    e->parsed.elem = -1;
    e->parsed.peer = -1;
    e->parsed.cls = -1;
    snprintf(e->parsed.base, sizeof e->parsed.base, "%s", name);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->scale = 1;
    e->engine_id = -1;
    e->units = "";
    return e;
}

/* The listed pvar entry named name with class cls; with cls < 0 the one
 * listed under the plain name. */
int catalog_find_variable(const char *name, int cls)
{
    int n = atomic_load(&catalog_size), any = -1;
    for (int i = 0; i < n; i++) {
        const mpit_entry_t *e = catalog_entries[i];
        if (e->kind != MPIT_KIND_PVAR || !e->listed || strcmp(e->info.name, name) != 0) continue;
        if (cls >= 0 ? e->info.cls == cls : e->parsed.cls < 0) return i;
        if (cls < 0 && any < 0) any = i;
    }
    return any;
}

int mpit_catalog_next_listed(int code)
{
    int n = atomic_load(&catalog_size);
    for (int i = code + 1; i < n; i++)
        if (catalog_entries[i]->listed) return i;
    return -1;
}
