/*
 * The catalog: one append-only table of event descriptors, indexed by the
 * component's native event code.  Entries are never moved or removed, so a
 * code stays valid while MPI_T grows (rescans append) and readers need no lock.
 */
#ifndef MPIT_CATALOG_H
#define MPIT_CATALOG_H

#include "mpit_backend.h"
#include "mpit_names.h"

#define MPIT_CATALOG_MAX 65536

enum mpit_family {
    MPIT_FAMILY_PVAR,    /* an MPI_T performance variable */
    MPIT_FAMILY_PENDING  /* a name asked for before MPI_Init, not (yet) known */
};

typedef struct mpit_entry {
    char name[MPIT_MAX_NAME + 128]; /* canonical name, qualifiers included */
    mpit_name_t parsed;
    int family;                 /* enum mpit_family */
    int listed;                 /* shown by enumeration (one per variable) */
    int base;                   /* code of the unqualified entry it refines */
    /* pvars */
    mpit_pvar_info_t info;      /* as MPI_T reported it */
    int cls;                    /* class the component treats it as */
    const char *units;
    char description[MPIT_DESC_LEN + 256];
    char unusable[MPIT_NAME_LEN + 256];         /* non-empty: why it cannot be added */
} mpit_entry_t;

void mpit_catalog_init(const mpit_backend_t *backend);
void mpit_catalog_clear(void);

/* Appends variables MPI_T gained since the last scan (cheap when none). */
void mpit_catalog_rescan(void);

int mpit_catalog_size(void);
const mpit_entry_t *mpit_catalog_get(int code);

/* Name -> code.  Returns a PAPI error code; why gets a sentence on failure. */
int mpit_catalog_lookup(const char *text, int *code, char *why, int why_len);

/* Next listed entry after code (-1 for the first); -1 when there is none. */
int mpit_catalog_next_listed(int code);

/* Turns a pending entry into a pvar entry if MPI_T has it now; 0 if it has. */
int mpit_catalog_resolve(int code);

#endif
