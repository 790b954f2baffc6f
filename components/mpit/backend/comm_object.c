/*
 * The object handle MPI_T_pvar_handle_alloc and MPI_T_event_handle_alloc
 * take for a communicator: a pointer to a slot holding the communicator.
 * Open MPI 6.0 reads more than the slot: it checks the pointer it is given
 * as if it were the communicator itself (ompit_obj_invalid,
 * ompi/mpi/tool/mpit_common.c: ompi_comm_invalid reads flags well past the
 * handle), so the slot is the first word of a zeroed block larger than a
 * communicator.  MPICH stores the pointer and never reads through it.
 * Through Open MPI 6.0.0rc2's standard-ABI library no object is taken at
 * all (known_defects.c).
 */
#include <fnmatch.h>
#include <mpi.h>

#include "backend_internal.h"
#include "family_quirks.h"

#define BLOCK_WORDS 1024 /* 8 KiB: Open MPI's ompi_communicator_t is about 1 KiB */

static void *world_block[BLOCK_WORDS], *self_block[BLOCK_WORDS];

void *backend_comm_object(int comm)
{
    void **block = comm == MPIT_COMM_SELF ? self_block : world_block;
    MPI_Comm c = comm == MPIT_COMM_SELF ? MPI_COMM_SELF : MPI_COMM_WORLD;
    *(MPI_Comm *)block = c;
    return block;
}

/* Variables a family binds only to MPI_COMM_WORLD: Open MPI's monitoring
 * answers a handle on any other communicator with an error, so no
 * :comm=self of them is listed (adding one is refused by the MPI). */
static const struct {
    int open_mpi; /* the family: 1 Open MPI, 0 MPICH */
    const char *pattern;
} world_only[] = {
    {1, "pml_monitoring_*"},
    {1, "coll_monitoring_*"},
    {1, "osc_monitoring_*"},
};

int backend_pvar_world_only(const char *name)
{
    for (size_t i = 0; i < sizeof world_only / sizeof world_only[0]; i++)
        if (world_only[i].open_mpi == backend_family.open_mpi && fnmatch(world_only[i].pattern, name, 0) == 0)
            return 1;
    return 0;
}
