/*
 * papi-mpit-report: the Fortran entry points' side of the call-site
 * wrappers (site_fortran.h says what they do): the MPI's own Fortran
 * entries below them, the Fortran sentinels, statuses and request arrays.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <ctype.h>
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_handles.h"
#include "site_fn.h"
#include "site_fortran.h"

#if defined(SITES_F_WRAPPED)

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER arrays are read as C int arrays");

/* ---- the MPI's own entries (dlsym after us): every one at sites_f_begin,
 * so that no call does a lookup; one not found then (a Fortran layer
 * loaded later) is looked up at its calls */
static void *next_fn[SITES_NFN][SITES_F_SPELLINGS];

/* the name of call fn in spelling sp with prefix ("pmpi", "pmpir") */
static void spell(char *out, size_t len, int fn, int sp, const char *prefix)
{
    const char *name = sites_fn[fn].name; /* MPI_Send */
    char base[96];
    size_t i = 0;
    for (const char *s = name + 3; *s && i + 1 < sizeof base; s++) /* after "MPI" */
        base[i++] = (char)(sp == SITES_F_UPPER ? toupper((unsigned char)*s) : tolower((unsigned char)*s));
    base[i] = 0;
    static const char *const tail[SITES_F_SPELLINGS] = {"_", "__", "", "", "_f08_", "_f08ts_"};
    if (sp == SITES_F_UPPER)
        snprintf(out, len, "P%s%s", "MPI", base);
    else
        snprintf(out, len, "%s%s%s", prefix, base, tail[sp]);
}

static void *lookup(int fn, int sp)
{
    char name[128];
    spell(name, sizeof name, fn, sp, "pmpi");
    void *f = dlsym(RTLD_NEXT, name);
    if (!f && (sp == SITES_F_F08 || sp == SITES_F_F08TS)) { /* MPICH's f08 layer: pmpir_barrier_f08_ */
        spell(name, sizeof name, fn, sp, "pmpir");
        f = dlsym(RTLD_NEXT, name);
    }
    /* no profiling name: the MPI's own entry (its calls below are this one's) */
    if (!f && sp == SITES_F_F08TS) {
        spell(name, sizeof name, fn, sp, "mpi");
        f = dlsym(RTLD_NEXT, name);
    }
    return f;
}

void *sites_f_next(int fn, int sp)
{
    void *f = __atomic_load_n(&next_fn[fn][sp], __ATOMIC_ACQUIRE);
    if (f) return f;
    f = lookup(fn, sp);
    /* threads racing here store the same address */
    if (f) __atomic_store_n(&next_fn[fn][sp], f, __ATOMIC_RELEASE);
    return f;
}

void sites_f_missing(int fn, int sp, MPI_Fint *ierr)
{
    static int said;
    char name[128];
    spell(name, sizeof name, fn, sp, "pmpi");
    if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "papi-mpit-report: the MPI's own Fortran routine %s is not found: the call fails\n",
                name);
    if (ierr) *ierr = MPI_ERR_OTHER;
}

/* ---- the Fortran sentinels: the address of a symbol, or the pointer a
 * symbol holds (the standard's MPI_F_STATUS_IGNORE, MPICH's
 * MPIR_F_MPI_IN_PLACE, set when its Fortran layer starts) */
typedef struct sentinel {
    const char *sym;
    int holds; /* 1: the symbol holds the address */
} sentinel_t;
static const sentinel_t status_ignore[] = {
    {"MPI_F_STATUS_IGNORE", 1},            /* mpif.h, use mpi (both); Open MPI's mpi_f08 */
    {"MPI_F08_STATUS_IGNORE", 1},          /* MPICH's mpi_f08 */
    {"mpi_fortran_status_ignore_", 0},     /* Open MPI's common block */
    {"MPIR_F08_MPI_STATUS_IGNORE_OBJ", 0}, /* MPICH's mpi_f08 object */
};
static const sentinel_t statuses_ignore[] = {
    {"MPI_F_STATUSES_IGNORE", 1},
    {"MPI_F08_STATUSES_IGNORE", 1},
    {"mpi_fortran_statuses_ignore_", 0},
    {"MPIR_F08_MPI_STATUSES_IGNORE_OBJ", 0},
};
static const sentinel_t in_place[] = {
    {"mpi_fortran_in_place_", 0}, /* Open MPI's common block (mpif.h, use mpi, mpi_f08) */
    {"MPIR_F_MPI_IN_PLACE", 1},   /* MPICH's mpif.h and use mpi */
    {"MPIR_F08_MPI_IN_PLACE", 0}, /* MPICH's mpi_f08 */
};
#define NSENT 4
static void *st_sym[NSENT], *sts_sym[NSENT], *ip_sym[NSENT];

static void find(const sentinel_t *s, int n, void **out)
{
    for (int i = 0; i < n; i++) out[i] = dlsym(RTLD_DEFAULT, s[i].sym);
}

void sites_f_begin(void)
{
    find(status_ignore, NSENT, st_sym);
    find(statuses_ignore, NSENT, sts_sym);
    find(in_place, 3, ip_sym);
    for (int fn = 0; fn < SITES_NFN; fn++)
        for (int sp = 0; sp < SITES_F_SPELLINGS; sp++)
            __atomic_store_n(&next_fn[fn][sp], lookup(fn, sp), __ATOMIC_RELEASE);
}

static int is_sentinel(const sentinel_t *s, int n, void *const *sym, const void *p)
{
    for (int i = 0; i < n; i++) {
        if (!sym[i]) continue;
        const void *a = s[i].holds ? *(void *const *)sym[i] : sym[i];
        if (a && a == p) return 1;
    }
    return 0;
}

MPI_Fint *sites_f_status(MPI_Fint *own, MPI_Fint *given)
{
    return is_sentinel(status_ignore, NSENT, st_sym, given) ? own : given;
}

void sites_f_status_c(const MPI_Fint *f, MPI_Status *c)
{
    /* Open MPI's and MPICH's f08 status has the layout of their Fortran
     * INTEGER status, so one conversion serves both */
    PMPI_Status_f2c(f, c);
}

int sites_f_in_place(int sp, const void *buf)
{
    /* a TS 29113 descriptor's first member is the data's address */
    if (sp == SITES_F_F08TS) buf = buf ? *(const void *const *)buf : NULL;
    return is_sentinel(in_place, 3, ip_sym, buf);
}

long long sites_f_payload_w(const MPI_Fint counts[], const MPI_Fint types[], MPI_Comm comm)
{
    int n = 0;
    PMPI_Comm_size(comm, &n);
    long long sum = 0;
    for (int i = 0; counts && types && i < n; i++) sum += sites_payload(counts[i], PMPI_Type_f2c(types[i]));
    return sum;
}

/* ---- arrays of requests */
MPI_Fint *sites_f_batch_begin(sites_f_batch_t *fb, const MPI_Fint reqs[], int n, MPI_Fint *statuses)
{
    fb->n = n > 0 ? n : 0;
    fb->own = NULL;
    fb->creq = fb->n <= SITES_BATCH ? fb->creq_s
                                    : sites_scratch(SITES_SCRATCH_F_REQ, sizeof *fb->creq * (size_t)fb->n);
    if (!fb->creq) { /* the requests go untracked: their messages are not charged */
        fb->creq = fb->creq_s;
        fb->n = 0;
    }
    for (int i = 0; i < fb->n; i++) fb->creq[i] = PMPI_Request_f2c(reqs[i]);
    /* C statuses are not handed to the MPI here: a non-ignored array keeps
     * the batch from allocating its own */
    sites_batch_begin(&fb->b, fb->creq, fb->n, fb->b.st_s);
    if (!statuses || fb->b.n == 0 || !is_sentinel(statuses_ignore, NSENT, sts_sym, statuses)) return statuses;
    if (fb->n <= SITES_BATCH) return fb->st_s;
    fb->own = sites_scratch(SITES_SCRATCH_F_ST, sizeof *fb->own * (size_t)SITES_F_STATUS * (size_t)fb->n);
    if (!fb->own) fb->b.n = 0;
    return fb->own ? fb->own : statuses;
}

void sites_f_batch_end(sites_f_batch_t *fb)
{
    sites_batch_end(&fb->b);
    fb->creq = fb->creq_s, fb->own = NULL;
}

static int ignored(const MPI_Fint *fsts)
{
    return !fsts || is_sentinel(statuses_ignore, NSENT, sts_sym, fsts);
}

void sites_f_batch_all(sites_f_batch_t *fb, const MPI_Fint *fsts)
{
    if (ignored(fsts)) return;
    for (int j = 0; j < fb->b.n; j++) {
        MPI_Status st;
        sites_f_status_c(fsts + (size_t)fb->b.idx[j] * SITES_F_STATUS, &st);
        sites_completed(fb->b.key[j], &st);
    }
}

void sites_f_batch_one(sites_f_batch_t *fb, int findex, const MPI_Fint *fst)
{
    if (findex == MPI_UNDEFINED || findex < 1) return;
    MPI_Status st;
    sites_f_status_c(fst, &st);
    for (int j = 0; j < fb->b.n; j++)
        if (fb->b.idx[j] == findex - 1) sites_completed(fb->b.key[j], &st);
}

void sites_f_batch_some(sites_f_batch_t *fb, int outcount, const MPI_Fint findices[], const MPI_Fint *fsts)
{
    if (outcount == MPI_UNDEFINED || ignored(fsts)) return;
    for (int k = 0; k < outcount; k++)
        for (int j = 0; j < fb->b.n; j++)
            if (fb->b.idx[j] == findices[k] - 1) {
                MPI_Status st;
                sites_f_status_c(fsts + (size_t)k * SITES_F_STATUS, &st);
                sites_completed(fb->b.key[j], &st);
            }
}

#endif
