/* Finds the MPI library already in the process and loads the backend built
 * for its ABI family.  Never loads an MPI library itself. */
#ifndef MPIT_LOADER_H
#define MPIT_LOADER_H

#include <stdatomic.h>
#include <stddef.h>

#include "mpit_backend.h"

/* 1 when MPI is already linked into this process. */
int mpit_process_has_mpi(void);

/* 1 when MPI is initialised and not finalized, asked of the process's MPI
 * (PMPI_Initialized, PMPI_Finalized) without a backend: 0 with no MPI. */
int mpit_process_mpi_running(void);

/* Returns the backend for the MPI in this process, or NULL with a sentence in
 * why (for disabled_reason).  With load_default set and no MPI in the process,
 * first loads the default MPI library ($PAPI_MPIT_LIBMPI or the one chosen at
 * configure time) so that a plain listing tool such as papi_native_avail can
 * show the variables; such a process can list events but not count them. */
const mpit_backend_t *mpit_load_backend(int load_default, char *why, size_t why_len);

/* The one backend the component uses (set by mpit.c once it is loaded, NULL
 * after shutdown); every file asks here.  Inline: the read path asks too. */
extern const mpit_backend_t *_Atomic mpit_backend_in_use;
static inline const mpit_backend_t *mpit_backend(void)
{
    return atomic_load_explicit(&mpit_backend_in_use, memory_order_acquire);
}
static inline void mpit_backend_use(const mpit_backend_t *b)
{
    atomic_store_explicit(&mpit_backend_in_use, b, memory_order_release);
}

#endif
