/* t_overflow_order.c with PAPI_overflow(..., PAPI_OVERFLOW_FORCE_SW, ...):
 * the same order, traffic and exact assertions.
 * flavors: openmpi-spc mpich-events
 * ranks: 2 */
#define OVERFLOW_FLAGS PAPI_OVERFLOW_FORCE_SW
#define TEST_NAME      "overflow_force_sw"
#include "t_overflow_order.c"
