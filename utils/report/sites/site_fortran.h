/*
 * papi-mpit-report: what the Fortran entry points of the call-site wrappers
 * (made from mpi-calls.tsv with the C ones, gen-wrappers.py) share.
 *
 * Each wrapped call has five Fortran spellings: mpi_send_, mpi_send__,
 * mpi_send, MPI_SEND (mpif.h and `use mpi`, as compilers mangle them) and
 * mpi_send_f08_ (`use mpi_f08`: Open MPI's entry for every call, MPICH's
 * for the calls without a buffer, whose f08 layer calls PMPI_ directly).
 * A wrapper charges the call to its caller (the Fortran line) and then
 * calls the MPI's own Fortran entry below it (pmpi_send_, ..., PMPI_SEND,
 * pmpi_send_f08_ or MPICH's pmpir_send_f08_), with the arguments untouched.
 * Where the MPI's Fortran layer then calls a C MPI_ name (MPICH's does),
 * the C wrapper sees a call inside a wrapped call and leaves it alone
 * (sites_depth): each call is charged once, to the outer layer.
 *
 * What the accounting needs in C (communicators, datatypes, requests,
 * statuses) is converted with the MPI's PMPI_*_f2c; the Fortran sentinels
 * (MPI_STATUS_IGNORE, MPI_STATUSES_IGNORE, MPI_IN_PLACE: addresses of the
 * Fortran layer's own objects) are looked up in the process at
 * sites_f_begin, called after sites_begin.  Not for the standard ABI (no Fortran ABI, no MPI_Fint).
 */
#ifndef PAPI_MPIT_SITES_FORTRAN_H
#define PAPI_MPIT_SITES_FORTRAN_H

#include <mpi.h>

#include "site_table.h"

#if !defined(MPI_ABI_VERSION)
#define SITES_F_WRAPPED 1

/* the spellings, in this order (sites_f_next's sp) */
enum {
    SITES_F_US,
    SITES_F_US2,
    SITES_F_PLAIN,
    SITES_F_UPPER,
    SITES_F_F08,
    SITES_F_F08TS, /* Open MPI 6.0's mpi_f08 calls with a buffer (a TS 29113 descriptor) */
    SITES_F_SPELLINGS
};

/* A Fortran status, in MPI_Fint (the f08 type has the same size) */
#if defined(MPI_F_STATUS_SIZE)
#define SITES_F_STATUS MPI_F_STATUS_SIZE
#else
#define SITES_F_STATUS ((int)((sizeof(MPI_Status) + sizeof(MPI_Fint) - 1) / sizeof(MPI_Fint)))
#endif

/* The MPI's own entry below the wrapper of call fn in spelling sp, or NULL. */
void *sites_f_next(int fn, int sp);
/* When there is none: a message (once) and MPI_ERR_OTHER in ierr. */
void sites_f_missing(int fn, int sp, MPI_Fint *ierr);

/* The status to hand the MPI: the caller's, or own when it passed
 * MPI_STATUS_IGNORE; and the C status of a Fortran one. */
MPI_Fint *sites_f_status(MPI_Fint *own, MPI_Fint *given);
void sites_f_status_c(const MPI_Fint *f, MPI_Status *c);
/* 1 when buf (of spelling sp) is the Fortran MPI_IN_PLACE (mpif.h, use mpi or mpi_f08) */
int sites_f_in_place(int sp, const void *buf);
/* an Alltoallw's send side from Fortran counts and datatypes */
long long sites_f_payload_w(const MPI_Fint counts[], const MPI_Fint types[], MPI_Comm comm);

/* The completions of an array of Fortran requests (sites_batch_t in C):
 * begin converts them and returns the statuses to hand the MPI (the
 * caller's, or own when it passed MPI_STATUSES_IGNORE and some request is
 * tracked; NULL when given NULL: Waitany and Testany have one status);
 * then all, one (the Fortran index, from 1) or some (Fortran indices). */
typedef struct sites_f_batch {
    sites_batch_t b;
    int n;
    MPI_Request *creq; /* the C requests: creq_s, or the thread's (sites_scratch) */
    MPI_Fint *own;     /* the thread's statuses (sites_scratch), or NULL */
    MPI_Request creq_s[SITES_BATCH];
    MPI_Fint st_s[SITES_BATCH * SITES_F_STATUS];
} sites_f_batch_t;
MPI_Fint *sites_f_batch_begin(sites_f_batch_t *fb, const MPI_Fint reqs[], int n, MPI_Fint *statuses);
void sites_f_batch_all(sites_f_batch_t *fb, const MPI_Fint *fsts);
void sites_f_batch_one(sites_f_batch_t *fb, int findex, const MPI_Fint *fst);
void sites_f_batch_some(sites_f_batch_t *fb, int outcount, const MPI_Fint findices[], const MPI_Fint *fsts);
void sites_f_batch_end(sites_f_batch_t *fb);

/* after sites_begin (site_report.c): the sentinels, and the MPI's own
 * entries (sites_f_next then looks up only those not found here) */
void sites_f_begin(void);
#else
static inline void sites_f_begin(void) {}
#endif

#endif
