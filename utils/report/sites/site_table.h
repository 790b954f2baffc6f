/*
 * papi-mpit-report: what the call-site wrappers (made from mpi-calls.tsv)
 * record, per call site of the program, per peer and per collective.
 *
 * A site is the caller's return address: the instruction after the call
 * (its detail; for the Fortran entry points, their caller, site_fortran.h),
 * and when the caller is a library (site_frames.h has the rule; the MPI's
 * own Fortran layer is passed over), the program's own frame behind it or
 * the Python line behind mpi4py (its program line; sites_capture).
 * Everything here runs inside the
 * program's MPI calls, from any thread: fixed tables allocated at
 * sites_begin, claimed and counted with atomics, no I/O, and no lock and no
 * allocation but at a first use: a communicator's or window's (its ranks
 * in MPI_COMM_WORLD, made once under a mutex and kept in the handle's
 * attribute, then found in a table shared by the threads, sized for 2048
 * handles alive at once; beyond, the attribute is read from the MPI), and a
 * thread's first completion call of more requests than SITES_BATCH (its
 * arrays, sites_scratch, reused by the calls after).  The Fortran entries'
 * MPI routines are looked up at start (sites_f_begin).
 * Calls made while a wrapped call is running (an MPI calling its own MPI_
 * names, ROMIO) are part of the outer call.
 *
 * What is charged where:
 * - every call: its site gets one call and the wall time inside it, and
 *   keeps the longest and the shortest single call (compare-and-swap loops
 *   where the program's threads may call MPI at once);
 * - a send (blocking, nonblocking, the send half of a sendrecv): a message
 *   and its bytes (count x the datatype's size) to the peer, at the site
 *   that posted it; a persistent send at each MPI_Start, to the site of its
 *   MPI_Send_init;
 * - a receive: a message and the bytes the status says arrived, from the
 *   source the status says, at the site that posted it (MPI_Irecv,
 *   MPI_Recv_init, MPI_Imrecv): the completion (MPI_Wait...) is charged its
 *   call and time only;
 * - a collective: the payload this rank puts in (see mpi-calls.tsv), by
 *   kind and root;
 * - one-sided: the origin's bytes to the target; MPI-IO: bytes read and
 *   written.
 * Peers are ranks of MPI_COMM_WORLD (translated from the communicator's or
 * the window's group); a peer outside it (another job's, after a spawn)
 * counts as "other".
 */
#ifndef PAPI_MPIT_SITES_TABLE_H
#define PAPI_MPIT_SITES_TABLE_H

#include <mpi.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "site_cells.h"
#include "site_current.h"
#include "site_frames.h"

/* Inside the library only (the wrappers, the rank's code): direct calls and
 * globals read without the GOT; the MPI_ entry points keep mpi.h's. */
#pragma GCC visibility push(hidden)

/* One call in progress (on the wrapper's stack). */
typedef struct sites_call {
    int fn;
    void *pc;       /* the caller's return address */
    uintptr_t prog; /* the program line behind it (sites_capture) */
    int how;        /* SITES_PROG_* */
    int lost;       /* its site had no room: the call is counted once as not recorded */
    long long t0;   /* sites_ticks() at entry */
    sites_site_t *site;
    long long sent, received; /* its bytes, for the timeline (site_timeline.h) */
} sites_call_t;

extern int sites_on; /* counting: between the window's opening and closing */
extern __thread int sites_depth __attribute__((tls_model("initial-exec")));
extern __thread sites_call_t *sites_call_now __attribute__((tls_model("initial-exec")));

static inline long long sites_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The wrappers' clock: the CPU's own counter where it runs at a constant
 * rate through sleep states (x86-64's time-stamp counter with constant_tsc
 * and nonstop_tsc, AArch64's virtual counter always: two reads cost a few
 * ns, where clock_gettime in a virtual machine was most of a wrapper's
 * cost), else CLOCK_MONOTONIC in ns.  Ticks become ns through
 * sites_ticks_ns (the rate measured over the run, or AArch64's cntfrq_el0). */
extern int sites_use_tsc;
static inline long long sites_ticks(void)
{
#if defined(__x86_64__)
    if (sites_use_tsc) {
        unsigned lo, hi;
        __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
        return (long long)(((unsigned long long)hi << 32) | lo);
    }
#elif defined(__aarch64__)
    if (sites_use_tsc) {
        unsigned long long v;
        /* isb: not read ahead of the code before it */
        __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) : : "memory");
        return (long long)v;
    }
#endif
    return sites_now_ns();
}
/* ticks (a duration) in ns; at the rate measured from sites_begin to now */
long long sites_ticks_ns(long long ticks);
/* that rate: ns per tick (1 without the time-stamp counter) */
double sites_ns_per_tick(void);

/* 1 when the call is to be counted (then sites_leave must follow), 0 when
 * the tool is not counting or the call is inside another wrapped call. */
static inline int sites_enter(sites_call_t *c, int fn, void *pc)
{
    if (!__atomic_load_n(&sites_on, __ATOMIC_RELAXED) || sites_depth) return 0;
    sites_depth = 1;
    sites_call_now = c;
    c->fn = fn;
    c->pc = pc;
    c->how = SITES_PROG_SELF;
    c->prog = 0;
    c->site = NULL;
    c->lost = 0;
    c->sent = c->received = 0;
    c->t0 = sites_ticks();
    return 1;
}
void sites_leave(sites_call_t *c);
/* The site capture (site_frames.c), after sites_enter returned 1, from the
 * wrapper itself (every language binding's): when c->pc is in a library's
 * code, finds the program's own frame behind it (at most --site-depth
 * frames up) or the Python line behind mpi4py, into c->prog and c->how.
 * A call from the program's own code costs a module lookup, and nothing
 * but a range check when it is in the module the thread's last lookup
 * found (sites_mod_*: sites_module_class's cache); no lock, no allocation. */
extern __thread uintptr_t sites_mod_lo __attribute__((tls_model("initial-exec")));
extern __thread uintptr_t sites_mod_hi __attribute__((tls_model("initial-exec")));
extern __thread int sites_mod_cls __attribute__((tls_model("initial-exec")));
void sites_capture_any(sites_call_t *c);
/* inlined: sites_capture_any keys its chains by its return address in the wrapper */
static inline __attribute__((always_inline)) void sites_capture(sites_call_t *c)
{
    uintptr_t pc = (uintptr_t)c->pc - 1;
    /* the program's own code: the site is the caller (sites_enter's SITES_PROG_SELF) */
    if (pc - sites_mod_lo < sites_mod_hi - sites_mod_lo && sites_mod_cls == SITES_MOD_PROGRAM) return;
    sites_capture_any(c);
}

/* A handle as a key (MPI_Request and MPI_Message are pointers in Open MPI
 * and the standard ABI, integers in MPICH). */
#define sites_key(h) sites_key_of(&(h), sizeof(h))
static inline uintptr_t sites_key_of(const void *h, size_t size)
{
    uintptr_t k = 0;
    memcpy(&k, h, size < sizeof k ? size : sizeof k);
    return k;
}

/* The status to hand the MPI: the caller's, or own when it passed none. */
static inline MPI_Status *sites_status(MPI_Status *own, MPI_Status *given)
{
    return given == MPI_STATUS_IGNORE ? own : given;
}

/* Counts are long long: the large-count calls (MPI_Send_c ...) pass MPI_Count,
 * the others int; the _c payloads read MPI_Count arrays. */
void sites_send(sites_call_t *c, long long count, MPI_Datatype type, int peer, MPI_Comm comm);
void sites_recv(sites_call_t *c, const MPI_Status *st, MPI_Comm comm);
long long sites_payload(long long count, MPI_Datatype type);
long long sites_payload_v(const int counts[], MPI_Datatype type, MPI_Comm comm);
long long sites_payload_w(const int counts[], const MPI_Datatype types[], MPI_Comm comm);
long long sites_payload_vc(const MPI_Count counts[], MPI_Datatype type, MPI_Comm comm);
long long sites_payload_wc(const MPI_Count counts[], const MPI_Datatype types[], MPI_Comm comm);
void sites_coll(sites_call_t *c, long long bytes, int root, MPI_Comm comm);
/* 1 when this rank is the collective's root (MPI_ROOT on an intercommunicator) */
int sites_is_root(int root, MPI_Comm comm);
void sites_rma(sites_call_t *c, long long count, MPI_Datatype type, int target, MPI_Win win);
void sites_io(sites_call_t *c, long long count, MPI_Datatype type, int write);

/* Requests whose message is known only later: nonblocking and persistent
 * receives (charged at completion to the site that posted them), persistent
 * sends (charged at each start), matched messages (their communicator). */
void sites_track_recv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag);
void sites_track_precv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag);
void sites_track_psend(sites_call_t *c, MPI_Request req, long long count, MPI_Datatype type, int peer,
                       MPI_Comm comm);
void sites_track_message(MPI_Message msg, MPI_Comm comm);
MPI_Comm sites_message_comm(MPI_Message msg);
void sites_forget(MPI_Request req);
void sites_started(MPI_Request req);
void sites_completed(uintptr_t key, const MPI_Status *st);

/* The completions of an array of requests: begin copies the tracked ones
 * (MPI sets completed one-shot requests to MPI_REQUEST_NULL) and returns the
 * statuses to hand the MPI (the caller's, or own when it passed none and
 * some request is tracked); then all, one (index) or some (indices). */
#define SITES_BATCH 32
typedef struct sites_batch {
    int n;           /* tracked requests */
    int nreq;        /* requests in the call */
    int *idx;        /* their indices */
    uintptr_t *key;  /* their keys */
    MPI_Status *own; /* the thread's statuses (sites_scratch), or NULL */
    int idx_s[SITES_BATCH];
    uintptr_t key_s[SITES_BATCH];
    MPI_Status st_s[SITES_BATCH];
} sites_batch_t;
MPI_Status *sites_batch_begin(sites_batch_t *b, MPI_Request reqs[], int n, MPI_Status *statuses);
void sites_batch_all(sites_batch_t *b, MPI_Status *sts);
void sites_batch_one(sites_batch_t *b, int index, MPI_Status *st);
void sites_batch_some(sites_batch_t *b, int outcount, const int indices[], MPI_Status *sts);
/* after any of them, or none (the call failed) */
void sites_batch_end(sites_batch_t *b);
/* The calling thread's array number which, of at least bytes: grown (its
 * contents kept) when smaller, by the first call that needs more, reused
 * by the calls after; NULL when out of memory.  For a completion call of
 * more than SITES_BATCH requests, in the outermost wrapper only (one
 * batch per thread at a time); freed when the thread ends. */
enum {
    SITES_SCRATCH_IDX,
    SITES_SCRATCH_KEY,
    SITES_SCRATCH_ST,
    SITES_SCRATCH_F_REQ,
    SITES_SCRATCH_F_ST,
    SITES_SCRATCH_N
};
void *sites_scratch(int which, size_t bytes);

/* ---- the calls in progress (site_current.h), for a snapshot of a run
 * that hangs or is killed */
/* A copy of each thread's slot (n of them), 0 or -1 when there are none. */
int sites_current(sites_current_t *out, int max, int *n);
/* Sets the slot of the calling thread's call (the generated wrappers, after
 * sites_enter, with the row's peer/root, tag and communicator). */
void sites_mark(sites_call_t *c, int peer, int tag, MPI_Comm comm);
/* The same for a completion: what the first tracked receive among reqs
 * waits for (its source, tag and communicator), or nothing. */
void sites_mark_requests(sites_call_t *c, const MPI_Request reqs[], int n);

/* A posted receive found its message already waiting (an MPI_T event in
 * the receiving thread): charged to the thread's call in progress, else
 * counted as outside the program's calls.  Safe in an event callback. */
void sites_found_waiting(void);
long long sites_found_outside(void);
/* site_unexpected.c: after the MPI_T event log has started (it may hold the
 * one watcher), until the window closes; 0, or -1 when the MPI raises no
 * such event or the watcher is taken.  sites_watching: 1 while watching. */
int sites_watch_start(void);
int sites_watching(void);
void sites_watch_stop(void);

/* ---- outside the program's calls (report_mpi.c) */
/* After MPI_Init (rank and size of MPI_COMM_WORLD): the tables.  0, or -1
 * with the reason in why (then nothing is recorded). */
int sites_begin(int rank, int nprocs, char *why, size_t len);
void sites_window(int open);
/* Before sites_begin: the memory the tables are to live in (the rank's
 * mapped state file, zero-filled), used when it holds them all; without
 * it, or too small, they are allocated.  The layout: sites_state_layout
 * (the bytes needed for nprocs ranks, and each table's offset). */
typedef struct sites_layout {
    uint64_t slots, sites, colls, p2p_msgs, p2p_bytes, rings, overflows, py_lines; /* offsets */
    int nslots, nsites, ncolls, npy_lines;
} sites_layout_t;
size_t sites_state_layout(int nprocs, sites_layout_t *l);
void sites_place(void *area, size_t len);
/* The wrappers' clock: ticks and CLOCK_MONOTONIC ns at one moment, and
 * ns per tick (a slot's since is in ticks) */
void sites_clock(long long *ticks, long long *ns, double *ns_tick);
/* The rank's record lines ("C", "T", "K", "G": site_record.c), to append
 * to its record; the capacity needed. */
size_t sites_record_cap(void);
size_t sites_record(char *buf, size_t cap);
/* The file holding the code at pc (the program, or a library) and pc's
 * offset from its load address, as the records write sites; not from a
 * signal handler (dladdr). */
void sites_module_of(uintptr_t pc, char *path, size_t len, unsigned long *off);
void sites_end(void);

/* The tables' contents, for site_record.c */
const sites_site_t *sites_table(int *cap);
void sites_p2p(const long long **msgs, const long long **bytes, int *nprocs, long long *other);
const sites_coll_cell_t *sites_colls(int *cap);
void sites_overflows(long long *sites, long long *colls, long long *untracked);

#pragma GCC visibility pop

#endif
