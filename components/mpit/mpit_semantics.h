/* What a read of an mpit event returns, by MPI_T class (the component
 * README, "Event Names": counters count since start, levels are current,
 * watermarks are extremes since start), and the per-name corrections for
 * variables whose declared class misleads. */
#ifndef MPIT_SEMANTICS_H
#define MPIT_SEMANTICS_H

enum mpit_read_kind {
    MPIT_READ_DELTA,   /* value now minus value at start or reset */
    MPIT_READ_CURRENT, /* value now */
    MPIT_READ_HIGH,    /* maximum since start */
    MPIT_READ_LOW      /* minimum since start */
};

typedef struct mpit_semantics {
    int read_kind;  /* enum mpit_read_kind */
    int value_type; /* PAPI_VALUETYPE_* */
    int timescope;  /* PAPI_TIMESCOPE_* */
} mpit_semantics_t;

const mpit_semantics_t *mpit_class_semantics(int cls);
/* PAPI's value_type and timescope for a read kind. */
const mpit_semantics_t *mpit_read_semantics(int read_kind);

/* A correction for a pvar known by name (Open MPI publishes SPCs as SIZE). */
typedef struct mpit_pvar_override {
    const char *pattern; /* fnmatch pattern on the pvar name */
    int cls;             /* class to treat it as, -1 to keep */
    const char *units;   /* NULL: derive */
    const char *note;    /* appended to the description, NULL for none */
} mpit_pvar_override_t;

/* First override whose pattern matches name, or NULL. */
const mpit_pvar_override_t *mpit_pvar_override(const char *name);

/* Units for a pvar with no override: from its class, datatype and name. */
const char *mpit_pvar_units(const char *name, int cls, int dtype);

#endif
