/*
 * papi-mpit-report: each rank's share of the communication matrix, read
 * with papi_mpit_peers_* (Open MPI's monitoring) around the counting window
 * (report_peers.c).
 */
#ifndef PAPI_MPIT_REPORT_PEERS_H
#define PAPI_MPIT_REPORT_PEERS_H

#include <stddef.h>

/* Before MPI_Init: asks the component to have the MPI count by peer
 * (only with --matrix). */
void peers_announce(void);
/* Around the tool's look-ups before MPI_Init (on 1, then 0): without
 * --matrix, Open MPI's monitoring stays as the user set it.  peers_held_off:
 * 1 when the tool kept it off so. */
void peers_hold_off(int on);
int peers_held_off(void);
/* Whether the matrix is wanted (then MPI_T variables are read). */
int peers_wanted(void);
/* After MPI_Init, before the tool's own start-up communication. */
void peers_begin(int rank, int nprocs);
/* The counting window opens and closes (the matrix is what happens between). */
void peers_window_open(void);
void peers_window_close(void);
/* Appends the record's lines to buf (at most cap bytes, peers_record_cap):
 * "X\tkind\tpeer:msgs:bytes,..." per kind given (only peers with traffic),
 * "Y\tkind\treason" per kind not given, or "W\treason" when none is. */
size_t peers_record_cap(void);
size_t peers_record(char *buf, size_t cap);
/* Just before PMPI_Finalize: with selfcheck, prints what went by peer
 * outside the window since peers_begin (the tool's own traffic); stops. */
void peers_end(int selfcheck);

#endif
