/*
 * papi-mpit-merge: the call-site tables a rank's mapped state file holds
 * (the wrappers count into them in place: sites/site_cells.h), written as
 * the lines a snapshot's record has (sites/site_record.c): C per site, K
 * per collective and root.  Addresses are named by the modules the file
 * lists; a Python program line is not in the file (its table is the
 * process's): such a site says its line could not be read ("xpy").
 */
#ifndef PAPI_MPIT_MERGE_MAP_SITES_H
#define PAPI_MPIT_MERGE_MAP_SITES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report_state_map.h"

/* The module of mods holding pc ("?" none, or the vDSO) and pc's offset from its load address. */
const char *map_module_of(const state_map_module_t *mods, int nmods, uint64_t pc, unsigned long *off);
/* The C and K lines of the file's tables (base: the file, size bytes) into f. */
void map_sites_lines(FILE *f, const char *base, size_t size, const state_map_head_t *h,
                     const state_map_module_t *mods, int nmods);

#endif
