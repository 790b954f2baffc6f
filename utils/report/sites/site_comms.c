/*
 * papi-mpit-report: the program's communicators (site_comms.h).  The
 * constructors are the comm rows of mpi-calls.tsv (their C and Fortran
 * wrappers are generated, and are call sites like the others): after the
 * program's call returns, the new communicator's group is translated to
 * ranks of MPI_COMM_WORLD and kept, under a mutex (these calls are rare,
 * and the snapshot's reader is the tool's helper thread, never a signal
 * handler: it waits for the mutex a bounded time).  Intercommunicators
 * are not kept (their collectives are said to be on an unknown
 * communicator), nor MPI_Comm_idup's (its group is not there before the
 * request completes).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_handles.h"
#include "site_comm_cells.h"
#include "site_comms.h"
#include "site_table.h"

#define COMMS_MAX SITES_COMMS_MAX
#define SEEN_MAX  1024 /* distinct member sets counted */

typedef struct comm_ent {
    uintptr_t key; /* 0: free */
    int size, ordinal;
    unsigned long hash;
    int *members; /* sorted world ranks; NULL for MPI_COMM_WORLD (0 .. size-1) */
} comm_ent_t;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static comm_ent_t ents[COMMS_MAX];
static struct {
    unsigned long hash;
    int count;
} seen[SEEN_MAX];
static int on, world_size;
static sites_comm_cell_t *cells; /* ents[i]'s copy in the mapped state file, or NULL */
static void cell_put(int i);

void sites_comms_place(sites_comm_cell_t *c) { cells = c; }

static unsigned long hash_members(const int *m, int n)
{
    unsigned long h = 1469598103934665603UL;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned long)(unsigned)(m ? m[i] : i)) * 1099511628211UL;
    return h ^ (unsigned long)n;
}

/* how many communicators of these members this rank made before */
static int ordinal_of(unsigned long h)
{
    for (int i = 0; i < SEEN_MAX; i++) {
        if (seen[i].count && seen[i].hash == h) return seen[i].count++;
        if (!seen[i].count) {
            seen[i].hash = h;
            seen[i].count = 1;
            return 0;
        }
    }
    return -1;
}

void sites_comms_begin(int nprocs)
{
    pthread_mutex_lock(&mu);
    world_size = nprocs;
    memset(ents, 0, sizeof ents);
    memset(seen, 0, sizeof seen);
    MPI_Comm world = MPI_COMM_WORLD;
    ents[0].key = sites_key(world);
    ents[0].size = nprocs;
    ents[0].hash = hash_members(NULL, nprocs);
    ents[0].ordinal = ordinal_of(ents[0].hash);
    cell_put(0);
    on = 1;
    pthread_mutex_unlock(&mu);
}

void sites_comms_end(void)
{
    pthread_mutex_lock(&mu);
    on = 0;
    for (int i = 0; i < COMMS_MAX; i++) free(ents[i].members);
    memset(ents, 0, sizeof ents);
    cells = NULL; /* the file goes with the run */
    pthread_mutex_unlock(&mu);
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

static void record(MPI_Comm comm)
{
    if (!__atomic_load_n(&on, __ATOMIC_ACQUIRE) || comm == MPI_COMM_NULL) return;
    int inter = 0, n = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) return;
    MPI_Group g, wg;
    if (PMPI_Comm_group(comm, &g) != MPI_SUCCESS) return;
    PMPI_Group_size(g, &n);
    int *in = malloc(sizeof *in * (size_t)(n ? n : 1)), *out = malloc(sizeof *out * (size_t)(n ? n : 1));
    if (!in || !out) {
        free(in), free(out);
        PMPI_Group_free(&g);
        return;
    }
    for (int i = 0; i < n; i++) in[i] = i;
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Group_translate_ranks(g, n, in, wg, out);
    PMPI_Group_free(&wg);
    PMPI_Group_free(&g);
    free(in);
    qsort(out, (size_t)n, sizeof *out, by_int);
    unsigned long h = hash_members(out, n);
    pthread_mutex_lock(&mu);
    int placed = 0;
    for (int i = 0; i < COMMS_MAX && !placed; i++)
        if (!ents[i].key) {
            ents[i] = (comm_ent_t){sites_key(comm), n, ordinal_of(h), h, out};
            cell_put(i);
            placed = 1;
        }
    if (!placed) ordinal_of(h); /* counted all the same: the ids of later ones stay right */
    pthread_mutex_unlock(&mu);
    if (!placed) free(out);
}

static void forget(MPI_Comm comm)
{
    if (!__atomic_load_n(&on, __ATOMIC_ACQUIRE)) return;
    uintptr_t k = sites_key(comm);
    pthread_mutex_lock(&mu);
    for (int i = 1; i < COMMS_MAX; i++)
        if (ents[i].key == k) {
            free(ents[i].members);
            memset(&ents[i], 0, sizeof ents[i]);
            cell_put(i);
            break;
        }
    pthread_mutex_unlock(&mu);
}

/* the table's mutex, waited for at most 100 ms (a thread of the program
 * stopped while holding it) */
static int lock_bounded(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += 100000000;
    if (t.tv_nsec >= 1000000000) t.tv_sec++, t.tv_nsec -= 1000000000;
    return pthread_mutex_timedlock(&mu, &t);
}

static size_t ranges(char *b, size_t len, const int *m, int n)
{
    size_t k = 0;
    if (len) b[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i, lo = m ? m[i] : i;
        while (j + 1 < n && (m ? m[j + 1] : j + 1) == (m ? m[j] : j) + 1) j++;
        int hi = m ? m[j] : j;
        int w = lo == hi ? snprintf(b + k, k < len ? len - k : 0, "%s%d", i ? "," : "", lo)
                         : snprintf(b + k, k < len ? len - k : 0, "%s%d-%d", i ? "," : "", lo, hi);
        if (w > 0) k += (size_t)w;
        i = j + 1;
    }
    return k < len ? k : (len ? len - 1 : 0);
}

static void id_of(const comm_ent_t *e, char *id, size_t len)
{
    if (e == &ents[0])
        snprintf(id, len, "world");
    else
        snprintf(id, len, "%lx.%d", e->hash, e->ordinal);
}

/* ents[i] into its cell, under mu: seq odd while written, so that a rank
 * killed in the middle leaves a cell the merge passes over */
static void cell_put(int i)
{
    if (!cells) return;
    sites_comm_cell_t *c = &cells[i];
    __atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    c->size = ents[i].size, c->ordinal = ents[i].ordinal, c->world = i == 0;
    c->hash = ents[i].hash;
    size_t k = ranges(c->members, sizeof c->members, ents[i].members, ents[i].size);
    if (k + 1 >= sizeof c->members) c->members[0] = '\0'; /* cut short: left unsaid */
    __atomic_store_n(&c->key, (uint64_t)ents[i].key, __ATOMIC_RELAXED);
    __atomic_store_n(&c->seq, c->seq + 1, __ATOMIC_RELEASE);
}

int sites_comm_describe(uintptr_t key, char *id, size_t idlen, char *members, size_t mlen)
{
    snprintf(id, idlen, "?");
    if (mlen) members[0] = '\0';
    if (!key || lock_bounded()) return -1;
    int rc = -1;
    for (int i = 0; i < COMMS_MAX && on; i++)
        if (ents[i].key == key) {
            id_of(&ents[i], id, idlen);
            ranges(members, mlen, ents[i].members, ents[i].size);
            rc = 0;
            break;
        }
    pthread_mutex_unlock(&mu);
    return rc;
}

size_t sites_comms_record(char *buf, size_t cap)
{
    size_t n = 0;
    if (!cap || lock_bounded()) return 0;
    char id[64];
    for (int i = 0; i < COMMS_MAX && on; i++) {
        if (!ents[i].key) continue;
        id_of(&ents[i], id, sizeof id);
        int w = snprintf(buf + n, cap - n, "B\t%s\t%d\t", id, ents[i].size);
        if (w < 0 || (size_t)w >= cap - n) break;
        n += (size_t)w;
        n += ranges(buf + n, cap - n, ents[i].members, ents[i].size);
        if (n + 2 >= cap) break;
        buf[n++] = '\n';
        buf[n] = '\0';
    }
    pthread_mutex_unlock(&mu);
    return n;
}

/* ---- from the wrappers of mpi-calls.tsv's comm and comm_free rows */
void sites_comm_made(MPI_Comm comm) { record(comm); }

void sites_comm_freed(MPI_Comm comm) { forget(comm); }
