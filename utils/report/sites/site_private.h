/*
 * papi-mpit-report: what the call-site tables' files share among
 * themselves (site_table.h is their face to the wrappers and the rank).
 * Arrows: site_begin.c (the tables' place, begin and end) -> site_track.c
 * (requests charged later) -> site_charge.c (counts charged to sites) ->
 * site_slots.c (the calls in progress) -> site_find.c (a call's site),
 * site_claim.c (a thread's slot), site_world.c (ranks of MPI_COMM_WORLD),
 * site_clock.c (the TSC clock), site_count.c (how they count).  The inline
 * fast paths here call only into those last ones, which take nothing from
 * this header.
 */
#ifndef PAPI_MPIT_SITES_PRIVATE_H
#define PAPI_MPIT_SITES_PRIVATE_H

#include <mpi.h>

#include <stdint.h>

#include "report_handles.h"
#include "site_table.h"
#include "site_timeline.h"

/* Inside the library only: calls between its files go direct, not through
 * the PLT, and its globals are read without the GOT (the wrappers' path
 * crosses several files per call). */
#pragma GCC visibility push(hidden)

#define COLL_MAX 1024 /* (collective, root) cells */

/* site_world.c: the world's size and this rank's; the world rank of rank in
 * comm (for an intercommunicator, of its remote group) or in win's group;
 * -1 for none (MPI_PROC_NULL, MPI_ANY_SOURCE, outside the world) */
extern int sites_world_size, sites_world_me;
extern MPI_Comm sites_world_comm, sites_self_comm;
void sites_world_begin(int rank, int nprocs);
void sites_world_keyvals(void);
int sites_world_rank_of(MPI_Comm comm, int rank); /* other communicators: their translation */
static inline int sites_world_rank(MPI_Comm comm, int rank)
{
    if (rank < 0) return -1;
    if (comm == sites_world_comm) return rank < sites_world_size ? rank : -1;
    if (comm == sites_self_comm) return rank == 0 ? sites_world_me : -1;
    return sites_world_rank_of(comm, rank);
}
int sites_win_world_rank(MPI_Win win, int rank);

/* site_clock.c: its anchors taken (sites_begin), its rate measured at the
 * window's opening (sites_window); ticks as sites_now_ns() would say them */
void sites_clock_begin(void);
void sites_clock_window(int open);
long long sites_clock_ns(long long ticks);

/* site_claim.c: the slots (SITES_THREADS, in the mapped state file where
 * there is one), how many threads claimed one, the calling thread's (NULL
 * when none was left) and its claim at its first counted call */
extern sites_slot_t *sites_slots;
extern int sites_nslots;
extern __thread sites_slot_t *sites_my_slot __attribute__((tls_model("initial-exec")));
extern __thread int sites_my_slot_tried __attribute__((tls_model("initial-exec")));
sites_slot_t *sites_slot_claim(void);
/* site_slots.c: a call in progress written to the thread's slot, the line
 * a snapshot names; the slots placed in the mapped state file; the
 * thread's call over */
static inline sites_slot_t *sites_slot(void)
{
    return sites_my_slot || sites_my_slot_tried ? sites_my_slot : sites_slot_claim();
}
/* only this thread writes its slot: plain stores, ordered by fences (free
 * on x86), no locked instruction on the wrappers' path */
static inline void sites_set_slot(sites_slot_t *slot, int fn, uintptr_t pc, long long since, int peer,
                                  int tag, int any_source, int any_tag, uintptr_t comm)
{
    sites_current_t *s = sites_slot_next(slot);
    s->fn = fn, s->pc = pc, s->since = since, s->peer = peer, s->tag = tag;
    s->any_source = any_source, s->any_tag = any_tag, s->comm = comm;
    sites_slot_publish(slot);
}
/* a snapshot names the program's line behind a library where there is one */
static inline uintptr_t sites_slot_pc(const sites_call_t *c)
{
    return c->how == SITES_PROG_NATIVE ? c->prog : (uintptr_t)c->pc;
}
void sites_slots_place(sites_slot_t *area, sites_ring_t *ring_area);
void sites_slots_end(void);
void sites_slot_leave(const sites_call_t *c, long long t1);

/* site_find.c: the table of sites (placed, allocated and freed by
 * site_charge.c); the call's site (NULL when the table is full) */
extern sites_site_t *sites_site_table;
sites_site_t *sites_site_find(sites_call_t *c);
/* a call whose site found no room (lost) is counted once, not at each look */
static inline sites_site_t *sites_site_of(sites_call_t *c)
{
    return c->site || c->lost ? c->site : sites_site_find(c);
}
/* site_charge.c: a message out to wpeer or in as st says, charged to s;
 * the tables placed in area (layout l) or allocated; 1 when they are
 * there; freed (when not placed) */
void sites_out_message(sites_site_t *s, long long bytes, int wpeer);
long long sites_in_message(sites_site_t *s, const MPI_Status *st, MPI_Comm comm);
void sites_charge_place(char *area, const sites_layout_t *l);
void sites_charge_alloc(int nprocs);
int sites_charge_ready(void);
void sites_charge_end(int free_them);

/* site_track.c: its table allocated (0, or -1 when out of memory), the
 * threads' scratch arrays freed when they end; the table freed */
int sites_track_begin(void);
void sites_track_keys(void);
void sites_track_end(void);

#pragma GCC visibility pop

#endif
