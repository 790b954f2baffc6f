/*
 * Shared between the catalog's files (not an interface: mpit_catalog.h is).
 * The order of use has no cycle: mpit_catalog_lookup.c uses the scan, the
 * scan uses the choice of metric sources, and all use the table
 * (mpit_catalog.c) and the entries' descriptions (mpit_catalog_describe.c).
 */
#ifndef MPIT_CATALOG_INTERNAL_H
#define MPIT_CATALOG_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "mpit_backend.h"
#include "mpit_catalog.h"
#include "mpit_metrics.h"

/* MPI_T_init_thread: 0 not tried, 1 in progress, 2 done, 3 failed */
enum { MPIT_INIT_NONE, MPIT_INIT_BUSY, MPIT_INIT_DONE, MPIT_INIT_FAILED };

/* What a rescan learns from MPI, gathered with no lock held (MPI may take
 * its own locks, and a tool may interrupt us there) and merged under it. */
typedef struct scan_snapshot {
    int state;              /* enum mpit_mpi_state */
    int from, num;          /* pvar indices [from, num) */
    mpit_pvar_info_t *info; /* num - from entries */
    unsigned char *valid;   /* info[i] could be read */
    /* metric i, source s is a pvar the MPI collects */
    unsigned char collecting[MPIT_METRICS_MAX][MPIT_METRIC_SOURCES];
    unsigned char never[MPIT_METRICS_MAX]; /* metric i: no source can ever come (metric_never) */
    int num_checked;                       /* entries [0, num_checked) were looked for in MPI_T */
    unsigned char *vanished;               /* entry i is a variable MPI_T no longer has */
} scan_snapshot_t;

static const char event_prefix[] = "event.";
static const char derived_prefix[] = "derived.";

/* ---- the table and its state (mpit_catalog.c) ------------------------- */

extern pthread_mutex_t catalog_lock;
extern pthread_mutex_t catalog_scan_lock;
extern atomic_int catalog_settled;
extern mpit_entry_t *catalog_entries[MPIT_CATALOG_MAX];
extern atomic_int catalog_size;
extern int catalog_num_listed;
extern atomic_int catalog_scanned;
extern int catalog_scanned_before_init;
extern int catalog_events_listed;
extern unsigned char catalog_metric_listed[MPIT_METRICS_MAX];
extern int catalog_metric_code[MPIT_METRICS_MAX];
extern unsigned char catalog_metric_settled[MPIT_METRICS_MAX];
extern unsigned char catalog_metric_collecting[MPIT_METRICS_MAX][MPIT_METRIC_SOURCES];
extern atomic_int catalog_mpit_state;
extern char catalog_mpit_init_why[MPIT_WHY_LEN];

int catalog_append(mpit_entry_t *e);
mpit_entry_t *catalog_new_entry(int kind, const char *name);
/* The listed pvar entry named name with class cls; with cls < 0 the one
 * listed under the plain name. */
int catalog_find_variable(const char *name, int cls);

/* ---- what an entry says of itself (mpit_catalog_describe.c) ----------- */

void catalog_note_counting_start(mpit_entry_t *e);
/* Fills the derived fields of a pvar entry from its MPI_T info. */
void catalog_describe_pvar(mpit_entry_t *e);
void catalog_fill_event_entry(mpit_entry_t *e, int id);

/* ---- a portable metric's source (mpit_catalog_sources.c) -------------- */

/* The first source of metric m that this MPI has (per_peer: the first with
 * one element per rank): fills e; 0 if found. */
int catalog_pick_metric_source(const mpit_metric_t *m, const unsigned char *collecting, int per_peer,
                               mpit_entry_t *e);
int catalog_source_never(const mpit_metric_source_t *src);
int catalog_metric_never(const mpit_metric_t *m);
void catalog_metric_unavailable(const mpit_metric_t *m, char *why, size_t why_len);
const char *catalog_metric_defect(const mpit_metric_t *m, char *buf, size_t len);
void catalog_list_metrics(const scan_snapshot_t *snap);

/* ---- the scan of MPI_T (mpit_catalog_scan.c) --------------------------- */

/* A rescan; the caller holds catalog_scan_lock. */
void catalog_rescan_locked(void);
void catalog_release_listing_mpit(const mpit_backend_t *b);

#endif
