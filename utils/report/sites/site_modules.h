/*
 * papi-mpit-report: which loaded module (the executable or a shared object)
 * holds an address, for site_frames.c.  It is asked inside the program's
 * MPI calls and in signal handlers, so the answer must come without a lock
 * and without allocation.  glibc has _dl_find_object for that from 2.35
 * on; below (RHEL 8 and 9: 2.28 to 2.34) site_modules.c answers from its
 * own table of the modules' address ranges.
 */
#ifndef PAPI_MPIT_SITES_MODULES_H
#define PAPI_MPIT_SITES_MODULES_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <link.h>
#include <stdint.h>

typedef struct sites_module {
    uintptr_t start, end; /* the mapped range holding the address: [start, end), the module's or one
                             segment's (site_modules.c) */
    const char *path;     /* its file; "" for the executable (the loader's name for it) */
} sites_module_t;

/* ---- site_modules.c: the answer without _dl_find_object */
/* 0 with m filled, -1 when no module holds pc (generated code).  Lock-free
 * and async-signal-safe: a lookup in the table the last scan published; a
 * module loaded since is found in /proc/self/maps (open and read only) and
 * kept for the next lookups. */
int sites_modules_find(uintptr_t pc, sites_module_t *m);
/* Builds the table again when a module came or went since the last scan:
 * at safe points only (outside the wrappers), since dl_iterate_phdr takes
 * the loader's lock.  0, or -1 when out of memory (the old table stays). */
int sites_modules_scan(void);

/* ---- what site_frames.c calls: _dl_find_object where glibc has it
 * (configure's HAVE__DL_FIND_OBJECT), the table otherwise */
static inline int sites_module_at(uintptr_t pc, sites_module_t *m)
{
#if defined(HAVE__DL_FIND_OBJECT)
    struct dl_find_object fo;
    if (_dl_find_object((void *)pc, &fo) != 0) return -1;
    m->start = (uintptr_t)fo.dlfo_map_start;
    m->end = (uintptr_t)fo.dlfo_map_end;
    m->path = fo.dlfo_link_map ? fo.dlfo_link_map->l_name : "";
    return 0;
#else
    return sites_modules_find(pc, m);
#endif
}

/* At a safe point: the table brought up to date (nothing to do with _dl_find_object) */
static inline void sites_modules_refresh(void)
{
#if !defined(HAVE__DL_FIND_OBJECT)
    sites_modules_scan();
#endif
}

#endif
