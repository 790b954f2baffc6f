/* t_paths.c after a walk of the whole component before MPI_Init (a tool's
 * event chooser lists the events, then names some): every path must read
 * what it reads without the walk.
 * flavors: openmpi openmpi-spc mpich-events
 * (MPICH without MPI_T events has none of the table's names: there the
 * test could only skip, after 4 ranks polled through every row.)
 * ranks: 2 4 */
#define LISTING_FIRST 1
#include "t_paths.c"
