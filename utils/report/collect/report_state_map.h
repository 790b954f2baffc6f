/*
 * papi-mpit-report: the rank's state in a file-backed shared mapping,
 * DIR/state.RANK.map (report_state_map.c), created once at MPI_Init and
 * updated in place: the wrappers' tables (the call each thread is in, the
 * call sites, the row of the program matrix, the collectives: site_table.h)
 * live in it, and the helper thread stamps it every second.  The kernel
 * keeps a shared file mapping's pages however the process ends (SIGKILL,
 * the OOM killer, a segfault, a launcher that kills at once), so
 * papi-mpit-merge finds every rank's state up to its last MPI call without
 * any signal handler's help.  No MPI type here: the merge reads this layout.
 */
#ifndef PAPI_MPIT_REPORT_STATE_MAP_H
#define PAPI_MPIT_REPORT_STATE_MAP_H

#include <stddef.h>
#include <stdint.h>

#define STATE_MAP_MAGIC   0x3170616d2d74706dULL /* "mpt-map1" */
#define STATE_MAP_VERSION 1
#define STATE_MAP_MODULES 128 /* modules whose address range is kept (to name a call's site) */

typedef struct state_map_module {
    uint64_t start, end; /* [start, end): the module's mapped range */
    uint64_t base;       /* its load address (offsets are from it, as the records write them) */
    char path[232];
} state_map_module_t;

typedef struct state_map_head {
    uint64_t magic;
    uint32_t version, head_size, slot_size, site_size;
    int32_t rank, nprocs;
    int64_t pid;
    int64_t mono_ns, real_ns; /* CLOCK_MONOTONIC and CLOCK_REALTIME at one moment (MPI_Init) */
    /* the wrappers' clock: a slot's since = anchor_ns + (since - anchor_ticks) * fs_per_tick / 1e6 */
    int64_t anchor_ticks, anchor_ns, fs_per_tick;
    int64_t alive_ns;     /* CLOCK_MONOTONIC at the helper's last stamp (every second), 0 none */
    int64_t beats;        /* stamps so far */
    uint64_t world, self; /* MPI_COMM_WORLD's and MPI_COMM_SELF's keys (sites_key) */
    /* the wrappers' tables, from the file's start; 0 slots: not there (--no-sites, or no room) */
    uint64_t off_slots, off_sites, off_colls, off_p2p_msgs, off_p2p_bytes;
    int32_t nslots, nsites, ncolls, pad;
    char host[64], started[64], library[256], command[1024];
    /* the modules, written at safe points: mod_seq odd while they change */
    uint32_t mod_seq, nmods;
    state_map_module_t mods[STATE_MAP_MODULES];
    /* each thread slot's last calls (sites/site_timeline.h), nslots rings from off_rings; 0: none */
    uint64_t off_rings;
    int32_t ring_calls, ring_size; /* calls a ring keeps, bytes of a ring */
    /* the communicators (sites/site_comm_cells.h), from the file's start; 0: not there */
    uint64_t off_comms;
    int32_t ncomms, pad2;
    /* what did not fit (sites_overflow_t: sites, collective cells, untracked
     * requests), from the file's start; 0: not there (an older file) */
    uint64_t off_overflows;
    /* the Python lines of the sites whose how is SITES_PROG_PYTHON (their
     * prog: index + 1), npy_lines entries of py_line_size bytes
     * (sites_py_line_t, an entry whole once its ready is 1); 0: not there */
    uint64_t off_py_lines;
    int32_t npy_lines, py_line_size;
} state_map_head_t;

/* A field appended to the head since the first layout is read only when the
 * file's head holds it: an older file's head ends before it (its padding to
 * the page is zero: the field reads as absent). */
#define MAP_HEAD_HAS(h, f) (offsetof(state_map_head_t, f) + sizeof((h)->f) <= (h)->head_size)

/* ---- the rank (report_state_map.c) */
/* Creates DIR/state.RANK.map (an earlier run's is replaced), sized for the
 * head and area bytes of tables, and maps it shared.  0, or -1 with why
 * (then nothing is mapped: the tables stay in the heap, as before). */
int state_map_open(const char *dir, int rank, int nprocs, size_t area, char *why, size_t len);
/* The tables' memory (zero-filled), right after the head; NULL when not mapped. */
void *state_map_area(void);
/* What the merge names the run by, and the layout of the tables. */
void state_map_describe(const char *started, const char *library, const char *command, uint64_t world,
                        uint64_t self);
void state_map_layout(uint64_t slots, uint64_t sites, uint64_t colls, uint64_t p2p_msgs, uint64_t p2p_bytes,
                      int nslots, int nsites, int ncolls);
/* Where the slots' rings of last calls are (the timeline), after state_map_layout. */
void state_map_rings(uint64_t rings, int calls, int size);
/* Where the counts of what did not fit are (offset in the area). */
void state_map_overflows(uint64_t at);
/* Where the Python lines are: n entries of size bytes. */
void state_map_py_lines(uint64_t at, int n, int size);
/* Where the communicators' cells are (offset in the area, and how many). */
void state_map_comms(uint64_t at, int n);
/* The loaded modules' ranges, at a safe point (dl_iterate_phdr takes the
 * loader's lock): at the start and when the helper sees a module come. */
void state_map_modules(void);
/* The helper's stamp (every second): alive now, and the clock's rate. */
void state_map_beat(long long anchor_ticks, long long anchor_ns, double ns_per_tick);
/* The run reached MPI_Finalize: the file goes with the snapshots. */
void state_map_remove(void);

#endif
