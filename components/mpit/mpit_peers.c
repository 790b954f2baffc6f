/*
 * Traffic by peer (papi_mpit.h): whole vectors of Open MPI's monitoring
 * variables, one element per rank of MPI_COMM_WORLD, which a PAPI event set
 * (64 mpit events at most) cannot carry.  Counts since papi_mpit_peers_start,
 * as differences of reads: the monitoring handles are never stopped (one
 * stop stops all monitoring of the process, backend/monitoring.c).  One
 * user at a time (the report tool), one thread.
 */
#include "papi_mpit.h"

#include <stdlib.h>
#include <string.h>

#include "mpit_catalog.h"
#include "mpit_guard.h"
#include "mpit_loader.h"
#include "mpit_values.h"
#include "mpit_warn.h"
#include "papi.h"

/* the variable behind each kind (enum papi_mpit_peers_kind) */
static const char *const variables[PAPI_MPIT_PEERS_KINDS] = {
    [PAPI_MPIT_PEERS_MSGS] = "pml_monitoring_messages_count",
    [PAPI_MPIT_PEERS_BYTES] = "pml_monitoring_messages_size",
    [PAPI_MPIT_PEERS_COLL_MSGS] = "coll_monitoring_messages_count",
    [PAPI_MPIT_PEERS_COLL_BYTES] = "coll_monitoring_messages_size",
    [PAPI_MPIT_PEERS_RMA_BYTES_SENT] = "osc_monitoring_messages_sent_size",
    [PAPI_MPIT_PEERS_RMA_BYTES_RECEIVED] = "osc_monitoring_messages_recv_size",
};

static int started;
static mpit_session_t *session;
static struct peer_vector {
    mpit_handle_t *handle; /* NULL: the MPI does not have it */
    int count, dtype;
    void *raw;
    uint64_t *start;
} vec[PAPI_MPIT_PEERS_KINDS];

static int bind_kind(int k)
{
    int index, cls = -1;
    const char *name = variables[k];
    char why[MPIT_WHY_LEN];
    /* a variable of a known defect reads as a measurement it is not */
    if (mpit_backend()->pvar_unavailable && mpit_backend()->pvar_unavailable(name, why, sizeof why))
        return -1;
    for (int c = 0; c < MPIT_CLASS_COUNT && cls < 0; c++)
        if (mpit_backend()->pvar_index(name, c, &index) == MPIT_OK) cls = c;
    if (cls < 0) return -1;
    struct peer_vector *v = &vec[k];
    if (mpit_backend()->handle_alloc(session, index, MPIT_COMM_WORLD, &v->handle, &v->count) != MPIT_OK) {
        v->handle = NULL;
        return -1;
    }
    mpit_backend()->handle_start(v->handle);
    mpit_pvar_info_t info;
    v->dtype = mpit_backend()->pvar_info(index, &info) == MPIT_OK ? info.dtype : MPIT_TYPE_UNSIGNED_LONG_LONG;
    size_t width = mpit_dtype_size(v->dtype);
    v->raw = calloc((size_t)(v->count > 0 ? v->count : 1), width ? width : 8);
    v->start = calloc((size_t)(v->count > 0 ? v->count : 1), sizeof *v->start);
    if (!v->raw || !v->start || mpit_backend()->handle_read(v->handle, v->raw) != MPIT_OK) return -1;
    for (int i = 0; i < v->count; i++)
        v->start[i] = (uint64_t)mpit_value_extract(v->raw, v->dtype, v->count, i).i;
    return 0;
}

static void release(void)
{
    for (int k = 0; k < PAPI_MPIT_PEERS_KINDS; k++) {
        free(vec[k].raw);
        free(vec[k].start);
        memset(&vec[k], 0, sizeof vec[k]);
    }
    if (session && mpit_backend() && mpit_backend()->mpi_state() != MPIT_MPI_FINALIZED)
        mpit_backend()->session_free(session);
    session = NULL;
    started = 0;
}

static int start_unguarded(void)
{
    if (started) return PAPI_EISRUN;
    if (!mpit_backend() || mpit_backend()->mpi_state() != MPIT_MPI_RUNNING) {
        mpit_warn("peers: MPI is not running (call between MPI_Init and MPI_Finalize)");
        return PAPI_ENOINIT;
    }
    mpit_catalog_settle();
    if (mpit_backend()->session_create(&session) != MPIT_OK) return PAPI_ESYS;
    int any = 0;
    for (int k = 0; k < PAPI_MPIT_PEERS_KINDS; k++) {
        if (bind_kind(k) == 0)
            any = 1;
        else {
            free(vec[k].raw);
            free(vec[k].start);
            memset(&vec[k], 0, sizeof vec[k]);
        }
    }
    if (!any) {
        release();
        /* a known defect of the release says more than what is needed */
        char defect[MPIT_WHY_LEN] = "";
        const mpit_backend_t *b = mpit_backend();
        for (int k = 0; k < PAPI_MPIT_PEERS_KINDS && !defect[0]; k++)
            if (b->pvar_unavailable && !b->pvar_unavailable(variables[k], defect, sizeof defect))
                defect[0] = '\0';
        if (defect[0])
            mpit_warn("peers: the running %s has no traffic by peer: %s", b->family, defect);
        else
            mpit_warn(
                "peers: the running %s has no traffic by peer: it needs Open MPI with its monitoring on "
                "(pml_monitoring_enable=2 before MPI_Init, the monitoring PML admitted)",
                b->family);
        return PAPI_ENOEVNT;
    }
    started = 1;
    return PAPI_OK;
}

static int read_unguarded(int kind, long long *values, int max)
{
    if (!started) return PAPI_ENOTRUN;
    if (kind < 0 || kind >= PAPI_MPIT_PEERS_KINDS || max < 0) return PAPI_EINVAL;
    struct peer_vector *v = &vec[kind];
    if (!v->handle) return PAPI_ENOEVNT;
    if (mpit_backend()->mpi_state() != MPIT_MPI_RUNNING ||
        mpit_backend()->handle_read(v->handle, v->raw) != MPIT_OK)
        return PAPI_ECMP;
    for (int i = 0; i < max; i++)
        values[i] =
            i < v->count
                ? (long long)((uint64_t)mpit_value_extract(v->raw, v->dtype, v->count, i).i - v->start[i])
                : 0;
    return PAPI_OK;
}

static int size_unguarded(int kind)
{
    if (!started) return PAPI_ENOTRUN;
    if (kind < 0 || kind >= PAPI_MPIT_PEERS_KINDS) return PAPI_EINVAL;
    return vec[kind].handle ? vec[kind].count : PAPI_ENOEVNT;
}

static int stop_unguarded(void)
{
    if (!started) return PAPI_ENOTRUN;
    release();
    return PAPI_OK;
}

int papi_mpit_peers_start(void) { GUARDED(start_unguarded()); }

int papi_mpit_peers_count(int kind) { GUARDED(size_unguarded(kind)); }

int papi_mpit_peers_read(int kind, long long *values, int max)
{
    if (!values && max > 0) return PAPI_EINVAL;
    GUARDED(read_unguarded(kind, values, max));
}

int papi_mpit_peers_stop(void) { GUARDED(stop_unguarded()); }
