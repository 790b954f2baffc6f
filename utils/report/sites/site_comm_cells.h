/*
 * papi-mpit-report: the program's communicators as the rank's mapped state
 * file keeps them (collect/report_state_map.h), apart from any MPI type:
 * site_comms.c writes a cell when it records a communicator and clears it
 * when the program frees it, so that papi-mpit-merge names the
 * communicator of a call in progress (its id, site_comms.h, and members)
 * from the file alone, after the rank is gone.
 */
#ifndef PAPI_MPIT_SITES_COMM_CELLS_H
#define PAPI_MPIT_SITES_COMM_CELLS_H

#include <stddef.h>
#include <stdint.h>

#define SITES_COMMS_MAX 1024 /* communicators alive at once; more are unknown */

typedef struct sites_comm_cell {
    uint32_t seq;                 /* updates so far: odd while the cell is written (a reader leaves it) */
    int32_t size, ordinal, world; /* world: 1 for MPI_COMM_WORLD (its id is "world") */
    uint64_t key, hash;           /* key: the handle (sites_key), 0 free; the id is "HASH.ORDINAL" */
    char members[224];            /* world ranks as ranges ("0-3,6"); "" when they do not fit */
} sites_comm_cell_t;

/* Before sites_comms_begin: the cells' memory (SITES_COMMS_MAX of them, zero-filled), or NULL. */
void sites_comms_place(sites_comm_cell_t *cells);

#endif
