/*
 * The object handle MPI_T_pvar_handle_alloc and MPI_T_event_handle_alloc
 * take for a communicator: a pointer to a slot holding the communicator.
 * Two releases read more than the slot:
 * - Open MPI 6.0 checks the pointer it is given as if it were the
 *   communicator itself (ompit_obj_invalid, ompi/mpi/tool/mpit_common.c:
 *   ompi_comm_invalid reads flags well past the handle), so the slot is the
 *   first word of a zeroed block larger than a communicator;
 * - Open MPI 6.0's standard-ABI layer passes the slot on unconverted
 *   (open-mpi/ompi#14291): the ABI's MPI_COMM_WORLD, 0x101, would be
 *   dereferenced.  There the slot holds Open MPI's own communicator, which
 *   the ABI layer passes through as it does any handle it does not map.
 * MPICH stores the pointer and never reads through it.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <mpi.h>

#include "backend_internal.h"
#include "family_quirks.h"

#define BLOCK_WORDS 1024 /* 8 KiB: Open MPI's ompi_communicator_t is about 1 KiB */

static void *world_block[BLOCK_WORDS], *self_block[BLOCK_WORDS];

void *backend_comm_object(int comm)
{
    void **block = comm == MPIT_COMM_SELF ? self_block : world_block;
#if defined(MPI_ABI_VERSION)
    if (backend_family.open_mpi) {
        void *internal =
            dlsym(RTLD_DEFAULT, comm == MPIT_COMM_SELF ? "ompi_mpi_comm_self" : "ompi_mpi_comm_world");
        if (!internal) return NULL;
        block[0] = internal;
        return block;
    }
#endif
    MPI_Comm c = comm == MPIT_COMM_SELF ? MPI_COMM_SELF : MPI_COMM_WORLD;
    *(MPI_Comm *)block = c;
    return block;
}
