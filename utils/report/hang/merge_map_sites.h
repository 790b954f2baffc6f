/*
 * papi-mpit-merge: the call-site tables a rank's mapped state file holds
 * (the wrappers count into them in place: sites/site_cells.h), written as
 * the lines a snapshot's record has (sites/site_record.c): C per site, K
 * per collective and root, G with what did not fit.  Addresses are named by the modules the file
 * lists; a Python program line by the file's table of them, when its
 * entry was whole (else, as in an older file, "xpy": not read).
 */
#ifndef PAPI_MPIT_MERGE_MAP_SITES_H
#define PAPI_MPIT_MERGE_MAP_SITES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report_state_map.h"

/* The module of mods holding pc ("?" none, or the vDSO) and pc's offset from its load address. */
const char *map_module_of(const state_map_module_t *mods, int nmods, uint64_t pc, unsigned long *off);
/* The C, K and G lines of the file's tables (base: the file, size bytes) into f. */
void map_sites_lines(FILE *f, const char *base, size_t size, const state_map_head_t *h,
                     const state_map_module_t *mods, int nmods);

#endif
