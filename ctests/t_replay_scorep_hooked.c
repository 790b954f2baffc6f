/* t_replay_scorep.c with Score-P's MPI_Init and MPI_Finalize wrappers also
 * calling papi_mpit_after_init and papi_mpit_before_finalize (as Score-P
 * would once taught them): the set started before MPI_Init is caught up
 * inside the MPI_Init region, and every assertion must hold the same.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 4 */
#define REPLAY_TOOL_HOOKS 1
#include "t_replay_scorep.c"
