/*
 * papi-mpit-report: the call sites' peers as ranks of MPI_COMM_WORLD,
 * translated from a communicator's or a window's group once, at its first
 * use (site_table.h says how), then read without a lock.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <pthread.h>
#include <stdlib.h>

#include "site_private.h"
#include "site_table.h"

int sites_world_size, sites_world_me;
MPI_Comm sites_world_comm, sites_self_comm;
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
static int comm_keyval = MPI_KEYVAL_INVALID, win_keyval = MPI_KEYVAL_INVALID;

void sites_world_begin(int rank, int nprocs)
{
    sites_world_me = rank;
    sites_world_size = nprocs;
    sites_world_comm = MPI_COMM_WORLD;
    sites_self_comm = MPI_COMM_SELF;
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
    PMPI_Comm_group(sites_world_comm, &wg);
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
 * group), comm neither MPI_COMM_WORLD nor MPI_COMM_SELF (sites_world_rank
 * answers those); -1 for none (MPI_PROC_NULL, MPI_ANY_SOURCE, outside the
 * world). */
int sites_world_rank_of(MPI_Comm comm, int rank)
{
    if (rank < 0) return -1;
    if (comm_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL) return -1;
    uintptr_t key = sites_key(comm);
    const int *t = table_find(key);
    if (!t) t = first_use(key, comm, MPI_WIN_NULL);
    return t && rank < t[0] ? t[1 + rank] : -1;
}

int sites_win_world_rank(MPI_Win win, int rank)
{
    if (rank < 0 || win_keyval == MPI_KEYVAL_INVALID) return -1;
    uintptr_t key = sites_key(win);
    const int *t = table_find(key);
    if (!t) t = first_use(key, MPI_COMM_NULL, win);
    return t && rank < t[0] ? t[1 + rank] : -1;
}

void sites_world_keyvals(void)
{
    PMPI_Comm_create_keyval(copy_none, delete_table, &comm_keyval, NULL);
    PMPI_Win_create_keyval(win_copy_none, win_delete_table, &win_keyval, NULL);
}
