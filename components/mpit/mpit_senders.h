/* The sender interface (papi_mpit.h) learns the backend here. */
#ifndef MPIT_SENDERS_H
#define MPIT_SENDERS_H

#include "mpit_backend.h"

void mpit_senders_set_backend(const mpit_backend_t *backend);

#endif
