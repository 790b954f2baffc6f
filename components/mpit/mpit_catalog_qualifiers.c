/*
 * The qualifiers listed under an event (PAPI_NTV_ENUM_UMASKS): each a
 * qualified name and what it does.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_events.h"
#include "mpit_loader.h"
#include "mpit_semantics.h"

/* ---- qualifiers listed under events ------------------------------------ */

/* Variables: :comm=self where bound to a communicator, :elem= for every one
 * (whether MPI_T gives an array is known only once a handle exists), and
 * under the plain name of an MPICH twin the other classes registered with
 * it (listed too, as events of their own). */
static int pvar_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    mpit_name_t p = e->parsed;
    int k = 0;
    if (e->unusable[0]) return -1;
    const mpit_backend_t *b = mpit_backend();
    int self_ok =
        e->info.bind == MPIT_BIND_COMM && !(b && b->pvar_world_only && b->pvar_world_only(e->info.name));
    if (self_ok && k++ == q) {
        p.comm = MPIT_COMM_SELF;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len, "bound to MPI_COMM_SELF (this process alone) instead of MPI_COMM_WORLD");
        return 0;
    }
    if (k++ == q) {
        p.elem = 0;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len,
                 "element 0 only (:elem=N: element N) of a variable MPI_T gives as an array, "
                 "e.g. one value per peer; the plain name sums the elements");
        return 0;
    }
    if (e->parsed.cls >= 0) return -1;
    int n = atomic_load(&catalog_size);
    for (int i = 0; i < n; i++) {
        const mpit_entry_t *t = catalog_entries[i];
        if (t == e || t->kind != MPIT_KIND_PVAR || !t->listed || t->parsed.cls < 0 ||
            strcmp(t->info.name, e->info.name) != 0 || k++ != q)
            continue;
        p.cls = t->parsed.cls;
        mpit_name_format(&p, name, name_len);
        snprintf(what, what_len, "the variable of MPI_T class %s registered under the same name",
                 mpit_class_name(p.cls));
        return 0;
    }
    return -1;
}

/* event.<name>: :sum= and :max= of each integer element. */
static int event_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    const char *type = e->parsed.base + sizeof event_prefix - 1;
    int t = 0, k = 0;
    if (strncmp(e->parsed.base, event_prefix, sizeof event_prefix - 1) != 0) return -1;
    while (t < mpit_events_num_types() && strcmp(mpit_events_type_name(t), type) != 0) t++;
    for (int el = 0; el < MPIT_EVENT_MAX_ELEMS; el++) {
        const char *elem = mpit_events_summable_element(t, el);
        if (!elem) continue;
        for (int agg = MPIT_AGG_SUM; agg <= MPIT_AGG_MAX; agg++) {
            if (k++ != q) continue;
            mpit_name_t p = e->parsed;
            p.agg = agg;
            snprintf(p.agg_elem, sizeof p.agg_elem, "%s", elem);
            mpit_name_format(&p, name, name_len);
            if (agg == MPIT_AGG_SUM)
                snprintf(what, what_len, "sum of element %s over the events since start", elem);
            else
                snprintf(what, what_len, "largest value of element %s in the events since start", elem);
            return 0;
        }
    }
    return -1;
}

/* A portable metric with a source per peer: :peer=N. */
static int metric_qualifier(const mpit_entry_t *e, int q, char *name, int name_len, char *what, int what_len)
{
    const mpit_metric_t *m = mpit_metric_find(e->parsed.base);
    mpit_entry_t tmp;
    if (q != 0 || !m) return -1;
    pthread_mutex_lock(&catalog_lock);
    int has = catalog_pick_metric_source(m, catalog_metric_collecting[m - mpit_metrics], 1, &tmp) == 0;
    pthread_mutex_unlock(&catalog_lock);
    if (!has) return -1;
    mpit_name_t p = e->parsed;
    p.peer = 0;
    mpit_name_format(&p, name, name_len);
    snprintf(what, what_len,
             "rank 0 of MPI_COMM_WORLD only (:peer=N: rank N), from %s; the plain name sums every peer",
             tmp.info.name);
    return 0;
}

int mpit_catalog_qualifier(int code, int q, char *name, int name_len, char *what, int what_len)
{
    const mpit_entry_t *e = mpit_catalog_get(code);
    if (!e || !e->listed || q < 0) return -1;
    if (e->kind == MPIT_KIND_PVAR) return pvar_qualifier(e, q, name, name_len, what, what_len);
    if (e->kind == MPIT_KIND_EVENT) return event_qualifier(e, q, name, name_len, what, what_len);
    if (e->kind == MPIT_KIND_METRIC) return metric_qualifier(e, q, name, name_len, what, what_len);
    return -1; /* derived counters take none */
}
