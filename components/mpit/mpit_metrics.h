/*
 * Portable metrics: one name, the same meaning on every MPI, mapped per
 * implementation to the best source the running MPI offers (like PAPI
 * presets for CPUs).  The mapping is the table in mpit_metrics.c.
 */
#ifndef MPIT_METRICS_H
#define MPIT_METRICS_H

#include <stdint.h>

enum mpit_source_kind {
    MPIT_SOURCE_NONE,
    MPIT_SOURCE_EVENT, /* a counter of the event engine ("unexpected_msgs") */
    MPIT_SOURCE_PVAR   /* an MPI_T performance variable */
};

#define MPIT_METRIC_SOURCES 6
#define MPIT_METRICS_MAX    64 /* rows the table may grow to (the catalog's per-metric flags) */

typedef struct mpit_metric_source {
    int kind;         /* enum mpit_source_kind */
    const char *name; /* engine counter or pvar name */
    int64_t scale;    /* multiply the source value (us -> ns: 1000) */
    /* A watermark mended by the queue it watches: name is a high-water mark
     * that follows the level `level`, which may be off by a constant from
     * the true queue length `length`.  Read as the larger of the watermark
     * plus (length - level) and the length itself. */
    const char *level, *length;
    int per_peer; /* an array with one element per rank of MPI_COMM_WORLD: :peer=N reads one */
} mpit_metric_source_t;

typedef struct mpit_metric {
    const char *name;
    const char *desc;
    const char *units;
    int read_kind;                                     /* enum mpit_read_kind, for pvar sources */
    mpit_metric_source_t sources[MPIT_METRIC_SOURCES]; /* best first */
    const char *needs;                                 /* what would provide it, for the error message */
    const char *cost; /* NULL, or why collecting it slows MPI down: left out of default lists */
} mpit_metric_t;

extern const mpit_metric_t mpit_metrics[];
extern const int mpit_num_metrics;

const mpit_metric_t *mpit_metric_find(const char *name);
/* NULL, or what the source counts apart from what its metric's name says. */
const char *mpit_metric_source_caveat(const char *source);

#endif
