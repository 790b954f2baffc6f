/*
 * papi-mpit-report: the call-site tables the wrappers fill (site_table.h
 * says what is charged where).  Sites, requests and collective cells are
 * open-addressed tables of fixed size, claimed with compare-and-swap;
 * counts are relaxed atomic adds (a Waitall on one thread and an Isend on
 * another may charge one site at once).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "report_handles.h"
#include "site_modules.h"
#include "site_table.h"
#include "site_timeline.h"

/* counts: atomic where the program's threads may call MPI at once, plain
 * adds otherwise (a lock prefix per count is most of a wrapper's cost) */
#define ADD(p, v)        (sites_mt ? (void)__atomic_fetch_add((p), (v), __ATOMIC_RELAXED) : (void)(*(p) += (v)))
#define ADD_ATOMIC(p, v) __atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define TRACK_MAX        16384 /* requests and messages tracked at once */
#define COLL_MAX         1024  /* (collective, root) cells */

int sites_on;
__thread int sites_depth __attribute__((tls_model("initial-exec")));
__thread sites_call_t *sites_call_now __attribute__((tls_model("initial-exec")));
static long long found_outside;
static char frames_why[256]; /* what of the program lines is off (Python's) */

const char *sites_frames_why(void) { return frames_why; }

static sites_site_t *sites;
static long long sites_overflow, colls_overflow, untracked;
static int my_rank, world_size, sites_mt;
static MPI_Comm world, self;
/* the communicators' and windows' translations to world ranks (their
 * MPI attribute owns them), found without the MPI: an open-addressed table
 * shared by every thread, filled at a handle's first use under tables_mu
 * and read without a lock after; a freed handle's entry goes (the
 * attribute's delete callback), the others stay.  With more handles alive
 * than it holds, the others' are read from their attribute at each call. */
#define TABLES_BITS 11 /* 2048 handles */
#define TABLES_MAX  (1u << TABLES_BITS)
#define TABLE_GONE  UINTPTR_MAX /* a freed entry: lookups go on past it */
static struct {
    uintptr_t key; /* 0: never used */
    const int *t;
} tables[TABLES_MAX];
static pthread_mutex_t tables_mu = PTHREAD_MUTEX_INITIALIZER;
static long long *p2p_msgs, *p2p_bytes, p2p_other; /* by receiver, world_size each */
static sites_coll_cell_t *colls;
static int comm_keyval = MPI_KEYVAL_INVALID, win_keyval = MPI_KEYVAL_INVALID;

/* ---- requests and messages whose message is charged later */
enum { TR_FREE, TR_RECV, TR_PRECV, TR_PSEND, TR_MESSAGE, TR_GONE };
typedef struct track {
    uintptr_t key;
    int state;                    /* TR_*: TR_FREE never used, TR_GONE removed (probing goes on past it) */
    int peer;                     /* psend: world rank; recv: the source's, -1 for none or any */
    int tag, any_source, any_tag; /* recv: what it waits for */
    sites_site_t *site;
    MPI_Comm comm;   /* recv, precv, message */
    long long bytes; /* psend */
} track_t;
static track_t *tracks;

static inline unsigned hash_ptr(uintptr_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (unsigned)k;
}

/* ---- sites: one per (caller, program line, call) */
static sites_site_t *site_of(sites_call_t *c)
{
    if (c->site) return c->site;
    uintptr_t pc = (uintptr_t)c->pc;
    unsigned h = hash_ptr(pc ^ (c->prog * 31 + (uintptr_t)c->how)) & (SITES_MAX - 1);
    for (int probe = 0; probe < SITES_MAX; probe++, h = (h + 1) & (SITES_MAX - 1)) {
        sites_site_t *s = &sites[h];
        uintptr_t cur = __atomic_load_n(&s->pc, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            uintptr_t want = 0;
            if (__atomic_compare_exchange_n(&s->pc, &want, pc, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                s->prog = c->prog;
                s->how = c->how;
                __atomic_store_n(&s->fn1, c->fn + 1, __ATOMIC_RELEASE);
                return c->site = s;
            }
            cur = want;
        }
        if (cur != pc) continue;
        /* claimed: its call is written right after (by another thread, maybe) */
        int fn1;
        while ((fn1 = __atomic_load_n(&s->fn1, __ATOMIC_ACQUIRE)) == 0) {}
        if (fn1 == c->fn + 1 && s->prog == c->prog && s->how == c->how) return c->site = s;
    }
    ADD(&sites_overflow, 1);
    return NULL;
}

/* ---- the calls in progress */
/* in the rank's mapped state file where it has one (sites_place), so
 * that they outlive the process however it ends */
static sites_slot_t slots_own[SITES_THREADS], *slots = slots_own;
static int nslots;
static long long slots_overflow;
static __thread sites_slot_t *my_slot __attribute__((tls_model("initial-exec")));
static __thread int my_slot_tried __attribute__((tls_model("initial-exec")));
static sites_ring_t *rings; /* each slot's last calls: in the mapped file only */

static sites_slot_t *slot(void)
{
    if (my_slot || my_slot_tried) return my_slot;
    my_slot_tried = 1;
    int i = __atomic_fetch_add(&nslots, 1, __ATOMIC_RELAXED);
    if (i >= SITES_THREADS) {
        ADD(&slots_overflow, 1);
        return NULL;
    }
    long tid = (long)syscall(SYS_gettid);
    for (int k = 0; k < 2; k++) slots[i].rec[k].fn = -1, slots[i].rec[k].tid = tid;
    return my_slot = &slots[i];
}

static void set_slot(sites_slot_t *slot, int fn, uintptr_t pc, long long since, int peer, int tag,
                     int any_source, int any_tag, uintptr_t comm)
{
    /* only this thread writes its slot: plain stores, ordered by fences
     * (free on x86), no locked instruction on the wrappers' path */
    sites_current_t *s = sites_slot_next(slot);
    s->fn = fn, s->pc = pc, s->since = since, s->peer = peer, s->tag = tag;
    s->any_source = any_source, s->any_tag = any_tag, s->comm = comm;
    sites_slot_publish(slot);
}

static int world_rank(MPI_Comm comm, int rank);

/* a snapshot names the program's line behind a library where there is one */
static uintptr_t slot_pc(const sites_call_t *c)
{
    return c->how == SITES_PROG_NATIVE ? c->prog : (uintptr_t)c->pc;
}

void sites_mark(sites_call_t *c, int peer, int tag, MPI_Comm comm)
{
    sites_slot_t *s = slot();
    if (!s) return;
    int any = peer == MPI_ANY_SOURCE;
    set_slot(s, c->fn, slot_pc(c), c->t0, any ? -1 : world_rank(comm, peer), tag, any, tag == MPI_ANY_TAG,
             sites_key(comm));
}

/* ---- the clock: ticks and ns at sites_begin, for the rate */
int sites_use_tsc;
static long long anchor_ticks, anchor_ns;
static double ns_per_tick = 1; /* measured from sites_begin to the window's opening, then kept */

static int tsc_is_steady(void)
{
#if defined(__x86_64__)
    char line[4096];
    int steady = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "flags", 5) == 0) {
            steady = strstr(line, " constant_tsc") && strstr(line, " nonstop_tsc");
            break;
        }
    if (f) fclose(f);
    return steady;
#elif defined(__aarch64__)
    return 1; /* the architecture's system counter: a fixed rate, never stopped */
#else
    return 0;
#endif
}

/* ns per tick where the counter says its rate, else 0 (measured) */
static double counter_rate(void)
{
#if defined(__aarch64__)
    unsigned long long hz;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(hz));
    return hz ? 1e9 / (double)hz : 0;
#else
    return 0;
#endif
}

double sites_ns_per_tick(void)
{
    if (!sites_use_tsc) return 1;
    if (counter_rate() > 0) return counter_rate();
    long long dt = sites_ticks() - anchor_ticks, dns = sites_now_ns() - anchor_ns;
    if (dt <= 0 || dns <= 0) return 1;
    return (double)dns / (double)dt;
}

long long sites_ticks_ns(long long ticks)
{
    return sites_use_tsc ? (long long)((double)ticks * sites_ns_per_tick()) : ticks;
}

int sites_current(sites_current_t *out, int max, int *n)
{
    int k = 0, have = __atomic_load_n(&nslots, __ATOMIC_ACQUIRE);
    if (have > SITES_THREADS) have = SITES_THREADS;
    for (int i = 0; i < have && k < max; i++) {
        if (!sites_slot_read(&slots[i], &out[k])) continue;
        /* since: from the wrappers' ticks to sites_now_ns() */
        if (out[k].fn >= 0 && sites_use_tsc)
            out[k].since = anchor_ns + (long long)((double)(out[k].since - anchor_ticks) * ns_per_tick);
        k++;
    }
    *n = k;
    return k ? 0 : -1;
}

/* the longest and shortest single call: a CAS loop where threads may race
 * (each pass reads the current extreme; stores only an improvement) */
static inline void raise_to(long long *p, long long v)
{
    if (!sites_mt) {
        if (v > *p) *p = v;
        return;
    }
    long long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

/* *p is the minimum + 1, 0 for none */
static inline void lower_to(long long *p, long long v1)
{
    if (!sites_mt) {
        if (!*p || v1 < *p) *p = v1;
        return;
    }
    long long cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while ((!cur || v1 < cur) &&
           !__atomic_compare_exchange_n(p, &cur, v1, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}

/* the call as its slot holds it (every counted call marks it), into its ring */
static inline void ring_add(const sites_call_t *c, long long t1)
{
    const sites_current_t *k = &my_slot->rec[my_slot->seq & 1];
    sites_ring_add(&rings[my_slot - slots], c->fn, slot_pc(c), k->peer, k->tag,
                   k->any_source | k->any_tag << 1, k->comm, c->sent, c->received, c->t0, t1);
}

void sites_leave(sites_call_t *c)
{
    long long dt = sites_ticks() - c->t0;
#if !defined(SITES_NO_TIMELINE) /* bench/report_timeline.sh builds without it, to measure it */
    if (my_slot && rings) ring_add(c, c->t0 + dt);
#endif
    if (my_slot) { /* the call is over: no call (the tid is set once in both copies), and since when */
        sites_current_t *r = sites_slot_next(my_slot);
        r->fn = -1, r->since = c->t0 + dt;
        sites_slot_publish(my_slot);
    }
    sites_call_now = NULL;
    sites_site_t *s = site_of(c);
    if (s) {
        ADD(&s->calls, 1);
        ADD(&s->ns, dt);
#if !defined(SITES_NO_CALL_EXTREMES) /* bench/report_sites_extremes.sh builds without them, to measure them */
        raise_to(&s->ns_max, dt);
        lower_to(&s->ns_min1, dt + 1);
#endif
    }
    sites_depth = 0;
}

/* ---- ranks of MPI_COMM_WORLD */
static int copy_none(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}
static unsigned table_slot(uintptr_t key)
{
    return (unsigned)(((uint64_t)key * 0x9E3779B97F4A7C15ull) >> (64 - TABLES_BITS));
}

static const int *table_find(uintptr_t key)
{
    for (unsigned i = 0, s = table_slot(key); i < TABLES_MAX; i++, s = (s + 1) & (TABLES_MAX - 1)) {
        uintptr_t k = __atomic_load_n(&tables[s].key, __ATOMIC_ACQUIRE);
        if (k == key) return __atomic_load_n(&tables[s].t, __ATOMIC_ACQUIRE);
        if (!k) break;
    }
    return NULL;
}

/* under tables_mu, key not in the table */
static void table_put(uintptr_t key, const int *t)
{
    for (unsigned i = 0, s = table_slot(key); i < TABLES_MAX; i++, s = (s + 1) & (TABLES_MAX - 1))
        if (!tables[s].key || tables[s].key == TABLE_GONE) {
            __atomic_store_n(&tables[s].t, t, __ATOMIC_RELAXED);
            __atomic_store_n(&tables[s].key, key, __ATOMIC_RELEASE);
            return;
        }
}

/* from the delete callbacks: the handle is being freed, so no thread of a
 * correct program uses it now */
static void table_drop(uintptr_t key, const int *t)
{
    for (unsigned i = 0, s = table_slot(key); i < TABLES_MAX; i++, s = (s + 1) & (TABLES_MAX - 1)) {
        uintptr_t k = __atomic_load_n(&tables[s].key, __ATOMIC_ACQUIRE);
        if (k == key && tables[s].t == t) {
            __atomic_store_n(&tables[s].t, NULL, __ATOMIC_RELAXED);
            __atomic_store_n(&tables[s].key, TABLE_GONE, __ATOMIC_RELEASE);
            return;
        }
        if (!k) return;
    }
}

static int delete_table(MPI_Comm comm, int keyval, void *val, void *extra)
{
    (void)keyval, (void)extra;
    table_drop(sites_key(comm), val);
    free(val);
    return MPI_SUCCESS;
}
static int win_copy_none(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)win, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}
static int win_delete_table(MPI_Win win, int keyval, void *val, void *extra)
{
    (void)keyval, (void)extra;
    table_drop(sites_key(win), val);
    free(val);
    return MPI_SUCCESS;
}

/* world ranks of group's members: [0] the size, then one per rank (-1:
 * not in MPI_COMM_WORLD) */
static int *translation(MPI_Group group)
{
    int n = 0;
    MPI_Group wg;
    PMPI_Group_size(group, &n);
    int *t = malloc(sizeof *t * (2 * (size_t)n + 1));
    if (!t) return NULL;
    t[0] = n;
    for (int i = 0; i < n; i++) t[1 + n + i] = i;
    PMPI_Comm_group(world, &wg);
    PMPI_Group_translate_ranks(group, n, t + 1 + n, wg, t + 1);
    PMPI_Group_free(&wg);
    for (int i = 0; i < n; i++)
        if (t[1 + i] == MPI_UNDEFINED) t[1 + i] = -1;
    return t;
}

/* A handle's translation at its first use (a communicator's, or when comm
 * is MPI_COMM_NULL the window's): its attribute's, or made and set; then in
 * the table.  Under tables_mu (two threads' first uses of one handle make
 * one), never while the attribute is set already (its delete callback
 * would run here). */
static const int *first_use(uintptr_t key, MPI_Comm comm, MPI_Win win)
{
    int is_comm = comm != MPI_COMM_NULL, *t = NULL, flag = 0, inter = 0;
    pthread_mutex_lock(&tables_mu);
    if (is_comm)
        PMPI_Comm_get_attr(comm, comm_keyval, &t, &flag);
    else
        PMPI_Win_get_attr(win, win_keyval, &t, &flag);
    if (!flag || !t) {
        MPI_Group g;
        if (is_comm) PMPI_Comm_test_inter(comm, &inter);
        int rc = !is_comm ? PMPI_Win_get_group(win, &g)
                 : inter  ? PMPI_Comm_remote_group(comm, &g)
                          : PMPI_Comm_group(comm, &g);
        t = rc == MPI_SUCCESS ? translation(g) : NULL;
        if (rc == MPI_SUCCESS) PMPI_Group_free(&g);
        if (t && is_comm) PMPI_Comm_set_attr(comm, comm_keyval, t);
        if (t && !is_comm) PMPI_Win_set_attr(win, win_keyval, t);
    }
    if (t && !table_find(key)) table_put(key, t);
    pthread_mutex_unlock(&tables_mu);
    return t;
}

/* The world rank of rank in comm (for an intercommunicator, of its remote
 * group); -1 for none (MPI_PROC_NULL, MPI_ANY_SOURCE, outside the world). */
static int world_rank(MPI_Comm comm, int rank)
{
    if (rank < 0) return -1;
    if (comm == world) return rank < world_size ? rank : -1;
    if (comm == self) return rank == 0 ? my_rank : -1;
    if (comm_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return -1;
    uintptr_t key = sites_key(comm);
    const int *t = table_find(key);
    if (!t) t = first_use(key, comm, MPI_WIN_NULL);
    return t && rank < t[0] ? t[1 + rank] : -1;
}

static int win_world_rank(MPI_Win win, int rank)
{
    if (rank < 0 || win_keyval == MPI_KEYVAL_INVALID) return -1;
    uintptr_t key = sites_key(win);
    const int *t = table_find(key);
    if (!t) t = first_use(key, MPI_COMM_NULL, win);
    return t && rank < t[0] ? t[1 + rank] : -1;
}

/* ---- messages */
static int size_bin(long long bytes)
{
    if (bytes <= 0) return 0;
    int b = 64 - __builtin_clzll((unsigned long long)bytes);
    return b < SITES_HIST ? b : SITES_HIST - 1;
}

static void charge_peer(sites_site_t *s, int peer, long long bytes)
{
    if (peer >= 0) {
        unsigned h = (unsigned)peer % SITES_PEERS;
        for (int i = 0; i < SITES_PEERS; i++, h = (h + 1) % SITES_PEERS) {
            sites_peer_t *p = &s->peers[h];
            int cur = __atomic_load_n(&p->peer1, __ATOMIC_ACQUIRE);
            if (cur == 0) {
                int want = 0;
                if (__atomic_compare_exchange_n(&p->peer1, &want, peer + 1, 0, __ATOMIC_ACQ_REL,
                                                __ATOMIC_ACQUIRE) ||
                    want == peer + 1)
                    cur = peer + 1;
                else
                    cur = want;
            }
            if (cur == peer + 1) {
                ADD(&p->msgs, 1);
                ADD(&p->bytes, bytes);
                return;
            }
        }
    }
    ADD(&s->other_msgs, 1);
    ADD(&s->other_bytes, bytes);
}

long long sites_payload(long long count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    return count * size;
}

static void out_message(sites_site_t *s, long long bytes, int wpeer)
{
    if (!s) return;
    ADD(&s->msgs_out, 1);
    ADD(&s->bytes_out, bytes);
    ADD(&s->hist[size_bin(bytes)], 1);
    charge_peer(s, wpeer, bytes);
    if (wpeer >= 0) {
        ADD(&p2p_msgs[wpeer], 1);
        ADD(&p2p_bytes[wpeer], bytes);
    } else {
        ADD(&p2p_other, 1);
    }
}

void sites_send(sites_call_t *c, long long count, MPI_Datatype type, int peer, MPI_Comm comm)
{
    if (peer == MPI_PROC_NULL) return;
    long long bytes = sites_payload(count, type);
    c->sent += bytes;
    out_message(site_of(c), bytes, world_rank(comm, peer));
}

/* the bytes received */
static long long in_message(sites_site_t *s, const MPI_Status *st, MPI_Comm comm)
{
    int flag = 0;
    MPI_Count n = 0; /* a large-count receive's bytes may pass INT_MAX */
    if (!s || st->MPI_SOURCE == MPI_PROC_NULL) return 0;
    if (PMPI_Test_cancelled(st, &flag) == MPI_SUCCESS && flag) return 0;
#if MPI_VERSION >= 4
    if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0) n = 0;
#else /* MPI 3's: deprecated from MPI 4.1 on */
    if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0) n = 0;
#endif
    ADD(&s->msgs_in, 1);
    ADD(&s->bytes_in, (long long)n);
    ADD(&s->hist[size_bin(n)], 1);
    charge_peer(s, world_rank(comm, st->MPI_SOURCE), n);
    return (long long)n;
}

void sites_recv(sites_call_t *c, const MPI_Status *st, MPI_Comm comm)
{
    c->received += in_message(site_of(c), st, comm);
}

/* how many entries a v-collective's counts array has: the remote group's
 * size on an intercommunicator */
static int counts_length(MPI_Comm comm)
{
    int n = 0, inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &n);
    else
        PMPI_Comm_size(comm, &n);
    return n;
}

long long sites_payload_v(const int counts[], MPI_Datatype type, MPI_Comm comm)
{
    int n = counts_length(comm), size = 0;
    if (!counts || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += counts[i];
    return sum * size;
}

long long sites_payload_w(const int counts[], const MPI_Datatype types[], MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    long long sum = 0;
    for (int i = 0; counts && types && i < n; i++) sum += sites_payload(counts[i], types[i]);
    return sum;
}

long long sites_payload_vc(const MPI_Count counts[], MPI_Datatype type, MPI_Comm comm)
{
    int n = counts_length(comm), size = 0;
    if (!counts || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
    long long sum = 0;
    for (int i = 0; i < n; i++) sum += (long long)counts[i];
    return sum * size;
}

long long sites_payload_wc(const MPI_Count counts[], const MPI_Datatype types[], MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    long long sum = 0;
    for (int i = 0; counts && types && i < n; i++) sum += sites_payload((long long)counts[i], types[i]);
    return sum;
}

int sites_is_root(int root, MPI_Comm comm)
{
    int me = -1;
    if (root == MPI_ROOT) return 1;
    if (root < 0) return 0;
    PMPI_Comm_rank(comm, &me);
    return me == root;
}

void sites_coll(sites_call_t *c, long long bytes, int root, MPI_Comm comm)
{
    int wroot = root >= 0 ? world_rank(comm, root) : -1;
    sites_site_t *s = site_of(c);
    c->sent += bytes;
    if (s && bytes) {
        ADD(&s->bytes_out, bytes);
        ADD(&s->hist[size_bin(bytes)], 1);
    }
    unsigned h = hash_ptr((uintptr_t)(c->fn * 65599 + wroot + 1)) & (COLL_MAX - 1);
    for (int i = 0; i < COLL_MAX; i++, h = (h + 1) & (COLL_MAX - 1)) {
        sites_coll_cell_t *k = &colls[h];
        int cur = __atomic_load_n(&k->fn1, __ATOMIC_ACQUIRE);
        if (cur == 0) {
            int want = 0;
            if (__atomic_compare_exchange_n(&k->fn1, &want, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                k->root = wroot;
                __atomic_store_n(&k->fn1, c->fn + 1, __ATOMIC_RELEASE);
                cur = c->fn + 1;
            } else {
                cur = want;
            }
        }
        while (cur == -1) cur = __atomic_load_n(&k->fn1, __ATOMIC_ACQUIRE); /* being claimed */
        if (cur == c->fn + 1 && k->root == wroot) {
            ADD(&k->calls, 1);
            ADD(&k->bytes, bytes);
            return;
        }
    }
    ADD(&colls_overflow, 1);
}

void sites_rma(sites_call_t *c, long long count, MPI_Datatype type, int target, MPI_Win win)
{
    sites_site_t *s = site_of(c);
    if (!s || target == MPI_PROC_NULL) return;
    long long bytes = sites_payload(count, type);
    c->sent += bytes;
    ADD(&s->msgs_out, 1);
    ADD(&s->bytes_out, bytes);
    ADD(&s->hist[size_bin(bytes)], 1);
    charge_peer(s, win_world_rank(win, target), bytes);
}

void sites_io(sites_call_t *c, long long count, MPI_Datatype type, int write)
{
    sites_site_t *s = site_of(c);
    if (!s) return;
    long long bytes = sites_payload(count, type);
    *(write ? &c->sent : &c->received) += bytes;
    ADD(write ? &s->bytes_out : &s->bytes_in, bytes);
    ADD(&s->hist[size_bin(bytes)], 1);
}

void sites_found_waiting(void)
{
    sites_call_t *c = sites_call_now;
    sites_site_t *s = c && sites ? site_of(c) : NULL;
    ADD_ATOMIC(s ? &s->found : &found_outside, 1); /* maybe on a progress thread */
}

long long sites_found_outside(void) { return found_outside; }

/* ---- tracked requests */
static track_t *track_find(uintptr_t key)
{
    if (!tracks) return NULL;
    unsigned h = hash_ptr(key) & (TRACK_MAX - 1);
    for (int i = 0; i < TRACK_MAX; i++, h = (h + 1) & (TRACK_MAX - 1)) {
        track_t *t = &tracks[h];
        int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (st == TR_FREE) return NULL;
        if (st != TR_GONE && st > 0 && t->key == key) return t;
    }
    return NULL;
}

static void track_put(uintptr_t key, int state, sites_site_t *site, MPI_Comm comm, int peer, long long bytes,
                      int tag, int any_source, int any_tag)
{
    if (!tracks || !site) return;
    track_t *old = track_find(key); /* a handle the MPI reuses: the old use is over */
    if (old) __atomic_store_n(&old->state, TR_GONE, __ATOMIC_RELEASE);
    unsigned h = hash_ptr(key) & (TRACK_MAX - 1);
    for (int i = 0; i < TRACK_MAX; i++, h = (h + 1) & (TRACK_MAX - 1)) {
        track_t *t = &tracks[h];
        int cur = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (cur != TR_FREE && cur != TR_GONE) continue;
        /* -1: being written */
        if (!__atomic_compare_exchange_n(&t->state, &cur, -1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            continue;
        t->key = key;
        t->site = site;
        t->comm = comm;
        t->peer = peer;
        t->bytes = bytes;
        t->tag = tag, t->any_source = any_source, t->any_tag = any_tag;
        __atomic_store_n(&t->state, state, __ATOMIC_RELEASE);
        return;
    }
    ADD(&untracked, 1);
}

static void track_receive(sites_call_t *c, int state, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    int any = source == MPI_ANY_SOURCE;
    track_put(sites_key(req), state, site_of(c), comm, any ? -1 : world_rank(comm, source), 0, tag, any,
              tag == MPI_ANY_TAG);
}

void sites_track_recv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    track_receive(c, TR_RECV, req, comm, source, tag);
}

void sites_track_precv(sites_call_t *c, MPI_Request req, MPI_Comm comm, int source, int tag)
{
    track_receive(c, TR_PRECV, req, comm, source, tag);
}

void sites_mark_requests(sites_call_t *c, const MPI_Request reqs[], int n)
{
    sites_slot_t *s = slot();
    if (!s) return;
    for (int i = 0; i < n; i++) {
        track_t *t = track_find(sites_key(reqs[i]));
        if (t && (t->state == TR_RECV || t->state == TR_PRECV)) {
            set_slot(s, c->fn, slot_pc(c), c->t0, t->peer, t->tag, t->any_source, t->any_tag,
                     sites_key(t->comm));
            return;
        }
    }
    set_slot(s, c->fn, slot_pc(c), c->t0, -1, SITES_NO_TAG, 0, 0, 0);
}

void sites_track_psend(sites_call_t *c, MPI_Request req, long long count, MPI_Datatype type, int peer,
                       MPI_Comm comm)
{
    if (peer == MPI_PROC_NULL) return;
    track_put(sites_key(req), TR_PSEND, site_of(c), comm, world_rank(comm, peer), sites_payload(count, type),
              SITES_NO_TAG, 0, 0);
}

void sites_track_message(MPI_Message msg, MPI_Comm comm)
{
    if (msg == MPI_MESSAGE_NULL || msg == MPI_MESSAGE_NO_PROC) return;
    /* no site of its own: the site is the receive's */
    static sites_site_t none;
    track_put(sites_key(msg), TR_MESSAGE, &none, comm, -1, 0, SITES_NO_TAG, 0, 0);
}

MPI_Comm sites_message_comm(MPI_Message msg)
{
    track_t *t = track_find(sites_key(msg));
    if (!t || t->state != TR_MESSAGE) return MPI_COMM_NULL;
    MPI_Comm comm = t->comm;
    __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
    return comm;
}

void sites_forget(MPI_Request req)
{
    if (!__atomic_load_n(&sites_on, __ATOMIC_RELAXED)) return;
    track_t *t = track_find(sites_key(req));
    if (t) __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
}

void sites_started(MPI_Request req)
{
    track_t *t = track_find(sites_key(req));
    if (t && t->state == TR_PSEND) out_message(t->site, t->bytes, t->peer);
}

void sites_completed(uintptr_t key, const MPI_Status *st)
{
    track_t *t = track_find(key);
    if (!t) return;
    if (t->state == TR_RECV || t->state == TR_PRECV) {
        long long n = in_message(t->site, st, t->comm);
        if (sites_call_now) sites_call_now->received += n; /* the completion's bytes */
    }
    if (t->state == TR_RECV) __atomic_store_n(&t->state, TR_GONE, __ATOMIC_RELEASE);
}

/* ---- a thread's arrays for completion calls of more requests than
 * SITES_BATCH: grown by the first call that needs more, reused after (no
 * allocation per call); freed when the thread ends */
static pthread_key_t scratch_key;
static int scratch_key_made;
static __thread struct scratch {
    void *p;
    size_t cap;
} scratch[SITES_SCRATCH_N] __attribute__((tls_model("initial-exec")));

static void scratch_free(void *arg)
{
    struct scratch *sc = arg;
    for (int i = 0; i < SITES_SCRATCH_N; i++) free(sc[i].p), sc[i].p = NULL, sc[i].cap = 0;
}

void *sites_scratch(int which, size_t bytes)
{
    struct scratch *sc = &scratch[which];
    if (bytes <= sc->cap) return sc->p;
    size_t cap = sc->cap ? sc->cap : 4096;
    while (cap < bytes) cap *= 2;
    void *p = realloc(sc->p, cap);
    if (!p) return NULL;
    sc->p = p, sc->cap = cap;
    if (scratch_key_made) pthread_setspecific(scratch_key, scratch);
    return p;
}

MPI_Status *sites_batch_begin(sites_batch_t *b, MPI_Request reqs[], int n, MPI_Status *statuses)
{
    b->n = 0;
    b->nreq = n;
    b->idx = b->idx_s;
    b->key = b->key_s;
    b->own = NULL;
    for (int i = 0; i < n; i++) {
        uintptr_t k = sites_key(reqs[i]);
        if (!track_find(k)) continue;
        if (b->n == SITES_BATCH && b->idx == b->idx_s) {
            /* more tracked requests than the stack holds: the thread's arrays */
            int *idx = sites_scratch(SITES_SCRATCH_IDX, sizeof *idx * (size_t)n);
            uintptr_t *key = sites_scratch(SITES_SCRATCH_KEY, sizeof *key * (size_t)n);
            if (!idx || !key) {
                ADD(&untracked, 1);
                continue;
            }
            memcpy(idx, b->idx_s, sizeof b->idx_s);
            memcpy(key, b->key_s, sizeof b->key_s);
            b->idx = idx, b->key = key;
        }
        b->idx[b->n] = i;
        b->key[b->n++] = k;
    }
    if (statuses != MPI_STATUSES_IGNORE || b->n == 0) return statuses;
    if (n <= SITES_BATCH) return b->st_s;
    b->own = sites_scratch(SITES_SCRATCH_ST, sizeof *b->own * (size_t)n);
    if (!b->own) b->n = 0; /* the MPI then gets none, and the messages go uncharged */
    return b->own ? b->own : statuses;
}

void sites_batch_end(sites_batch_t *b) { b->idx = b->idx_s, b->key = b->key_s, b->own = NULL, b->n = 0; }

void sites_batch_all(sites_batch_t *b, MPI_Status *sts)
{
    for (int j = 0; j < b->n && sts != MPI_STATUSES_IGNORE; j++) sites_completed(b->key[j], &sts[b->idx[j]]);
}

void sites_batch_one(sites_batch_t *b, int index, MPI_Status *st)
{
    for (int j = 0; j < b->n && index != MPI_UNDEFINED; j++)
        if (b->idx[j] == index) sites_completed(b->key[j], st);
}

void sites_batch_some(sites_batch_t *b, int outcount, const int indices[], MPI_Status *sts)
{
    for (int k = 0; k < outcount && outcount != MPI_UNDEFINED && sts != MPI_STATUSES_IGNORE; k++)
        for (int j = 0; j < b->n; j++)
            if (b->idx[j] == indices[k]) sites_completed(b->key[j], &sts[k]);
}

/* ---- where the tables live: the rank's mapped state file, or the heap */
static char *placed;
static size_t placed_len;
static int tables_placed; /* the tables are in placed: not freed */

#define ALIGN64(n) (((n) + 63) & ~(size_t)63)
size_t sites_state_layout(int nprocs, sites_layout_t *l)
{
    size_t at = 0;
    l->slots = at, at = ALIGN64(at + sizeof(sites_slot_t) * SITES_THREADS);
    l->sites = at, at = ALIGN64(at + sizeof(sites_site_t) * SITES_MAX);
    l->colls = at, at = ALIGN64(at + sizeof(sites_coll_cell_t) * COLL_MAX);
    l->p2p_msgs = at, at = ALIGN64(at + sizeof(long long) * (size_t)nprocs);
    l->p2p_bytes = at, at = ALIGN64(at + sizeof(long long) * (size_t)nprocs);
    l->rings = at, at = ALIGN64(at + sizeof(sites_ring_t) * SITES_THREADS);
    l->nslots = SITES_THREADS, l->nsites = SITES_MAX, l->ncolls = COLL_MAX;
    return at;
}

void sites_place(void *area, size_t len)
{
    placed = area;
    placed_len = len;
}

void sites_clock(long long *ticks, long long *ns, double *ns_tick)
{
    *ticks = anchor_ticks, *ns = anchor_ns, *ns_tick = sites_use_tsc ? ns_per_tick : 1;
}

/* ---- begin and end */
int sites_begin(int rank, int nprocs, char *why, size_t len)
{
    my_rank = rank;
    world_size = nprocs;
    world = MPI_COMM_WORLD;
    self = MPI_COMM_SELF;
    sites_use_tsc = tsc_is_steady();
    anchor_ns = sites_now_ns();
    anchor_ticks = sites_ticks();
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    sites_mt = level == MPI_THREAD_MULTIPLE;
    sites_layout_t l;
    if (placed && sites_state_layout(nprocs, &l) <= placed_len) { /* zero-filled: a new file */
        tables_placed = 1;
        slots = (sites_slot_t *)(placed + l.slots);
        sites = (sites_site_t *)(placed + l.sites);
        colls = (sites_coll_cell_t *)(placed + l.colls);
        p2p_msgs = (long long *)(placed + l.p2p_msgs);
        p2p_bytes = (long long *)(placed + l.p2p_bytes);
        rings = (sites_ring_t *)(placed + l.rings);
        /* a reader of the file sees no call in a slot no thread has claimed */
        for (int i = 0; i < SITES_THREADS; i++) slots[i].rec[0].fn = slots[i].rec[1].fn = -1;
    } else {
        sites = calloc(SITES_MAX, sizeof *sites);
        colls = calloc(COLL_MAX, sizeof *colls);
        p2p_msgs = calloc((size_t)nprocs, sizeof *p2p_msgs);
        p2p_bytes = calloc((size_t)nprocs, sizeof *p2p_bytes);
    }
    tracks = calloc(TRACK_MAX, sizeof *tracks); /* the MPI's handles: of no use outside the process */
    if (!sites || !tracks || !colls || !p2p_msgs || !p2p_bytes) {
        snprintf(why, len, "no memory for the call-site tables");
        sites_end();
        return -1;
    }
    if (!scratch_key_made && pthread_key_create(&scratch_key, scratch_free) == 0) scratch_key_made = 1;
    PMPI_Comm_create_keyval(copy_none, delete_table, &comm_keyval, NULL);
    PMPI_Win_create_keyval(win_copy_none, win_delete_table, &win_keyval, NULL);
    const char *d = getenv("PAPI_MPIT_REPORT_SITE_DEPTH");
    sites_frames_begin(d && *d ? atoi(d) : 0, getenv("PAPI_MPIT_REPORT_SITE_LIBS"), frames_why,
                       sizeof frames_why);
    return 0;
}

void sites_window(int open)
{
    /* a safe point: the MPI's own modules loaded by MPI_Init are known from here on */
    if (open) sites_modules_refresh();
    long long dt = sites_ticks() - anchor_ticks, dns = sites_now_ns() - anchor_ns;
    if (open && sites_use_tsc && dt > 0 && dns > 0) ns_per_tick = (double)dns / (double)dt;
    if (open && sites_use_tsc && counter_rate() > 0) ns_per_tick = counter_rate();
    if (sites) __atomic_store_n(&sites_on, open, __ATOMIC_RELEASE);
}

void sites_end(void)
{
    __atomic_store_n(&sites_on, 0, __ATOMIC_RELEASE);
    /* the comms and windows keep their tables until freed (the delete
     * callbacks); the keyvals go, which frees nothing the MPI still needs */
    if (!tables_placed) free(sites), free(colls), free(p2p_msgs), free(p2p_bytes);
    free(tracks);
    tables_placed = 0;
    sites = NULL, tracks = NULL, colls = NULL, p2p_msgs = NULL, p2p_bytes = NULL, rings = NULL;
}

const sites_site_t *sites_table(int *cap)
{
    *cap = sites ? SITES_MAX : 0;
    return sites;
}

void sites_p2p(const long long **msgs, const long long **bytes, int *nprocs, long long *other)
{
    *msgs = p2p_msgs;
    *bytes = p2p_bytes;
    *nprocs = p2p_msgs ? world_size : 0;
    *other = p2p_other;
}

const sites_coll_cell_t *sites_colls(int *cap)
{
    *cap = colls ? COLL_MAX : 0;
    return colls;
}

void sites_overflows(long long *s, long long *c, long long *u)
{
    *s = sites_overflow;
    *c = colls_overflow;
    *u = untracked;
}
