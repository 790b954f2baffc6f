/* t_paths.c with papi_mpit_after_init called right after MPI_Init, as a
 * tool's MPI_Init wrapper does: the early set is caught up there, and every
 * row of it, non-continuous counters too, must hold all since MPI_Init.
 * flavors: openmpi openmpi-spc mpich-events
 * (MPICH without MPI_T events has none of the table's names: there the
 * test could only skip, after 4 ranks polled through every row.)
 * ranks: 2 4 */
#define AFTER_INIT_HOOK 1
#include "t_paths.c"
