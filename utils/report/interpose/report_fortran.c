/*
 * papi-mpit-report: the Fortran entry points of MPI_Init, MPI_Init_thread
 * and MPI_Finalize (Open MPI's Fortran MPI_INIT calls the C PMPI_Init,
 * never our MPI_Init), into the same run as the C ones (report_run.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <dlfcn.h>
#include <stddef.h>

#include "report_run.h"

/* ---- Fortran entry points (mpif.h / use mpi, and Open MPI's mpi_f08), in
 * the usual name manglings.  Arguments are passed through untouched to the
 * MPI's own Fortran routine, found after us in the lookup order. */
typedef void (*fort1_t)(void *);
#if defined(MPI_ABI_VERSION)
typedef int fortran_int; /* the standard ABI's C header has no MPI_Fint: default INTEGER */
#else
typedef MPI_Fint fortran_int;
#endif
typedef void (*fort3_t)(void *, void *, void *);

static void *next_symbol(const char *name) { return dlsym(RTLD_NEXT, name); }

static void fortran_init(const char *sym, void *ierr)
{
    fort1_t real = (fort1_t)next_symbol(sym);
    int outer = report_init_begin(MPI_THREAD_SINGLE);
    if (real) {
        real(ierr);
    } else { /* no Fortran layer after us: the C call does the same */
        int rc = PMPI_Init(NULL, NULL);
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
    report_init_end(outer);
}

static void fortran_init_thread(const char *sym, void *required, void *provided, void *ierr)
{
    fort3_t real = (fort3_t)next_symbol(sym);
    int outer = report_init_begin((int)*(fortran_int *)required);
    if (real) {
        real(required, provided, ierr);
    } else {
        int prov = 0, rc = PMPI_Init_thread(NULL, NULL, (int)*(fortran_int *)required, &prov);
        *(fortran_int *)provided = (fortran_int)prov;
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
    report_init_end(outer);
}

static void fortran_finalize(const char *sym, void *ierr)
{
    report_finalize_begin();
    fort1_t real = (fort1_t)next_symbol(sym);
    if (real) {
        real(ierr);
    } else {
        int rc = PMPI_Finalize();
        if (ierr) *(fortran_int *)ierr = (fortran_int)rc;
    }
}

#define FORTRAN_INIT(sym)                                                                                    \
    void sym(void *ierr) { fortran_init(#sym, ierr); }
#define FORTRAN_INIT_THREAD(sym)                                                                             \
    void sym(void *required, void *provided, void *ierr)                                                     \
    {                                                                                                        \
        fortran_init_thread(#sym, required, provided, ierr);                                                 \
    }
#define FORTRAN_FINALIZE(sym)                                                                                \
    void sym(void *ierr) { fortran_finalize(#sym, ierr); }

/* prototypes, for -Wmissing-prototypes */
void mpi_init_(void *), mpi_init__(void *), mpi_init(void *), MPI_INIT(void *), mpi_init_f08_(void *);
void mpi_init_thread_(void *, void *, void *), mpi_init_thread__(void *, void *, void *),
    mpi_init_thread(void *, void *, void *), MPI_INIT_THREAD(void *, void *, void *),
    mpi_init_thread_f08_(void *, void *, void *);
void mpi_finalize_(void *), mpi_finalize__(void *), mpi_finalize(void *), MPI_FINALIZE(void *),
    mpi_finalize_f08_(void *);

FORTRAN_INIT(mpi_init_)
FORTRAN_INIT(mpi_init__)
FORTRAN_INIT(mpi_init)
FORTRAN_INIT(MPI_INIT)
FORTRAN_INIT(mpi_init_f08_)
FORTRAN_INIT_THREAD(mpi_init_thread_)
FORTRAN_INIT_THREAD(mpi_init_thread__)
FORTRAN_INIT_THREAD(mpi_init_thread)
FORTRAN_INIT_THREAD(MPI_INIT_THREAD)
FORTRAN_INIT_THREAD(mpi_init_thread_f08_)
FORTRAN_FINALIZE(mpi_finalize_)
FORTRAN_FINALIZE(mpi_finalize__)
FORTRAN_FINALIZE(mpi_finalize)
FORTRAN_FINALIZE(MPI_FINALIZE)
FORTRAN_FINALIZE(mpi_finalize_f08_)
