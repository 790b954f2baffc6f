/*
 * MPI -> mpit translations of the backend: error codes, pvar classes,
 * bindings, verbosity levels and datatypes.  Tables, not branches: the
 * constants differ between MPI families, the tables do not.
 */
#include <mpi.h>

#include "../mpit_backend.h"
#include "backend_internal.h"

int backend_status(int err)
{
    if (err == MPI_SUCCESS) return MPIT_OK;
    if (err == MPI_T_ERR_INVALID_INDEX || err == MPI_T_ERR_INVALID) return MPIT_ERR_INVALID;
    if (err == MPI_T_ERR_INVALID_NAME) return MPIT_ERR_NOT_FOUND;
    return MPIT_ERR_MPI;
}

/* MPI_T class constants differ between families; this table maps them. */
static const struct {
    int mpi;
    int ours;
} class_map[] = {
    {MPI_T_PVAR_CLASS_STATE, MPIT_CLASS_STATE},
    {MPI_T_PVAR_CLASS_LEVEL, MPIT_CLASS_LEVEL},
    {MPI_T_PVAR_CLASS_SIZE, MPIT_CLASS_SIZE},
    {MPI_T_PVAR_CLASS_PERCENTAGE, MPIT_CLASS_PERCENTAGE},
    {MPI_T_PVAR_CLASS_HIGHWATERMARK, MPIT_CLASS_HIGHWATERMARK},
    {MPI_T_PVAR_CLASS_LOWWATERMARK, MPIT_CLASS_LOWWATERMARK},
    {MPI_T_PVAR_CLASS_COUNTER, MPIT_CLASS_COUNTER},
    {MPI_T_PVAR_CLASS_AGGREGATE, MPIT_CLASS_AGGREGATE},
    {MPI_T_PVAR_CLASS_TIMER, MPIT_CLASS_TIMER},
    {MPI_T_PVAR_CLASS_GENERIC, MPIT_CLASS_GENERIC},
};

static const struct {
    int mpi;
    int ours;
} bind_map[] = {
    {MPI_T_BIND_NO_OBJECT, MPIT_BIND_NONE},      {MPI_T_BIND_MPI_COMM, MPIT_BIND_COMM},
    {MPI_T_BIND_MPI_WIN, MPIT_BIND_WIN},         {MPI_T_BIND_MPI_FILE, MPIT_BIND_FILE},
    {MPI_T_BIND_MPI_REQUEST, MPIT_BIND_REQUEST},
};

static const struct {
    int mpi;
    int ours;
} verbosity_map[] = {
    {MPI_T_VERBOSITY_USER_BASIC, 0},   {MPI_T_VERBOSITY_USER_DETAIL, 1},   {MPI_T_VERBOSITY_USER_ALL, 2},
    {MPI_T_VERBOSITY_TUNER_BASIC, 3},  {MPI_T_VERBOSITY_TUNER_DETAIL, 4},  {MPI_T_VERBOSITY_TUNER_ALL, 5},
    {MPI_T_VERBOSITY_MPIDEV_BASIC, 6}, {MPI_T_VERBOSITY_MPIDEV_DETAIL, 7}, {MPI_T_VERBOSITY_MPIDEV_ALL, 8},
};

#define MAP(table, value, fallback) map_int(table, sizeof table / sizeof table[0], value, fallback)
static int map_int(const void *table, size_t n, int value, int fallback);
int backend_map_class(int mpi_class) { return MAP(class_map, mpi_class, MPIT_CLASS_GENERIC); }
int backend_map_bind(int mpi_bind) { return MAP(bind_map, mpi_bind, MPIT_BIND_OTHER); }
int backend_map_verbosity(int v) { return MAP(verbosity_map, v, 8); }
static int map_int(const void *table, size_t n, int value, int fallback)
{
    const struct {
        int mpi;
        int ours;
    } *t = table;
    for (size_t i = 0; i < n; i++)
        if (t[i].mpi == value) return t[i].ours;
    return fallback;
}

int backend_mpi_class(int ours)
{
    for (size_t i = 0; i < sizeof class_map / sizeof class_map[0]; i++)
        if (class_map[i].ours == ours) return class_map[i].mpi;
    return -1;
}

/* Datatype handles are pointers in Open MPI and ints in MPICH: compare. */
int backend_map_dtype(MPI_Datatype t)
{
    if (t == MPI_INT) return MPIT_TYPE_INT;
    if (t == MPI_UNSIGNED) return MPIT_TYPE_UNSIGNED;
    if (t == MPI_LONG) return MPIT_TYPE_LONG;
    if (t == MPI_UNSIGNED_LONG) return MPIT_TYPE_UNSIGNED_LONG;
    if (t == MPI_LONG_LONG || t == MPI_LONG_LONG_INT) return MPIT_TYPE_LONG_LONG;
    if (t == MPI_UNSIGNED_LONG_LONG) return MPIT_TYPE_UNSIGNED_LONG_LONG;
    if (t == MPI_DOUBLE) return MPIT_TYPE_DOUBLE;
    if (t == MPI_COUNT) return MPIT_TYPE_COUNT_T;
    if (t == MPI_CHAR) return MPIT_TYPE_CHAR;
    /* fixed widths (Open MPI 6.0's event elements), as the C types of that
     * width on the LP64 systems MPI runs on */
    if (t == MPI_INT32_T) return MPIT_TYPE_INT;
    if (t == MPI_UINT32_T) return MPIT_TYPE_UNSIGNED;
    if (t == MPI_INT64_T) return MPIT_TYPE_LONG_LONG;
    if (t == MPI_UINT64_T) return MPIT_TYPE_UNSIGNED_LONG_LONG;
    return MPIT_TYPE_UNKNOWN;
}
