/*
 * papi-mpit-report: the call-site tables' place and lifetime (site_table.h
 * says what is charged where): in the rank's mapped state file where it has
 * one, else on the heap; made at sites_begin, counting between the window's
 * opening and closing, freed at sites_end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>

#include "site_modules.h"
#include "site_count.h"
#include "site_private.h"
#include "site_table.h"

static char frames_why[256]; /* what of the program lines is off (Python's) */

const char *sites_frames_why(void) { return frames_why; }

/* ---- where the tables live: the rank's mapped state file, or the heap */
static char *placed;
static size_t placed_len;
static int tables_placed; /* the tables are in placed: not freed */

#define ALIGN64(n) (((n) + 63) & ~(size_t)63)
size_t sites_state_layout(int nprocs, sites_layout_t *l)
{
    size_t at = 0;
    l->slots = at, at = ALIGN64(at + sizeof(sites_slot_t) * SITES_THREADS);
    l->sites = at, at = ALIGN64(at + sizeof(sites_site_t) * SITES_MAX);
    l->colls = at, at = ALIGN64(at + sizeof(sites_coll_cell_t) * COLL_MAX);
    l->p2p_msgs = at, at = ALIGN64(at + sizeof(long long) * (size_t)nprocs);
    l->p2p_bytes = at, at = ALIGN64(at + sizeof(long long) * (size_t)nprocs);
    l->rings = at, at = ALIGN64(at + sizeof(sites_ring_t) * SITES_THREADS);
    l->overflows = at, at = ALIGN64(at + sizeof(sites_overflow_t));
    l->py_lines = at, at = ALIGN64(at + sizeof(sites_py_line_t) * SITES_PY_LINES);
    l->nslots = SITES_THREADS, l->nsites = SITES_MAX, l->ncolls = COLL_MAX;
    l->npy_lines = SITES_PY_LINES;
    return at;
}

void sites_place(void *area, size_t len)
{
    placed = area;
    placed_len = len;
}

/* ---- begin and end */
int sites_begin(int rank, int nprocs, char *why, size_t len)
{
    sites_world_begin(rank, nprocs);
    sites_clock_begin();
    int level = MPI_THREAD_SINGLE;
    PMPI_Query_thread(&level);
    sites_mt = level == MPI_THREAD_MULTIPLE;
    sites_layout_t l;
    if (placed && sites_state_layout(nprocs, &l) <= placed_len) { /* zero-filled: a new file */
        tables_placed = 1;
        sites_slots_place((sites_slot_t *)(placed + l.slots), (sites_ring_t *)(placed + l.rings));
        sites_charge_place(placed, &l);
        sites_py_place((sites_py_line_t *)(placed + l.py_lines));
    } else {
        sites_charge_alloc(nprocs);
    }
    int tracked = sites_track_begin() == 0; /* the MPI's handles: of no use outside the process */
    if (!sites_charge_ready() || !tracked) {
        snprintf(why, len, "no memory for the call-site tables");
        sites_end();
        return -1;
    }
    sites_track_keys();
    sites_world_keyvals();
    const char *d = getenv("PAPI_MPIT_REPORT_SITE_DEPTH");
    sites_frames_begin(d && *d ? atoi(d) : 0, getenv("PAPI_MPIT_REPORT_SITE_LIBS"), frames_why,
                       sizeof frames_why);
    return 0;
}

void sites_window(int open)
{
    /* a safe point: the MPI's own modules loaded by MPI_Init are known from here
   * on */
    if (open) sites_modules_refresh();
    sites_clock_window(open);
    if (sites_charge_ready()) __atomic_store_n(&sites_on, open, __ATOMIC_RELEASE);
}

void sites_end(void)
{
    __atomic_store_n(&sites_on, 0, __ATOMIC_RELEASE);
    /* the comms and windows keep their tables until freed (the delete
   * callbacks); the keyvals go, which frees nothing the MPI still needs */
    sites_charge_end(!tables_placed);
    sites_track_end();
    sites_slots_end();
    tables_placed = 0;
}
