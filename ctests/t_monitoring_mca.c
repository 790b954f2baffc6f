/* t_monitoring.c with monitoring turned on by the user's MCA parameter
 * (OMPI_MCA_pml_monitoring_enable=2) and the events added after MPI_Init.
 * flavors: openmpi openmpi-spc
 * ranks: 2 4 */
#define MONITORING_BY_MCA 1
#include "t_monitoring.c"
