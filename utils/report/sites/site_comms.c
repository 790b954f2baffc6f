/*
 * papi-mpit-report: the program's communicators (site_comms.h).  The
 * constructors are wrapped (only PMPI_ calls inside): after the program's
 * call returns, the new communicator's group is translated to ranks of
 * MPI_COMM_WORLD and kept, under a mutex (these calls are rare, and the
 * snapshot's reader is the tool's helper thread, never a signal handler:
 * it waits for the mutex a bounded time).  Not wrapped: the distributed
 * graph constructors and intercommunicators' creation (their collectives
 * are said to be on an unknown communicator).  Fortran programs' calls
 * come through the constructors' Fortran entry points below (Open MPI's
 * Fortran layer and MPICH's mpi_f08 call PMPI_ names, past the C ones).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report_handles.h"
#include "site_comms.h"
#include "site_fortran.h"
#include "site_table.h"

#define COMMS_MAX 1024 /* communicators alive at once; more are unknown */
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
/* inside a Fortran constructor: a C one the MPI's Fortran layer calls on
 * the way (MPICH's) records nothing, the Fortran one does */
static __thread int in_fortran __attribute__((tls_model("initial-exec")));

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
    on = 1;
    pthread_mutex_unlock(&mu);
}

void sites_comms_end(void)
{
    pthread_mutex_lock(&mu);
    on = 0;
    for (int i = 0; i < COMMS_MAX; i++) free(ents[i].members);
    memset(ents, 0, sizeof ents);
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

/* ---- the constructors (prototypes come from mpi.h) */
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup(comm, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_dup_with_info(comm, info, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split(comm, color, key, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_split_type(comm, type, key, info, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_create(comm, group, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    int rc = PMPI_Comm_create_group(comm, group, tag, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder,
                    MPI_Comm *newcomm)
{
    int rc = PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    int rc = PMPI_Cart_sub(comm, remain_dims, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Graph_create(MPI_Comm comm, int nnodes, const int index[], const int edges[], int reorder,
                     MPI_Comm *newcomm)
{
    int rc = PMPI_Graph_create(comm, nnodes, index, edges, reorder, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newcomm)
{
    int rc = PMPI_Intercomm_merge(intercomm, high, newcomm);
    if (rc == MPI_SUCCESS && !in_fortran) record(*newcomm);
    return rc;
}

int MPI_Comm_free(MPI_Comm *comm)
{
    if (comm && !in_fortran) forget(*comm);
    return PMPI_Comm_free(comm);
}

#if defined(SITES_F_WRAPPED)
/* ---- the constructors' Fortran entry points, in site_fortran.h's five
 * spellings: each calls the MPI's own Fortran entry below it (pmpi_..., or
 * MPICH's pmpir_..._f08_) and records the new communicator (the last
 * argument before ierror in every one of them) */
static void *ctor_next(void **cache, const char *name)
{
    void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
    if (f) return f;
    f = dlsym(RTLD_NEXT, name);
    if (!f && strstr(name, "_f08_")) { /* MPICH's f08 layer: pmpir_comm_dup_f08_ */
        char r[96];
        snprintf(r, sizeof r, "pmpir_%s", name + 5);
        f = dlsym(RTLD_NEXT, r);
    }
    if (f) __atomic_store_n(cache, f, __ATOMIC_RELEASE);
    return f;
}

static void ctor_missing(const char *name, MPI_Fint *ierr)
{
    fprintf(stderr, "papi-mpit-report: the MPI's own Fortran routine %s is not found: the call fails\n",
            name);
    if (ierr) *ierr = MPI_ERR_OTHER;
}

/* PARAMS: the Fortran arguments (by reference), newcomm and ierr last;
 * ARGS: them, with rc for ierr (mpi_f08's ierror is optional) */
#define F_CTOR(sym, pname, PARAMS, ARGS)                                                                     \
    void sym PARAMS;                                                                                         \
    void sym PARAMS                                                                                          \
    {                                                                                                        \
        static void *next;                                                                                   \
        void(*f) PARAMS = (void(*) PARAMS)ctor_next(&next, pname);                                           \
        MPI_Fint own = MPI_SUCCESS, *rc = ierr ? ierr : &own;                                                \
        if (!f) {                                                                                            \
            ctor_missing(pname, ierr);                                                                       \
            return;                                                                                          \
        }                                                                                                    \
        in_fortran++;                                                                                        \
        f ARGS;                                                                                              \
        in_fortran--;                                                                                        \
        if (*rc == MPI_SUCCESS) record(PMPI_Comm_f2c(*newcomm));                                             \
    }
#define F_CTORS(low, up, PARAMS, ARGS)                                                                       \
    F_CTOR(low##_, "p" #low "_", PARAMS, ARGS)                                                               \
    F_CTOR(low##__, "p" #low "__", PARAMS, ARGS)                                                             \
    F_CTOR(low, "p" #low, PARAMS, ARGS)                                                                      \
    F_CTOR(up, "P" #up, PARAMS, ARGS)                                                                        \
    F_CTOR(low##_f08_, "p" #low "_f08_", PARAMS, ARGS)

typedef MPI_Fint F; /* every argument is a reference: to a handle, an INTEGER, a LOGICAL or an array */
F_CTORS(mpi_comm_dup, MPI_COMM_DUP, (F * c, F *newcomm, F *ierr), (c, newcomm, rc))
F_CTORS(mpi_comm_dup_with_info, MPI_COMM_DUP_WITH_INFO, (F * c, F *i, F *newcomm, F *ierr),
        (c, i, newcomm, rc))
F_CTORS(mpi_comm_split, MPI_COMM_SPLIT, (F * c, F *color, F *key, F *newcomm, F *ierr),
        (c, color, key, newcomm, rc))
F_CTORS(mpi_comm_split_type, MPI_COMM_SPLIT_TYPE, (F * c, F *t, F *key, F *i, F *newcomm, F *ierr),
        (c, t, key, i, newcomm, rc))
F_CTORS(mpi_comm_create, MPI_COMM_CREATE, (F * c, F *g, F *newcomm, F *ierr), (c, g, newcomm, rc))
F_CTORS(mpi_comm_create_group, MPI_COMM_CREATE_GROUP, (F * c, F *g, F *tag, F *newcomm, F *ierr),
        (c, g, tag, newcomm, rc))
F_CTORS(mpi_cart_create, MPI_CART_CREATE, (F * c, F *nd, F *dims, F *per, F *re, F *newcomm, F *ierr),
        (c, nd, dims, per, re, newcomm, rc))
F_CTORS(mpi_cart_sub, MPI_CART_SUB, (F * c, F *remain, F *newcomm, F *ierr), (c, remain, newcomm, rc))
F_CTORS(mpi_graph_create, MPI_GRAPH_CREATE, (F * c, F *nn, F *idx, F *edges, F *re, F *newcomm, F *ierr),
        (c, nn, idx, edges, re, newcomm, rc))
F_CTORS(mpi_intercomm_merge, MPI_INTERCOMM_MERGE, (F * c, F *high, F *newcomm, F *ierr),
        (c, high, newcomm, rc))

/* MPI_Comm_free: forgotten before the MPI's own entry frees it */
#define F_FREE(sym, pname)                                                                                   \
    void sym(F *c, F *ierr);                                                                                 \
    void sym(F *c, F *ierr)                                                                                  \
    {                                                                                                        \
        static void *next;                                                                                   \
        void (*f)(F *, F *) = (void (*)(F *, F *))ctor_next(&next, pname);                                   \
        if (!f) {                                                                                            \
            ctor_missing(pname, ierr);                                                                       \
            return;                                                                                          \
        }                                                                                                    \
        forget(PMPI_Comm_f2c(*c));                                                                           \
        in_fortran++;                                                                                        \
        f(c, ierr);                                                                                          \
        in_fortran--;                                                                                        \
    }
F_FREE(mpi_comm_free_, "pmpi_comm_free_")
F_FREE(mpi_comm_free__, "pmpi_comm_free__")
F_FREE(mpi_comm_free, "pmpi_comm_free")
F_FREE(MPI_COMM_FREE, "PMPI_COMM_FREE")
F_FREE(mpi_comm_free_f08_, "pmpi_comm_free_f08_")
#endif
