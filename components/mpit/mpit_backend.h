/*
 * The boundary between the mpit front end (PAPI side, no MPI types) and a
 * backend compiled against one MPI family's mpi.h and loaded at run time.
 * Everything crossing it is plain C: our own enums for classes, datatypes and
 * bindings, opaque pointers for sessions and handles.
 */
#ifndef MPIT_BACKEND_H
#define MPIT_BACKEND_H

#include <stddef.h>
#include <stdint.h>

/* Bump when the struct below changes; a backend of another version is refused. */
#define MPIT_BACKEND_ABI    17
#define MPIT_BACKEND_SYMBOL "mpit_backend_entry"

#define MPIT_NAME_LEN    256  /* an MPI_T variable or event name */
#define MPIT_DESC_LEN    1024 /* its description */
#define MPIT_WHY_LEN     512  /* a reason, for the user */
#define MPIT_PATH_LEN    4096 /* a file name (PATH_MAX) */
#define MPIT_VERSION_LEN 8192 /* an MPI library's version string (MPICH's bound) */

/* Return codes of backend calls. */
enum mpit_status {
    MPIT_OK = 0,
    MPIT_ERR_INVALID = -1,   /* stale or unusable index, bad argument */
    MPIT_ERR_NOT_FOUND = -2, /* no such variable (yet) */
    MPIT_ERR_NO_OBJECT = -3, /* binding needs an object that does not exist (MPI not initialized) */
    MPIT_ERR_GONE = -4,      /* MPI is finalized: MPI_T storage may be freed */
    MPIT_ERR_MPI = -5        /* any other MPI_T error */
};

/* MPI_T performance variable classes, in the standard's order. */
enum mpit_class {
    MPIT_CLASS_STATE,
    MPIT_CLASS_LEVEL,
    MPIT_CLASS_SIZE,
    MPIT_CLASS_PERCENTAGE,
    MPIT_CLASS_HIGHWATERMARK,
    MPIT_CLASS_LOWWATERMARK,
    MPIT_CLASS_COUNTER,
    MPIT_CLASS_AGGREGATE,
    MPIT_CLASS_TIMER,
    MPIT_CLASS_GENERIC,
    MPIT_CLASS_COUNT
};

/* MPI_T basic datatypes a pvar may have. */
enum mpit_dtype {
    MPIT_TYPE_UNKNOWN,
    MPIT_TYPE_INT,
    MPIT_TYPE_UNSIGNED,
    MPIT_TYPE_LONG,
    MPIT_TYPE_UNSIGNED_LONG,
    MPIT_TYPE_LONG_LONG,
    MPIT_TYPE_UNSIGNED_LONG_LONG,
    MPIT_TYPE_DOUBLE,
    MPIT_TYPE_COUNT_T,
    MPIT_TYPE_CHAR,
    MPIT_TYPE_NUM
};

/* What a variable is bound to. */
enum mpit_bind {
    MPIT_BIND_NONE,
    MPIT_BIND_COMM,
    MPIT_BIND_WIN,
    MPIT_BIND_FILE,
    MPIT_BIND_REQUEST,
    MPIT_BIND_OTHER
};

/* Which communicator a COMM-bound variable is bound to. */
enum mpit_comm { MPIT_COMM_WORLD, MPIT_COMM_SELF };

/* State of the MPI library in this process.  SESSION: MPI runs through
 * MPI_Session_init alone (the program said so, papi_mpit.h): MPI_T has the
 * variables and events of a running MPI, but there is no MPI_COMM_WORLD or
 * MPI_COMM_SELF to bind anything to. */
enum mpit_mpi_state { MPIT_MPI_NOT_STARTED, MPIT_MPI_RUNNING, MPIT_MPI_FINALIZED, MPIT_MPI_SESSION };

/* 1 when MPI_T shows what a running MPI registers (after MPI_Init or
 * MPI_Session_init). */
static inline int mpit_mpi_live(int state) { return state == MPIT_MPI_RUNNING || state == MPIT_MPI_SESSION; }

typedef struct mpit_pvar_info {
    char name[MPIT_NAME_LEN];
    char desc[MPIT_DESC_LEN];
    int cls;       /* enum mpit_class */
    int dtype;     /* enum mpit_dtype */
    int bind;      /* enum mpit_bind */
    int verbosity; /* 0..8, user basic .. mpidev all */
    int readonly, continuous, atomic;
} mpit_pvar_info_t;

#define MPIT_EVENT_MAX_ELEMS 16
#define MPIT_ELEM_NAME_LEN   64

typedef struct mpit_event_info {
    char name[MPIT_NAME_LEN];
    char desc[MPIT_DESC_LEN];
    int nelem;
    char elem_names[MPIT_EVENT_MAX_ELEMS][MPIT_ELEM_NAME_LEN]; /* "" when the MPI names none */
    int elem_dtype[MPIT_EVENT_MAX_ELEMS];                      /* enum mpit_dtype */
    int bind;                                                  /* enum mpit_bind */
    int verbosity;
    char unreadable[MPIT_WHY_LEN]; /* "", or why the MPI's data of this event must never be read */
} mpit_event_info_t;

/* Where event instances go (called inside MPI, from any thread: the sink
 * must not lock, allocate or do I/O).  plan gives, once per event type, a
 * word the sink keeps current: its low byte says how many leading elements
 * to read (0: none; MPICH 4.0.2's dequeue event points its data at NULL),
 * bit 8 whether the timestamp is needed (else 0 is passed). */
#define MPIT_PLAN_ELEMENTS 0xffu
#define MPIT_PLAN_TIME     0x100u

typedef struct mpit_event_sink {
    const _Atomic unsigned *(*plan)(void *ctx, int event_index);
    void (*deliver)(void *ctx, int event_index, uint64_t timestamp_ns, const int64_t *elements,
                    int nelements);
    void (*dropped)(void *ctx, int event_index, uint64_t count);
    void *ctx;
} mpit_event_sink_t;

typedef struct mpit_session mpit_session_t;
typedef struct mpit_handle mpit_handle_t;
typedef struct mpit_batch mpit_batch_t;

/* Called by the backend when MPI is about to tear down MPI_T state (from an
 * MPI_COMM_SELF attribute delete callback inside MPI_Finalize). */
typedef void (*mpit_finalize_hook_t)(void);

typedef struct mpit_backend {
    int abi;            /* MPIT_BACKEND_ABI */
    const char *family; /* "Open MPI", "MPICH" */
    /* 1 when MPI_T_init_thread before MPI_Init costs far more than after it
     * (Open MPI 4.1 then opens every MCA component: about 30 ms): names
     * looked up before MPI_Init are then accepted without MPI_T and bound
     * once MPI runs. */
    int mpit_costly_before_mpi;

    /* MPI_T_init_thread at the application's thread level; once. */
    int (*init)(char *why, size_t why_len);
    /* Frees MPI_T if and when this MPI allows it (Open MPI and MPICH need opposite orders). */
    void (*shutdown)(void);
    int (*mpi_state)(void);
    void (*set_finalize_hook)(mpit_finalize_hook_t hook);
    /* How many MPI sessions the program said run (papi_mpit.h): while one
     * does and MPI_Init has not run, mpi_state is MPIT_MPI_SESSION. */
    void (*set_session_count)(int (*count)(void));
    /* Right before the last session's MPI_Session_finalize: when MPI_Init
     * never ran MPI ends with it, and what MPI_Finalize's hook does happens
     * here (callbacks and handles freed, the front end told); mpi_state is
     * MPIT_MPI_FINALIZED from then on.  Nothing while MPI_Init's MPI runs. */
    void (*sessions_end)(void);

    int (*pvar_num)(int *num);
    int (*pvar_info)(int index, mpit_pvar_info_t *info);
    int (*pvar_index)(const char *name, int cls, int *index);
    /* A variable of this name is wanted: an MPI that collects it only when
     * told before MPI_Init (Open MPI SPCs) is told now. */
    void (*pvar_request)(const char *name);
    /* 0 when the MPI has the variable but does not collect it (an Open MPI
     * SPC that is not attached): reading it would give silent zeros. */
    int (*pvar_collecting)(const char *name);
    /* 1 (with why) when the variable must not be read: it belongs to an MPI
     * component that is not in use and reading it would crash the MPI (Open
     * MPI's PSM2 MTL without PSM2), or the running release publishes it but
     * does not maintain it (Open MPI 5.0's SPC watermarks).  It is listed as
     * unavailable and never read.  Calls MPI only for its version string. */
    int (*pvar_unavailable)(const char *name, char *why, size_t why_len);
    /* 1 when a variable bound to a communicator takes MPI_COMM_WORLD only
     * (Open MPI's monitoring): no :comm=self is offered for it. */
    int (*pvar_world_only)(const char *name);
    /* 1 (with why) when the running library can never publish the variable
     * (name NULL: any MPI_T event) once MPI runs: another family's, one its
     * build leaves out (MPICH's configure line, an Open MPI without SPCs),
     * one its release hides in MPI_Init (Open MPI 4.1's pml monitoring).
     * Known before MPI_Init; 0 when not known.  NULL: nothing is known. */
    int (*never_gives)(const char *name, char *why, size_t why_len);
    /* Right before MPI_Finalize: frees the windows the program left open
     * where the release's MPI_Finalize would crash freeing them (Open MPI
     * 4.1 with SPCs attached); nothing elsewhere. */
    void (*free_windows_left_open)(void);

    int (*session_create)(mpit_session_t **session);
    void (*session_free)(mpit_session_t *session);
    /* Allocates a handle for pvar index; *count receives the element count. */
    int (*handle_alloc)(mpit_session_t *session, int index, int comm, mpit_handle_t **handle, int *count);
    int (*handle_start)(mpit_handle_t *handle);
    int (*handle_stop)(mpit_handle_t *handle);
    int (*handle_reset)(mpit_handle_t *handle);
    /* Hot path: reads count elements of the pvar's datatype into buf. */
    int (*handle_read)(mpit_handle_t *handle, void *buf);
    /* The variables of an event set, read together (the hot path: one call
     * per PAPI_read).  batch_create copies the handles (all of one session)
     * and buffers once, when the set starts (n <= 64); batch_read reads
     * handle i into buffer i, sets bit i of *failed where that read failed
     * (its buffer then holds what it held), and returns MPIT_OK when every
     * read succeeded, MPIT_ERR_GONE when none could be (MPI tearing down). */
    mpit_batch_t *(*batch_create)(mpit_handle_t *const *handles, void *const *bufs, int n);
    int (*batch_read)(const mpit_batch_t *batch, uint64_t *failed);
    void (*batch_free)(mpit_batch_t *batch);

    /* MPI_T events (MPI 4.0).  NULL when the MPI's header has no events API. */
    int (*event_num)(int *num);
    int (*event_info)(int index, mpit_event_info_t *info);
    /* Registers callbacks for event index (COMM-bound: on MPI_COMM_WORLD). */
    int (*event_subscribe)(int index, const mpit_event_sink_t *sink);
    /* Frees every registration (their free callbacks release our state). */
    void (*event_unsubscribe_all)(void);
    /* Now on the clock of the event sources, in ns (for queue residence). */
    uint64_t (*event_now_ns)(void);
    /* Has the MPI deliver what its unordered sources hold back (Open MPI
     * 6.0 aggregates memory releases until asked); not on a hot path. */
    void (*event_flush)(void);

    /* From a signal handler: 1 when the thread interrupted at pc (stack
     * pointer sp) is inside MPI_Finalize where the release has freed what
     * a read would touch and the finalize hook has not run yet (Open MPI
     * 4.0 and 4.1's SPCs); the handler then reads nothing.  Async-signal-safe. */
    int (*in_finalize_window)(const void *pc, const void *sp);
} mpit_backend_t;

typedef const mpit_backend_t *(*mpit_backend_entry_fn)(void);

#endif
