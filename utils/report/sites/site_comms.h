/*
 * papi-mpit-report: the program's communicators, for the snapshot of a run
 * that hangs (site_comms.c): each one's members as ranks of MPI_COMM_WORLD
 * and an id that is the same on every member, so that the merge can tell
 * which members of a communicator entered a collective and which did not.
 */
#ifndef PAPI_MPIT_SITES_COMMS_H
#define PAPI_MPIT_SITES_COMMS_H

#include <mpi.h>

#include <stddef.h>
#include <stdint.h>

/* After MPI_Init (MPI_COMM_WORLD's size): communicators made from now on
 * are recorded; sites_comms_end forgets them. */
void sites_comms_begin(int nprocs);
void sites_comms_end(void);
/* The id of the communicator whose handle is key (sites_key): "world", or
 * "HASH.N" (the members' hash, and how many communicators of the same
 * members this rank made before it), "?" when unknown; its members as
 * ranges of world ranks ("0-3,6") in members.  Safe from the tool's helper
 * thread while the program runs; 0, or -1 for an unknown communicator (or
 * the table busy). */
int sites_comm_describe(uintptr_t key, char *id, size_t idlen, char *members, size_t mlen);
/* Every recorded communicator as "B\tid\tsize\tmembers\n" lines (at most
 * cap bytes); the length written. */
size_t sites_comms_record(char *buf, size_t cap);
/* From the generated wrappers (mpi-calls.tsv's comm and comm_free rows),
 * in the outermost one only, counted or not: a communicator the program
 * made (after the call), one it frees (before the call). */
void sites_comm_made(MPI_Comm comm);
void sites_comm_freed(MPI_Comm comm);

#endif
