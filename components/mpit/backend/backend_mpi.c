/*
 * mpit backend: the only code that sees an mpi.h.  It is compiled once per MPI
 * ABI family (Open MPI, MPICH) against that family's header and built as a
 * loadable module with MPI symbols left undefined: they resolve to the MPI
 * library the application already loaded, so libpapi never links libmpi.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../mpit_backend.h"
#include "backend_internal.h"
#include "family_quirks.h"

struct mpit_session {
    struct mpit_handle *handles; /* freed with the session: MPI_T_pvar_session_free does not */
    MPI_T_pvar_session session;
    int alive;                 /* 0 once MPI_T state was torn down at finalize */
    struct mpit_session *next; /* every live session, for the finalize sweep */
};

struct mpit_handle {
    struct mpit_handle *next_h; /* the session's handles */
    MPI_T_pvar_handle handle;
    mpit_session_t *owner;
    int never_stop; /* stopping it would stop more than itself (monitoring.c) */
};

static int mpit_initialized;
static atomic_int mpi_finalizing; /* set by the COMM_SELF delete callback */
static int self_keyval = MPI_KEYVAL_INVALID;
static mpit_session_t *sessions;
/* Event sets of several threads create and free sessions concurrently. */
static pthread_mutex_t sessions_lock = PTHREAD_MUTEX_INITIALIZER;
static mpit_finalize_hook_t finalize_hook;

/* The sessions the program said run (set_session_count): no PMPI_ call
 * tells them.  MPI_Initialized is false under MPI_Session_init alone, no
 * MPI_T call answers only inside a session (MPICH's variables and events
 * appear in MPI_Init as well, and stay after the last session ends). */
static int no_sessions(void) { return 0; }
static int (*_Atomic session_count)(void) = no_sessions;

static int mpi_state(void)
{
    int flag = 0;
    if (atomic_load_explicit(&mpi_finalizing, memory_order_acquire)) return MPIT_MPI_FINALIZED;
    PMPI_Finalized(&flag);
    if (flag) return MPIT_MPI_FINALIZED;
    PMPI_Initialized(&flag);
    if (flag) return MPIT_MPI_RUNNING;
    return atomic_load_explicit(&session_count, memory_order_acquire)() > 0 ? MPIT_MPI_SESSION
                                                                            : MPIT_MPI_NOT_STARTED;
}

static void set_session_count(int (*count)(void))
{
    atomic_store_explicit(&session_count, count ? count : no_sessions, memory_order_release);
}

/* MPI is about to end (MPI_Finalize, or the last MPI_Session_finalize):
 * free every pvar handle while MPI_T still works, and stop the front end
 * from reading storage MPI is about to free. */
static void tear_down(void)
{
    atomic_store_explicit(&mpi_finalizing, 1, memory_order_release);
    if (finalize_hook) finalize_hook();
    backend_events_release();
    /* claim the live sessions under the lock, free them outside it: no lock
     * is held across a call into MPI */
    for (;;) {
        MPI_T_pvar_session claimed = MPI_T_PVAR_SESSION_NULL;
        mpit_session_t *cs = NULL;
        int found = 0;
        pthread_mutex_lock(&sessions_lock);
        for (mpit_session_t *s = sessions; s && !found; s = s->next)
            if (s->alive) {
                claimed = s->session;
                s->alive = 0;
                found = 1;
                cs = s;
            }
        pthread_mutex_unlock(&sessions_lock);
        if (!found) break;
        /* Open MPI 4.1's session free destructs its handles without freeing them */
        for (struct mpit_handle *h = cs->handles; h; h = h->next_h)
            PMPI_T_pvar_handle_free(claimed, &h->handle);
        PMPI_T_pvar_session_free(&claimed);
    }
    if (mpit_initialized && backend_family.quirks.finalize_mpit_before_mpi) {
        PMPI_T_finalize();
        mpit_initialized = 0;
    }
}

/* Runs first thing in MPI_Finalize. */
static int on_self_delete(MPI_Comm comm, int keyval, void *attr, void *extra)
{
    (void)comm;
    (void)keyval;
    (void)attr;
    (void)extra;
    tear_down();
    return MPI_SUCCESS;
}

/* No MPI_COMM_SELF to hang on under sessions: the program's last
 * MPI_Session_finalize is told by papi_mpit_before_session_finalize. */
static void sessions_end(void)
{
    int initialized = 0;
    PMPI_Initialized(&initialized);
    if (!initialized && !atomic_load_explicit(&mpi_finalizing, memory_order_acquire)) tear_down();
}

/* Once MPI runs, hook MPI_Finalize through an attribute on MPI_COMM_SELF. */
static void watch_finalize(void)
{
    if (self_keyval != MPI_KEYVAL_INVALID || mpi_state() != MPIT_MPI_RUNNING) return;
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_self_delete, &self_keyval, NULL) == MPI_SUCCESS) {
        PMPI_Comm_set_attr(MPI_COMM_SELF, self_keyval, NULL);
        int k = self_keyval; /* the attribute keeps it alive; self_keyval stays as the "watching" mark */
        PMPI_Comm_free_keyval(&k);
    }
    backend_finalize_window_prepare();
}

static int init(char *why, size_t why_len)
{
    int provided = 0, required = MPI_THREAD_MULTIPLE, err;
    if (mpit_initialized) return MPIT_OK;
    if (mpi_state() == MPIT_MPI_FINALIZED) {
        snprintf(why, why_len, "MPI is already finalized; MPI_T cannot be used");
        return MPIT_ERR_GONE;
    }
    /* Open MPI 4.1 lets the first MPI_T_init_thread overwrite the process
     * thread level: pass the application's own level once MPI runs. */
    if (mpi_state() == MPIT_MPI_RUNNING) PMPI_Query_thread(&required);
    err = PMPI_T_init_thread(required, &provided);
    if (err != MPI_SUCCESS) {
        snprintf(why, why_len, "MPI_T_init_thread failed with MPI error %d", err);
        return MPIT_ERR_MPI;
    }
    mpit_initialized = 1;
    watch_finalize();
    return MPIT_OK;
}

static void shutdown_mpit(void)
{
    if (!mpit_initialized) return;
    int state = mpi_state();
    /* Open MPI 4.1 crashes in MPI_T_finalize after MPI_Finalize; MPICH frees
     * cvars still in use if MPI_T is finalized while MPI runs. */
    if (state == MPIT_MPI_RUNNING) backend_events_release();
    if ((state != MPIT_MPI_FINALIZED && backend_family.quirks.finalize_mpit_before_mpi) ||
        (state != MPIT_MPI_RUNNING && !backend_family.quirks.finalize_mpit_before_mpi)) {
        PMPI_T_finalize();
        mpit_initialized = 0;
    }
}

static void set_finalize_hook(mpit_finalize_hook_t hook) { finalize_hook = hook; }

static int pvar_num(int *num)
{
    watch_finalize();
    return backend_status(PMPI_T_pvar_get_num(num));
}

static int pvar_info(int index, mpit_pvar_info_t *info)
{
    int name_len = MPIT_NAME_LEN, desc_len = MPIT_DESC_LEN;
    int verbosity, var_class, bind, readonly, continuous, atomic;
    MPI_Datatype dtype;
    MPI_T_enum enumtype;
    int err = PMPI_T_pvar_get_info(index, info->name, &name_len, &verbosity, &var_class, &dtype, &enumtype,
                                   info->desc, &desc_len, &bind, &readonly, &continuous, &atomic);
    if (err != MPI_SUCCESS) return backend_status(err);
    info->name[MPIT_NAME_LEN - 1] = '\0';
    info->desc[MPIT_DESC_LEN - 1] = '\0';
    info->cls = backend_map_class(var_class);
    info->bind = backend_map_bind(bind);
    info->verbosity = backend_map_verbosity(verbosity);
    info->dtype = backend_map_dtype(dtype);
    info->readonly = readonly;
    info->continuous = continuous;
    info->atomic = atomic;
    return MPIT_OK;
}

static int pvar_index(const char *name, int cls, int *index)
{
    int mpi_class = backend_mpi_class(cls);
    if (mpi_class < 0) return MPIT_ERR_INVALID;
    return backend_status(PMPI_T_pvar_get_index(name, mpi_class, index));
}

static int session_create(mpit_session_t **out)
{
    mpit_session_t *s = calloc(1, sizeof *s);
    if (!s) return MPIT_ERR_MPI;
    if (mpi_state() == MPIT_MPI_FINALIZED) {
        free(s);
        return MPIT_ERR_GONE;
    }
    int err = PMPI_T_pvar_session_create(&s->session);
    if (err != MPI_SUCCESS) {
        free(s);
        return backend_status(err);
    }
    s->alive = 1;
    pthread_mutex_lock(&sessions_lock);
    s->next = sessions;
    sessions = s;
    pthread_mutex_unlock(&sessions_lock);
    *out = s;
    return MPIT_OK;
}

static void session_free(mpit_session_t *s)
{
    if (!s) return;
    pthread_mutex_lock(&sessions_lock);
    int mine = s->alive; /* else the finalize sweep freed it */
    s->alive = 0;
    for (mpit_session_t **p = &sessions; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    pthread_mutex_unlock(&sessions_lock);
    for (struct mpit_handle *h = s->handles, *n; h; h = n) {
        n = h->next_h;
        if (mine && mpi_state() != MPIT_MPI_FINALIZED) PMPI_T_pvar_handle_free(s->session, &h->handle);
        free(h);
    }
    if (mine && mpi_state() != MPIT_MPI_FINALIZED) PMPI_T_pvar_session_free(&s->session);
    free(s);
}

/* Before MPI_Init: what a name needs the MPI to collect from MPI_Init on. */
static void pvar_request(const char *name)
{
    backend_pvar_request(name);
    backend_monitoring_request(name);
}

static int handle_alloc(mpit_session_t *s, int index, int comm, mpit_handle_t **out, int *count)
{
    mpit_pvar_info_t info;
    int err = pvar_info(index, &info);
    if (err != MPIT_OK) return err;
    if (!s->alive || mpi_state() == MPIT_MPI_FINALIZED) return MPIT_ERR_GONE;
    void *obj = NULL;
    if (info.bind == MPIT_BIND_COMM) {
        if (mpi_state() != MPIT_MPI_RUNNING) return MPIT_ERR_NO_OBJECT;
        if (!(obj = backend_comm_object(comm))) return MPIT_ERR_NO_OBJECT;
    } else if (info.bind != MPIT_BIND_NONE) {
        return MPIT_ERR_NO_OBJECT;
    }
    mpit_handle_t *h = calloc(1, sizeof *h);
    if (!h) return MPIT_ERR_MPI;
    *count = 1; /* Open MPI leaves it unset for SPCs that are not attached */
    err = PMPI_T_pvar_handle_alloc(s->session, index, obj, &h->handle, count);
    if (err != MPI_SUCCESS) {
        free(h);
        return backend_status(err);
    }
    h->owner = s;
    h->never_stop = backend_is_monitoring(info.name);
    h->next_h = s->handles;
    s->handles = h;
    *out = h;
    return MPIT_OK;
}

static int handle_start(mpit_handle_t *h)
{
    if (!h->owner->alive) return MPIT_ERR_GONE;
    int err = PMPI_T_pvar_start(h->owner->session, h->handle);
    return err == MPI_T_ERR_PVAR_NO_STARTSTOP ? MPIT_OK : backend_status(err);
}

static int handle_stop(mpit_handle_t *h)
{
    if (!h->owner->alive) return MPIT_ERR_GONE;
    if (h->never_stop) return MPIT_OK;
    int err = PMPI_T_pvar_stop(h->owner->session, h->handle);
    return err == MPI_T_ERR_PVAR_NO_STARTSTOP ? MPIT_OK : backend_status(err);
}

static int handle_reset(mpit_handle_t *h)
{
    if (!h->owner->alive) return MPIT_ERR_GONE;
    return backend_status(PMPI_T_pvar_reset(h->owner->session, h->handle));
}

static int handle_read(mpit_handle_t *h, void *buf)
{
    if (!h->owner->alive) return MPIT_ERR_GONE;
    return backend_status(PMPI_T_pvar_read(h->owner->session, h->handle, buf));
}

/* An event set's handles and buffers side by side, so that the hot loop
 * reads two arrays and calls MPI, nothing else. */
struct mpit_batch {
    const mpit_session_t *owner;
    int n;
    MPI_T_pvar_handle *handles;
    void **bufs;
};

static mpit_batch_t *batch_create(mpit_handle_t *const *handles, void *const *bufs, int n)
{
    mpit_batch_t *b = calloc(1, sizeof *b);
    if (!b || n <= 0) return b;
    b->handles = calloc((size_t)n, sizeof *b->handles);
    b->bufs = calloc((size_t)n, sizeof *b->bufs);
    if (!b->handles || !b->bufs) {
        free(b->handles);
        free(b->bufs);
        free(b);
        return NULL;
    }
    b->owner = handles[0]->owner;
    b->n = n;
    for (int i = 0; i < n; i++) {
        b->handles[i] = handles[i]->handle;
        b->bufs[i] = bufs[i];
    }
    return b;
}

static int batch_read(const mpit_batch_t *b, uint64_t *failed)
{
    *failed = 0;
    if (b->n == 0) return MPIT_OK;
    if (!b->owner->alive) return MPIT_ERR_GONE;
    /* locals: the calls below cannot change them, the compiler cannot know */
    MPI_T_pvar_session session = b->owner->session;
    MPI_T_pvar_handle *const handles = b->handles;
    void **const bufs = b->bufs;
    const int n = b->n;
    uint64_t bad = 0; /* one failed read decides for its own variable only */
    for (int i = 0; i < n; i++)
        bad |= (uint64_t)(PMPI_T_pvar_read(session, handles[i], bufs[i]) != MPI_SUCCESS) << i;
    *failed = bad;
    return bad ? MPIT_ERR_MPI : MPIT_OK;
}

static void batch_free(mpit_batch_t *b)
{
    if (!b) return;
    free(b->handles);
    free(b->bufs);
    free(b);
}

static mpit_backend_t backend = {
    .abi = MPIT_BACKEND_ABI,
    .init = init,
    .shutdown = shutdown_mpit,
    .mpi_state = mpi_state,
    .set_finalize_hook = set_finalize_hook,
    .set_session_count = set_session_count,
    .sessions_end = sessions_end,
    .pvar_num = pvar_num,
    .pvar_info = pvar_info,
    .pvar_index = pvar_index,
    .pvar_request = pvar_request,
    .pvar_collecting = backend_pvar_collecting,
    .pvar_unavailable = backend_pvar_unavailable,
    .pvar_world_only = backend_pvar_world_only,
    .never_gives = backend_never_gives,
    .free_windows_left_open = backend_free_windows_left_open,
    .session_create = session_create,
    .session_free = session_free,
    .handle_alloc = handle_alloc,
    .handle_start = handle_start,
    .handle_stop = handle_stop,
    .handle_reset = handle_reset,
    .handle_read = handle_read,
    .batch_create = batch_create,
    .batch_read = batch_read,
    .batch_free = batch_free,
    .in_finalize_window = backend_in_finalize_window,
};

const mpit_backend_t *mpit_backend_entry(void);
const mpit_backend_t *mpit_backend_entry(void)
{
    backend_family_detect();
    backend.family = backend_family.name;
    backend.mpit_costly_before_mpi = backend_family.quirks.mpit_costly_before_mpi;
    backend_events_fill(&backend);
    return &backend;
}
