/* Finds the MPI library already in the process and loads the backend built
 * for its ABI family.  Never loads an MPI library itself. */
#ifndef MPIT_LOADER_H
#define MPIT_LOADER_H

#include <stddef.h>

#include "mpit_backend.h"

/* Returns the backend, or NULL with a sentence in why (for disabled_reason). */
const mpit_backend_t *mpit_load_backend(char *why, size_t why_len);

#endif
