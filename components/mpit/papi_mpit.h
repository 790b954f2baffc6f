/*
 * papi_mpit.h: the mpit component's small interface beyond PAPI's events,
 * for tools such as papi-mpit-report that need more than an event set.
 *
 * 1. Unexpected messages by sender.  A PAPI event set holds at most 64 mpit
 * events, and a job has many senders, so the whole vector is read here:
 * counts[s] is what this process counted for sender s, a rank of
 * MPI_COMM_WORLD.
 *   - MPICH with MPI_T events: unexpected messages counted from the
 *     unexp_message_enqueued event since papi_mpit_senders_start, exactly,
 *     for senders 0 .. PAPI_MPIT_SENDERS_MAX-1 on MPI_COMM_WORLD; a message
 *     from a higher rank, or on a communicator whose ranks cannot be
 *     translated to MPI_COMM_WORLD, is counted in *other (never lost from
 *     the total).
 *   - Open MPI (ob1): the largest length of the unexpected queue of each
 *     peer seen at any papi_mpit_senders_read since the start (Open MPI
 *     keeps no count by sender, only the current queue by peer): what
 *     waited, at the moments looked at, not how many arrived.
 *     *kind says which of the two a call returned.
 * Call after MPI_Init and before MPI_Finalize, from one thread.
 *
 * 2. Why the component refused a name: the reason it printed ("papi-mpit:
 *    NAME: reason"), asked for instead of read from stderr.
 *
 * 3. The portable metrics (mpit:::NAME), with the ones that are costly to
 *    collect marked, so that a tool's default list comes from the component.
 *
 * 4. Every MPI_T event instance (an event log): the component's callbacks
 *    hand each instance, with its timestamp and elements, to a watcher.
 *
 * 5. Which backend module serves the process's MPI.
 *
 * 6. MPI_Init has returned: the catch-up step, called by a tool's own
 *    MPI_Init wrapper; MPI_Finalize is about to run: what must happen
 *    before it, called by the tool's MPI_Finalize wrapper.
 *
 * 7. The same two for MPI sessions (MPI_Session_init, MPI_Session_finalize).
 */
#ifndef PAPI_MPIT_H
#define PAPI_MPIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* libpapi is built with hidden visibility; these are its interface */
#pragma GCC visibility push(default)

#include <stddef.h>
#include <stdint.h>

#define PAPI_MPIT_SENDERS_MAX 1024

enum papi_mpit_senders_kind {
    PAPI_MPIT_SENDERS_COUNT = 1,    /* messages counted per sender (MPICH events) */
    PAPI_MPIT_SENDERS_QUEUE_MAX = 2 /* largest queue length per peer seen (Open MPI ob1) */
};

/* PAPI_OK, or a PAPI error (PAPI_ENOEVNT when the running MPI offers
 * neither source; the reason is printed once on stderr). */
int papi_mpit_senders_start(void);
/* Fills counts[0 .. max-1] (max <= PAPI_MPIT_SENDERS_MAX); *other gets what
 * did not fit (COUNT kind; 0 otherwise); *kind which source answered. */
int papi_mpit_senders_read(long long *counts, int max, long long *other, int *kind);
int papi_mpit_senders_stop(void);

/* ---- traffic by peer (Open MPI's monitoring): counts since start, one
 * element per rank of MPI_COMM_WORLD (the receiver of what was sent) */
enum papi_mpit_peers_kind {
    PAPI_MPIT_PEERS_MSGS,               /* user point-to-point messages sent */
    PAPI_MPIT_PEERS_BYTES,              /* their bytes */
    PAPI_MPIT_PEERS_COLL_MSGS,          /* collective messages, as each call states them */
    PAPI_MPIT_PEERS_COLL_BYTES,         /* and bytes */
    PAPI_MPIT_PEERS_RMA_BYTES_SENT,     /* one-sided puts and accumulates */
    PAPI_MPIT_PEERS_RMA_BYTES_RECEIVED, /* one-sided gets */
    PAPI_MPIT_PEERS_KINDS
};
/* PAPI_OK when at least one kind can be read; PAPI_ENOEVNT (the reason
 * printed once, papi_mpit_why("peers")) when none. */
int papi_mpit_peers_start(void);
/* The number of peers of a kind (the size of MPI_COMM_WORLD), or
 * PAPI_ENOEVNT when the running MPI does not give that kind. */
int papi_mpit_peers_count(int kind);
/* Fills values[0 .. max-1] with the counts since start to each peer. */
int papi_mpit_peers_read(int kind, long long *values, int max);
int papi_mpit_peers_stop(void);

/* ---- 2. reasons */
/* 1 and the last reason the component gave for subject (an event name, with
 * or without "mpit:::"; or "senders", "events"), else 0. */
int papi_mpit_why(const char *subject, char *why, size_t len);
/* quiet 1: the component prints nothing on stderr (a tool reports the
 * reasons itself); returns the previous setting.  Default: PAPI_MPIT_QUIET. */
int papi_mpit_quiet(int quiet);

/* ---- 3. portable metrics */
/* The i-th portable metric's name (without "mpit:::"), NULL past the last;
 * *cost (if cost is not NULL) is NULL, or why collecting it slows MPI down. */
const char *papi_mpit_metric(int i, const char **cost);

/* ---- 4. watching every MPI_T event instance */
#define PAPI_MPIT_NAME_LEN      256
#define PAPI_MPIT_ELEMS_MAX     16
#define PAPI_MPIT_ELEM_NAME_LEN 64

enum papi_mpit_elem_kind {
    PAPI_MPIT_ELEM_SIGNED,   /* an integer */
    PAPI_MPIT_ELEM_UNSIGNED, /* an unsigned integer, passed as its 64 bits */
    PAPI_MPIT_ELEM_DOUBLE,   /* a double, passed as its 64 bits */
    PAPI_MPIT_ELEM_OTHER     /* passed as 0 */
};

typedef struct papi_mpit_event_type {
    char name[PAPI_MPIT_NAME_LEN];
    int nelem;    /* elements of an instance */
    int readable; /* 0: the running MPI's data for this type must not be read: none are passed */
    char elem_name[PAPI_MPIT_ELEMS_MAX]
                  [PAPI_MPIT_ELEM_NAME_LEN]; /* the MPI's or known names, else "0", "1", ... */
    int elem_kind[PAPI_MPIT_ELEMS_MAX];      /* enum papi_mpit_elem_kind */
} papi_mpit_event_type_t;

/* Called inside MPI, from any thread, possibly at MPI's strictest safety
 * level: no locks, no allocation, no I/O.  time_ns is on the clock of
 * papi_mpit_watch_now; elements[0 .. nelements-1] are the instance's. */
typedef void (*papi_mpit_watcher_t)(void *ctx, int type, uint64_t time_ns, const int64_t *elements,
                                    int nelements);

/* Starts handing every instance of every event type to watcher; *ntypes
 * gets the number of types.  PAPI_ENOEVNT when the running MPI has no
 * MPI_T events (papi_mpit_why("events") says why), PAPI_ENOINIT when MPI is
 * not running, PAPI_EISRUN when a watcher is already set.  One watcher. */
int papi_mpit_watch_start(papi_mpit_watcher_t watcher, void *ctx, int *ntypes);
/* What type (0 .. ntypes-1) is. */
int papi_mpit_watch_type(int type, papi_mpit_event_type_t *info);
/* Now, on the clock of the instances' timestamps. */
uint64_t papi_mpit_watch_now(void);
/* Stops; *dropped (if not NULL): instances the MPI reported it could not
 * deliver since the start. */
int papi_mpit_watch_stop(uint64_t *dropped);

/* ---- 5. the backend in use */
/* 1 and "MODULE (FAMILY)" in buf, e.g. "mpit_backend_abi.so (MPICH)": the
 * backend module the component chose for the process's MPI (the standard
 * ABI's for a program of libmpi_abi, else its family's), once one is
 * loaded (the first mpit call of a process with MPI); else 0. */
int papi_mpit_backend(char *buf, size_t len);

/* ---- 6. after MPI_Init */
/* Call from your MPI_Init and MPI_Init_thread wrappers right after
 * PMPI_Init (PMPI_Init_thread) returns, on the same thread.  The component
 * wraps no MPI_ name, so this is where it learns that MPI runs: every name
 * given before MPI_Init is resolved, and every event set this thread started
 * before MPI_Init binds what came with MPI_Init (Open MPI's SPCs, event
 * callbacks) and starts its non-continuous counters there.  Those sets then
 * count from MPI_Init, and none of their reads binds or resolves anything.
 * Without this call the same step runs at the set's first PAPI call after
 * MPI_Init made outside a signal handler (which may be a PAPI_read), and
 * counters that are not continuous count from that call.
 * PAPI_OK (also when no mpit event was used); PAPI_ENOINIT when MPI is not
 * running (before MPI_Init, also before PAPI_library_init, and after
 * MPI_Finalize); PAPI_ECLOST when
 * called from inside the component (a signal handler interrupting it). */
int papi_mpit_after_init(void);

/* Call from your MPI_Finalize wrapper right before PMPI_Finalize.  On Open
 * MPI 4.1 with SPCs attached (the component attaches those named before
 * MPI_Init), MPI_Finalize ends the SPCs and then frees the windows the
 * program left open, and that free crashes the process (Open MPI's own
 * defect); here those windows are freed first, as MPI_Finalize would free
 * them.  Nothing happens on other MPIs.  PAPI_OK; PAPI_ENOINIT when MPI is
 * not running. */
int papi_mpit_before_finalize(void);

/* ---- 7. MPI sessions */
/* Call right after PMPI_Session_init returns (from the program, or from a
 * tool's MPI_Session_init wrapper), once per session.  MPI_Initialized is
 * false in a program of sessions alone and no PMPI_ call tells that a
 * session runs, so this is how the component learns it: from here on mpit
 * events count as after MPI_Init (names given earlier are resolved, sets
 * this thread started earlier bind what came with the session), and what
 * needs MPI_COMM_WORLD or MPI_COMM_SELF (variables bound to a communicator,
 * :comm=self, Open MPI's monitoring) is refused with that reason: a session
 * has neither.  Without the call, names added under a session wait for an
 * MPI_Init that never comes and read 0.  May be called before
 * PAPI_library_init.  PAPI_OK; PAPI_ENOINIT in a process without MPI or
 * once MPI has ended here. */
int papi_mpit_after_session_init(void);

/* Call right before PMPI_Session_finalize, once per session.  When the last
 * session ends and MPI_Init never ran, MPI ends with it: the component
 * frees its MPI_T callbacks and handles there, and as after MPI_Finalize a
 * running set keeps its last values and a set started later reads 0.  PAPI_OK; PAPI_ENOINIT when no session was
 * said to run. */
int papi_mpit_before_session_finalize(void);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
