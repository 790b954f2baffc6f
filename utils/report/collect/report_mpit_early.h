/*
 * papi-mpit-report: MPI_T started before MPI_Init where that makes the
 * start-up cheaper (see report_mpit_early.c).
 */
#ifndef PAPI_MPIT_REPORT_MPIT_EARLY_H
#define PAPI_MPIT_REPORT_MPIT_EARLY_H

/* Before PMPI_Init / PMPI_Init_thread, after the component has been told
 * which variables to collect (its environment settings are read by
 * MPI_T's registration): takes a reference to MPI_T of the tool's own.
 * level: the thread level the program asks MPI_Init for.  Returns the
 * seconds MPI_T_init_thread took (0 where nothing was done). */
double mpit_early_hold(int level);

/* Once the component holds its own reference (after it bound its events),
 * or when MPI did not start: gives the tool's back.  Safe to call twice. */
void mpit_early_release(void);

#endif
