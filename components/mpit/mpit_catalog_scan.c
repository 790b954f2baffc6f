/*
 * The scan of the MPI's variables and events: MPI_T initialised once, what
 * MPI_T gained since the last scan gathered with no lock held, then merged
 * into the table under it (variables, event counters, portable metrics).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpit_catalog_internal.h"
#include "mpit_events.h"
#include "mpit_loader.h"
#include <unistd.h> /* getpid, in PAPI's debug label */

#include "papi_debug.h" /* SUBDBG: traces in PAPI debug builds (PAPI_DEBUG=SUBSTRATE) */

/* MPI_T_init_thread once, by the first thread to need it (under catalog_scan_lock,
 * so no other thread can find it in progress). */
static int ensure_mpit(const mpit_backend_t *b)
{
    char why[MPIT_WHY_LEN] = "";
    int expected = MPIT_INIT_NONE;
    if (atomic_compare_exchange_strong(&catalog_mpit_state, &expected, MPIT_INIT_BUSY)) {
        int ok = b->init(why, sizeof why) == MPIT_OK;
        snprintf(catalog_mpit_init_why, sizeof catalog_mpit_init_why, "%s", ok ? "" : why);
        atomic_store(&catalog_mpit_state, ok ? MPIT_INIT_DONE : MPIT_INIT_NONE);
        if (ok) {
            SUBDBG("mpit: MPI_T initialised\n");
        } else {
            SUBDBG("mpit: MPI_T cannot be initialised: %s\n", why);
        }
    }
    return atomic_load(&catalog_mpit_state) == MPIT_INIT_DONE;
}

/* When MPICH registers one name twice (a TIMER holding the time and a
 * COUNTER holding how many timings), the plain name is the one that means
 * most: lower rank wins. */
static int twin_rank(int cls)
{
    static const int rank[MPIT_CLASS_COUNT] = {
        [MPIT_CLASS_TIMER] = 0,        [MPIT_CLASS_COUNTER] = 1,    [MPIT_CLASS_AGGREGATE] = 2,
        [MPIT_CLASS_LEVEL] = 3,        [MPIT_CLASS_SIZE] = 4,       [MPIT_CLASS_HIGHWATERMARK] = 5,
        [MPIT_CLASS_LOWWATERMARK] = 6, [MPIT_CLASS_PERCENTAGE] = 7, [MPIT_CLASS_STATE] = 8,
        [MPIT_CLASS_GENERIC] = 9,
    };
    return cls >= 0 && cls < MPIT_CLASS_COUNT ? rank[cls] : MPIT_CLASS_COUNT;
}

static void scan_pvars(const scan_snapshot_t *snap)
{
    int from = atomic_load(&catalog_scanned);
    if (snap->num <= from) return;
    for (int i = from > snap->from ? from : snap->from; i < snap->num; i++) {
        /* Open MPI keeps stale indices of closed components: skip them. */
        if (!snap->valid[i - snap->from]) continue;
        const mpit_pvar_info_t *info = &snap->info[i - snap->from];
        if (catalog_find_variable(info->name, info->cls) >= 0) continue; /* re-registered */
        mpit_entry_t *e = catalog_new_entry(MPIT_KIND_PVAR, info->name);
        if (!e) break;
        e->info = *info;
        catalog_describe_pvar(e);
        catalog_note_counting_start(e);
        /* MPICH registers a TIMER and a COUNTER under one name: one keeps
         * the plain name, the other is named with its class.  Both arrive
         * in the same MPI_Init, before anyone can have looked the name up. */
        int twin = catalog_find_variable(info->name, -1);
        if (twin >= 0 && twin_rank(info->cls) < twin_rank(catalog_entries[twin]->info.cls)) {
            mpit_entry_t *t = catalog_entries[twin];
            t->parsed.cls = t->info.cls;
            mpit_name_format(&t->parsed, t->name, sizeof t->name);
        } else if (twin >= 0) {
            e->parsed.cls = info->cls;
        }
        mpit_name_format(&e->parsed, e->name, sizeof e->name);
        e->listed = 1;
        catalog_append(e);
    }
    atomic_store(&catalog_scanned, snap->num);
}

static void list_events(void)
{
    if (catalog_events_listed || !mpit_events_ready()) return;
    catalog_events_listed = 1;
    for (int i = 0; i < mpit_events_num_types(); i++) {
        const char *ev = mpit_events_type_name(i);
        int id = *ev ? mpit_events_find(ev) : -1;
        if (id < 0) continue;
        char name[MPIT_MAX_NAME];
        snprintf(name, sizeof name, "%s%s", event_prefix, ev);
        mpit_entry_t *e = catalog_new_entry(MPIT_KIND_EVENT, name);
        if (!e) return;
        catalog_fill_event_entry(e, id);
        snprintf(
            e->description, sizeof e->description,
            "Occurrences of the MPI_T event %s since start: %s (qualifiers :sum=<element>, :max=<element>)",
            ev, mpit_events_type_desc(i));
        e->units = "events";
        e->listed = 1;
        catalog_note_counting_start(e);
        catalog_append(e);
    }
    for (int id = 0; id < mpit_events_num_derived(); id++) {
        mpit_counter_info_t ci;
        if (mpit_events_counter_info(id, &ci) != 0) continue;
        char name[MPIT_MAX_NAME];
        snprintf(name, sizeof name, "%s%s", derived_prefix, ci.name);
        mpit_entry_t *e = catalog_new_entry(MPIT_KIND_EVENT, name);
        if (!e) return;
        catalog_fill_event_entry(e, id);
        e->listed = 1;
        catalog_note_counting_start(e);
        catalog_append(e);
    }
}

/* 1 unless the MPI does not keep this variable up to date (an SPC not
 * attached, a known defect of the release). */
static int maintained(const mpit_backend_t *b, int state, const char *name)
{
    char why[MPIT_WHY_LEN];
    return (!b->pvar_collecting || !mpit_mpi_live(state) || b->pvar_collecting(name)) &&
           !(b->pvar_unavailable && b->pvar_unavailable(name, why, sizeof why));
}

/* Once MPI runs, after a listing before MPI_Init: the variables listed
 * then that MPI_Init removed (Open MPI closes the components it does not
 * select, 4.1 its pml monitoring too), by name and class. */
static void find_vanished(const mpit_backend_t *b, scan_snapshot_t *snap)
{
    int n = atomic_load(&catalog_size), index;
    snap->vanished = calloc((size_t)n + 1, 1);
    if (!snap->vanished) return;
    for (int i = 0; i < n; i++)
        if (catalog_entries[i]->kind == MPIT_KIND_PVAR && catalog_entries[i]->listed)
            snap->vanished[i] =
                b->pvar_index(catalog_entries[i]->info.name, catalog_entries[i]->info.cls, &index) != MPIT_OK;
    snap->num_checked = n;
}

/* The MPI side of a rescan; 0 when MPI_T cannot be used now. */
static int collect(scan_snapshot_t *snap)
{
    const mpit_backend_t *b = mpit_backend();
    memset(snap, 0, sizeof *snap);
    if (!b || !ensure_mpit(b)) return 0;
    snap->state = b->mpi_state();
    if (snap->state == MPIT_MPI_FINALIZED) return 0;
    snap->from = atomic_load(&catalog_scanned);
    if (b->pvar_num(&snap->num) != MPIT_OK || snap->num < snap->from) snap->num = snap->from;
    int n = snap->num - snap->from;
    if (n > 0) {
        snap->info = malloc((size_t)n * sizeof *snap->info);
        snap->valid = calloc((size_t)n, 1);
        if (!snap->info || !snap->valid) n = 0, snap->num = snap->from;
        for (int i = 0; i < n; i++) snap->valid[i] = b->pvar_info(snap->from + i, &snap->info[i]) == MPIT_OK;
    }
    if (mpit_mpi_live(snap->state) && catalog_scanned_before_init && !atomic_load(&catalog_settled))
        find_vanished(b, snap);
    if (mpit_mpi_live(snap->state)) mpit_events_setup();
    for (int i = 0; i < mpit_num_metrics && i < (int)(sizeof snap->collecting / sizeof snap->collecting[0]);
         i++) {
        snap->never[i] = (unsigned char)catalog_metric_never(&mpit_metrics[i]);
        for (int k = 0; k < MPIT_METRIC_SOURCES; k++) {
            const mpit_metric_source_t *src = &mpit_metrics[i].sources[k];
            /* a variable the MPI does not maintain is no source either */
            snap->collecting[i][k] = src->kind == MPIT_SOURCE_PVAR && maintained(b, snap->state, src->name) &&
                                     (!src->level || maintained(b, snap->state, src->level)) &&
                                     !catalog_source_never(src);
        }
    }
    return 1;
}

static void merge_locked(const scan_snapshot_t *snap)
{
    if (!mpit_backend()) return;
    /* gone from MPI_T: no longer listed, nor a metric's source; a name
     * looked up is told so when it is bound */
    for (int i = 0; i < snap->num_checked; i++)
        if (snap->vanished[i] && catalog_entries[i]->listed) {
            SUBDBG("mpit: %s vanished from MPI_T in MPI_Init\n", catalog_entries[i]->name);
            catalog_entries[i]->listed = 0;
            catalog_num_listed--;
        }
    if (snap->state == MPIT_MPI_NOT_STARTED && snap->num > snap->from) catalog_scanned_before_init = 1;
    scan_pvars(snap);
    if (mpit_mpi_live(snap->state)) list_events();
    catalog_list_metrics(snap);
}

void catalog_rescan_locked(void)
{
    scan_snapshot_t *snap = malloc(sizeof *snap);
    if (!snap) return;
    if (collect(snap)) {
        pthread_mutex_lock(&catalog_lock);
        int before = atomic_load(&catalog_size);
        merge_locked(snap);
        int after = atomic_load(&catalog_size);
        pthread_mutex_unlock(&catalog_lock);
        if (after > before) {
            SUBDBG("mpit: rescan (MPI state %d): %d pvar indices, %d entries added, %d listed\n", snap->state,
                   snap->num, after - before, catalog_num_listed);
        }
    }
    free(snap->info);
    free(snap->valid);
    free(snap->vanished);
    free(snap);
}

void mpit_catalog_rescan(void)
{
    pthread_mutex_lock(&catalog_scan_lock);
    catalog_rescan_locked();
    pthread_mutex_unlock(&catalog_scan_lock);
}

/* A listing before MPI_Init initialised MPI_T on an MPI that reads its
 * parameters then (Open MPI registers every component's when MPI_T starts):
 * what a name asks the MPI for (monitoring on, an SPC attached) would come
 * too late for MPI_Init, and MPI_Init would close what the listing saw.  So
 * MPI_T is finalized again before a name waits for MPI_Init: MPI_Init then
 * starts from the parameters the names set, as it does without a listing,
 * and the catch-up starts MPI_T afresh (every index scanned again). */
void catalog_release_listing_mpit(const mpit_backend_t *b)
{
    pthread_mutex_lock(&catalog_scan_lock);
    if (atomic_load(&catalog_mpit_state) == MPIT_INIT_DONE && b->mpi_state() == MPIT_MPI_NOT_STARTED) {
        b->shutdown();
        atomic_store(&catalog_mpit_state, MPIT_INIT_NONE);
        atomic_store(&catalog_scanned, 0);
        SUBDBG("mpit: MPI_T finalized again before MPI_Init: names wait for it\n");
    }
    pthread_mutex_unlock(&catalog_scan_lock);
}
