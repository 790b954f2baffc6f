/*
 * papi-mpit-report: what is charged to the call sites (site_table.h says
 * what is charged where; site_find.c finds a call's site): sites, peers
 * and collective cells are open-addressed tables of fixed size, claimed
 * with compare-and-swap; counts are relaxed atomic adds where the
 * program's threads may call MPI at once (a Waitall on one thread and an
 * Isend on another may charge one site at once).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <stdlib.h>

#include "site_count.h"
#include "site_hash.h"
#include "site_private.h"
#include "site_table.h"

int sites_on;
__thread int sites_depth __attribute__((tls_model("initial-exec")));
__thread sites_call_t *sites_call_now __attribute__((tls_model("initial-exec")));
static long long found_outside;

static long long *p2p_msgs, *p2p_bytes, p2p_other; /* by receiver, world_size each */
static sites_coll_cell_t *colls;

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

void sites_leave(sites_call_t *c)
{
    long long dt = sites_ticks() - c->t0;
    sites_slot_leave(c, c->t0 + dt); /* the call is over: into its ring */
    sites_call_now = NULL;
    sites_site_t *s = sites_site_of(c);
    if (s) {
        ADD(&s->calls, 1);
        ADD(&s->ns, dt);
#if !defined(SITES_NO_CALL_EXTREMES) /* bench/report_sites_extremes.sh builds  \
                                        without them, to measure them */
        raise_to(&s->ns_max, dt);
        lower_to(&s->ns_min1, dt + 1);
#endif
    }
    sites_depth = 0;
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

void sites_out_message(sites_site_t *s, long long bytes, int wpeer)
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
    sites_out_message(sites_site_of(c), bytes, sites_world_rank(comm, peer));
}

/* the bytes received */
long long sites_in_message(sites_site_t *s, const MPI_Status *st, MPI_Comm comm)
{
    int flag = 0, n_int = 0;
    MPI_Count n = 0;
    if (!s || st->MPI_SOURCE == MPI_PROC_NULL) return 0;
    if (PMPI_Test_cancelled(st, &flag) == MPI_SUCCESS && flag) return 0;
    /* MPI_Get_count first: the large-count forms cost more (Open MPI's
     * MPI_Get_elements_x walks the datatype), and it says MPI_UNDEFINED
     * only for a receive past INT_MAX bytes, then asked of them */
    if (PMPI_Get_count(st, MPI_BYTE, &n_int) == MPI_SUCCESS && n_int != MPI_UNDEFINED)
        n = n_int >= 0 ? n_int : 0;
#if MPI_VERSION >= 4
    else if (PMPI_Get_count_c(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        n = 0;
#else /* MPI 3's: deprecated from MPI 4.1 on */
    else if (PMPI_Get_elements_x(st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED || n < 0)
        n = 0;
#endif
    ADD(&s->msgs_in, 1);
    ADD(&s->bytes_in, (long long)n);
    ADD(&s->hist[size_bin(n)], 1);
    charge_peer(s, sites_world_rank(comm, st->MPI_SOURCE), n);
    return (long long)n;
}

void sites_recv(sites_call_t *c, const MPI_Status *st, MPI_Comm comm)
{
    c->received += sites_in_message(sites_site_of(c), st, comm);
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
    int wroot = root >= 0 ? sites_world_rank(comm, root) : -1;
    sites_site_t *s = sites_site_of(c);
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
    ADD(&sites_over->colls, 1);
}

void sites_rma(sites_call_t *c, long long count, MPI_Datatype type, int target, MPI_Win win)
{
    sites_site_t *s = sites_site_of(c);
    if (!s || target == MPI_PROC_NULL) return;
    long long bytes = sites_payload(count, type);
    c->sent += bytes;
    ADD(&s->msgs_out, 1);
    ADD(&s->bytes_out, bytes);
    ADD(&s->hist[size_bin(bytes)], 1);
    charge_peer(s, sites_win_world_rank(win, target), bytes);
}

void sites_io(sites_call_t *c, long long count, MPI_Datatype type, int write)
{
    sites_site_t *s = sites_site_of(c);
    if (!s) return;
    long long bytes = sites_payload(count, type);
    *(write ? &c->sent : &c->received) += bytes;
    ADD(write ? &s->bytes_out : &s->bytes_in, bytes);
    ADD(&s->hist[size_bin(bytes)], 1);
}

void sites_found_waiting(void)
{
    sites_call_t *c = sites_call_now;
    sites_site_t *s = c && sites_site_table ? sites_site_of(c) : NULL;
    ADD_ATOMIC(s ? &s->found : &found_outside, 1); /* maybe on a progress thread */
}

long long sites_found_outside(void) { return found_outside; }

void sites_charge_place(char *area, const sites_layout_t *l)
{
    sites_site_table = (sites_site_t *)(area + l->sites);
    colls = (sites_coll_cell_t *)(area + l->colls);
    p2p_msgs = (long long *)(area + l->p2p_msgs);
    p2p_bytes = (long long *)(area + l->p2p_bytes);
    sites_over = (sites_overflow_t *)(area + l->overflows);
}

void sites_charge_alloc(int nprocs)
{
    sites_site_table = calloc(SITES_MAX, sizeof *sites_site_table);
    colls = calloc(COLL_MAX, sizeof *colls);
    p2p_msgs = calloc((size_t)nprocs, sizeof *p2p_msgs);
    p2p_bytes = calloc((size_t)nprocs, sizeof *p2p_bytes);
}

int sites_charge_ready(void) { return sites_site_table && colls && p2p_msgs && p2p_bytes; }

void sites_charge_end(int free_them)
{
    if (free_them) free(sites_site_table), free(colls), free(p2p_msgs), free(p2p_bytes);
    sites_site_table = NULL, colls = NULL, p2p_msgs = NULL, p2p_bytes = NULL;
}

const sites_site_t *sites_table(int *cap)
{
    *cap = sites_site_table ? SITES_MAX : 0;
    return sites_site_table;
}

void sites_p2p(const long long **msgs, const long long **bytes, int *nprocs, long long *other)
{
    *msgs = p2p_msgs;
    *bytes = p2p_bytes;
    *nprocs = p2p_msgs ? sites_world_size : 0;
    *other = p2p_other;
}

const sites_coll_cell_t *sites_colls(int *cap)
{
    *cap = colls ? COLL_MAX : 0;
    return colls;
}
