/*
 * papi-mpit-report: the rank's run (report_run.c), as every entry point
 * into the MPI calls it, C or Fortran: only the outermost init call of a
 * process measures.
 */
#ifndef PAPI_MPIT_REPORT_RUN_H
#define PAPI_MPIT_REPORT_RUN_H

/* the interposer's own: out of the program's symbol lookup (it is
 * preloaded into the program, whose names come first) */
#pragma GCC visibility push(hidden)

/* before the MPI's init; level: the thread level the program asks for.
 * Returns 1 for the outermost call, which passes it to report_init_end. */
int report_init_begin(int level);
/* after the MPI's init */
void report_init_end(int outer);
/* at MPI_Finalize, before the MPI's own */
void report_finalize_begin(void);

#pragma GCC visibility pop

#endif
