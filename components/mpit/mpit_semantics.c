#include "mpit_semantics.h"

#include <fnmatch.h>
#include <stddef.h>

#include "mpit_backend.h"
#include "papi.h"

static const mpit_semantics_t class_table[MPIT_CLASS_COUNT] = {
    [MPIT_CLASS_COUNTER] = {MPIT_READ_DELTA, PAPI_VALUETYPE_RUNNING_SUM, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_CLASS_TIMER] = {MPIT_READ_DELTA, PAPI_VALUETYPE_RUNNING_SUM, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_CLASS_AGGREGATE] = {MPIT_READ_DELTA, PAPI_VALUETYPE_RUNNING_SUM, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_CLASS_LEVEL] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_CLASS_SIZE] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_CLASS_STATE] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_CLASS_PERCENTAGE] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_CLASS_GENERIC] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_CLASS_HIGHWATERMARK] = {MPIT_READ_HIGH, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_CLASS_LOWWATERMARK] = {MPIT_READ_LOW, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_SINCE_START},
};

const mpit_semantics_t *mpit_class_semantics(int cls)
{
    if (cls < 0 || cls >= MPIT_CLASS_COUNT) cls = MPIT_CLASS_GENERIC;
    return &class_table[cls];
}

static const mpit_semantics_t read_table[] = {
    [MPIT_READ_DELTA] = {MPIT_READ_DELTA, PAPI_VALUETYPE_RUNNING_SUM, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_READ_CURRENT] = {MPIT_READ_CURRENT, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_POINT},
    [MPIT_READ_HIGH] = {MPIT_READ_HIGH, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_SINCE_START},
    [MPIT_READ_LOW] = {MPIT_READ_LOW, PAPI_VALUETYPE_ABSOLUTE, PAPI_TIMESCOPE_SINCE_START},
};

const mpit_semantics_t *mpit_read_semantics(int read_kind)
{
    if (read_kind < MPIT_READ_DELTA || read_kind > MPIT_READ_LOW) read_kind = MPIT_READ_CURRENT;
    return &read_table[read_kind];
}

/* Open MPI registers every SPC as class SIZE; most are monotonic counters.
 * Order matters: the first match wins. */
static const mpit_pvar_override_t overrides[] = {
    {"runtime_spc_OMPI_SPC_MAX_*", MPIT_CLASS_HIGHWATERMARK, "messages",
     "Maximum since PAPI_start (Open MPI resets it on every MPI_T read; the component keeps the maximum)."},
    {"runtime_spc_OMPI_SPC_*_IN_QUEUE", MPIT_CLASS_LEVEL, "messages", NULL},
    {"runtime_spc_OMPI_SPC_MATCH_TIME", MPIT_CLASS_TIMER, "us",
     "Open MPI converts cycles to microseconds on read."},
    {"runtime_spc_OMPI_SPC_BYTES_*", MPIT_CLASS_COUNTER, "bytes", NULL},
    {"runtime_spc_OMPI_SPC_UNEXPECTED", MPIT_CLASS_COUNTER, "messages", NULL},
    {"runtime_spc_OMPI_SPC_OUT_OF_SEQUENCE", MPIT_CLASS_COUNTER, "messages", NULL},
    {"runtime_spc_OMPI_SPC_*", MPIT_CLASS_COUNTER, "calls", NULL},
    /* Open MPI's monitoring registers its per-peer totals since MPI_Init as
     * class SIZE: they only grow, so they are counters */
    {"pml_monitoring_messages_count", MPIT_CLASS_COUNTER, "messages",
     "One element per rank of MPI_COMM_WORLD; counted only with pml_monitoring_enable set before MPI_Init."},
    {"pml_monitoring_messages_size", MPIT_CLASS_COUNTER, "bytes",
     "One element per rank of MPI_COMM_WORLD; counted only with pml_monitoring_enable set before MPI_Init."},
    {"osc_monitoring_messages_*_count", MPIT_CLASS_COUNTER, "operations",
     "One element per rank of MPI_COMM_WORLD."},
    {"osc_monitoring_messages_*_size", MPIT_CLASS_COUNTER, "bytes",
     "One element per rank of MPI_COMM_WORLD."},
    {"coll_monitoring_messages_count", MPIT_CLASS_COUNTER, "messages",
     "One element per rank of MPI_COMM_WORLD; the volume each collective call states, not what its "
     "algorithm sends."},
    {"coll_monitoring_messages_size", MPIT_CLASS_COUNTER, "bytes",
     "One element per rank of MPI_COMM_WORLD; the volume each collective call states, not what its "
     "algorithm sends."},
};

const mpit_pvar_override_t *mpit_pvar_override(const char *name)
{
    for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++)
        if (fnmatch(overrides[i].pattern, name, 0) == 0) return &overrides[i];
    return NULL;
}

/* Derived units: first row whose class (or -1), datatype (or -1) and name
 * pattern all match. */
static const struct {
    int cls, dtype;
    const char *pattern;
    const char *units;
} unit_rules[] = {
    {-1, -1, "*[Bb][Yy][Tt][Ee][Ss]*", "bytes"},
    {MPIT_CLASS_TIMER, MPIT_TYPE_DOUBLE, "*", "s"},
    {MPIT_CLASS_TIMER, -1, "*", "ticks"},
    {MPIT_CLASS_PERCENTAGE, -1, "*", "%"},
    {-1, -1, "*msgq_length*", "messages"},
    {-1, -1, "*recvq_length*", "messages"},
    {-1, -1, "*match_attempts*", "attempts"},
    {MPIT_CLASS_STATE, -1, "*", "state"},
    {-1, -1, "*", "count"},
};

const char *mpit_pvar_units(const char *name, int cls, int dtype)
{
    for (size_t i = 0; i < sizeof unit_rules / sizeof unit_rules[0]; i++) {
        if (unit_rules[i].cls >= 0 && unit_rules[i].cls != cls) continue;
        if (unit_rules[i].dtype >= 0 && unit_rules[i].dtype != dtype) continue;
        if (fnmatch(unit_rules[i].pattern, name, 0) == 0) return unit_rules[i].units;
    }
    return "count";
}
