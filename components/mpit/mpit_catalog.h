/*
 * The catalog: one append-only table of event descriptors, indexed by the
 * component's native event code, for the three kinds (MPI_T pvars, MPI_T
 * event counters, portable metrics).  Entries are never moved or removed, so
 * a code stays valid while MPI_T grows (rescans append) and readers need no
 * lock.
 */
#ifndef MPIT_CATALOG_H
#define MPIT_CATALOG_H

#include <stdint.h>

#include "mpit_backend.h"
#include "mpit_names.h"

#define MPIT_CATALOG_MAX 65536

/* Qualifiers listed under an event (PAPI_NTV_ENUM_UMASKS) have codes of
 * their own above the catalog's: the event's code plus (q + 1) shifted
 * here, for its q-th qualifier (from 0).  They name a qualified form; adding
 * one goes through the name, as a typed name does. */
#define MPIT_QUALIFIER_SHIFT         16
#define MPIT_QUALIFIER_CODE(code, q) ((code) | (((q) + 1) << MPIT_QUALIFIER_SHIFT))
#define MPIT_QUALIFIER_BASE(code)    ((code) & ((1 << MPIT_QUALIFIER_SHIFT) - 1))
#define MPIT_QUALIFIER_INDEX(code)   (((code) >> MPIT_QUALIFIER_SHIFT) - 1) /* -1: an event */
_Static_assert(MPIT_CATALOG_MAX <= 1 << MPIT_QUALIFIER_SHIFT,
               "catalog codes must fit below the qualifier bits");

enum mpit_entry_kind {
    MPIT_KIND_PVAR,   /* mpit:::<pvar name> */
    MPIT_KIND_EVENT,  /* mpit:::event.<event>, mpit:::derived.<counter> */
    MPIT_KIND_METRIC, /* mpit:::<PORTABLE_NAME> */
    MPIT_KIND_PENDING /* asked for before MPI_Init, not (yet) known */
};

typedef struct mpit_entry {
    char name[MPIT_MAX_NAME + 128]; /* canonical name, qualifiers included */
    mpit_name_t parsed;
    int kind;   /* enum mpit_entry_kind */
    int listed; /* shown by enumeration */
    int base;   /* code of the listed entry it refines */
    /* how a read gets its value */
    int source;            /* enum mpit_source_kind */
    mpit_pvar_info_t info; /* MPIT_SOURCE_PVAR: the variable as MPI_T reported it */
    int cls;               /* class the component treats the pvar as */
    int engine_id;         /* MPIT_SOURCE_EVENT: engine counter */
    int read_kind;         /* enum mpit_read_kind */
    int64_t scale;         /* integer multiplier of the source value */
    int is_float;          /* value is a double (PAPI_DATATYPE_FP64) */
    const char *units;
    char description[MPIT_DESC_LEN + 256];
    char unusable[MPIT_NAME_LEN + 256]; /* non-empty: why it cannot be added */
    /* a mended watermark (mpit_metric_source_t.level): the level and the
     * length read beside it, by name and class */
    int mended;
    int mend_code[2];      /* catalog codes of the level and the length */
    int resolve_err;       /* pending, and MPI_Init did not bring it: the PAPI error */
    char resolve_why[512]; /* and why */
    /* pending and resolved: 1 + the code of the one entry its name means
     * (the catch-up sets it once, release; mpit_catalog_get follows it), so
     * that a name is one entry, whole, however and whenever it was given */
    int alias;
} mpit_entry_t;

void mpit_catalog_clear(void);

/* Appends what MPI_T gained since the last scan (cheap when nothing). */
void mpit_catalog_rescan(void);

int mpit_catalog_num_listed(void);
const mpit_entry_t *mpit_catalog_get(int code);

/* Name -> code.  Returns a PAPI error code; why gets a sentence on failure. */
int mpit_catalog_lookup(const char *text, int *code, char *why, int why_len);

/* Next listed entry after code (-1 for the first); -1 when there is none. */
int mpit_catalog_next_listed(int code);

/* The q-th qualifier (from 0) listed under the event with this code: its
 * full name (the event's canonical name qualified) and what it does; 0, or
 * -1 when the event has no q-th qualifier. */
int mpit_catalog_qualifier(int code, int q, char *name, int name_len, char *what, int what_len);

/* 1 while names wait for MPI_Init: before it, on an MPI whose
 * MPI_T_init_thread costs far more then and whose variables MPI_Init
 * replaces (Open MPI), whether or not a listing has initialised MPI_T.
 * Names are then accepted pending (their sources requested from the MPI)
 * and bound from zero once MPI runs; no MPI_T session exists yet. */
int mpit_catalog_mpit_deferred(void);
/* A process that only lists (MPI loaded by us, never initialised) does not defer. */
void mpit_catalog_allow_deferral(int allowed);

/* The catch-up after MPI_Init, one step for the whole process: MPI_T
 * initialised, every variable and event scanned, the portable metrics
 * mapped and every name accepted pending resolved.  The first thread to
 * arrive once MPI runs does it; others wait for it, then see the finished
 * state; later calls are one atomic load.  Never call it from a signal
 * handler.  Returns 1 when done, 0 while MPI does not run. */
int mpit_catalog_settle(void);

/* Turns a pending entry into a real one if MPI_T has it now: 0 when it is
 * real, else a PAPI error with why. */
int mpit_catalog_resolve(int code, char *why, int why_len);

#endif
