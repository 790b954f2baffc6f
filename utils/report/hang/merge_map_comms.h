/*
 * papi-mpit-merge: the communicators a rank's mapped state file holds
 * (sites/site_comm_cells.h), to name the communicator of a call in
 * progress as the rank itself would (sites/site_comms.h's id and members).
 */
#ifndef PAPI_MPIT_MERGE_MAP_COMMS_H
#define PAPI_MPIT_MERGE_MAP_COMMS_H

#include <stddef.h>
#include <stdint.h>

#include "report_state_map.h"
#include "site_comm_cells.h"

typedef struct map_comms {
    sites_comm_cell_t *cell; /* the complete cells, copied; n of them */
    int n;
} map_comms_t;

/* The file's cells (base: the file, size bytes) into *out; 0, or -1 when out of memory. */
int map_comms_read(const char *base, size_t size, const state_map_head_t *h, map_comms_t *out);
/* key's id ("world", "HASH.N"; "?" unknown) and members ("-" unknown). */
void map_comm_name(const map_comms_t *c, uint64_t key, char *id, size_t idlen, char *members, size_t mlen);
void map_comms_free(map_comms_t *c);

#endif
