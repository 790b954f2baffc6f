/*
 * papi-mpit-report: the values of the PAPI_MPIT_REPORT_* variables that
 * switch something on or off, read with one parser by every reader (the
 * script checks them with the same words before the program starts).
 */
#ifndef PAPI_MPIT_REPORT_ENV_H
#define PAPI_MPIT_REPORT_ENV_H

/* 1 for 1, yes, on, true; 0 for 0, no, off, false (any case); -1 for
 * anything else, NULL and "" included. */
int report_bool_parse(const char *s);

/* The variable NAME as a boolean: DFLT when it is unset or empty.  A value
 * that is not a boolean is DFLT too, and said once per variable on stderr
 * by the first rank (the launcher's rank variable 0, or none); a DFLT < 0
 * (a default that depends on the run) is said as "unset". */
int report_bool_env(const char *name, int dflt);

/* A number of milliseconds as the script takes it (digits, at most one
 * point, 0 to 3600000) into *MS: 0, or -1 for anything else, "" included. */
int report_ms_parse(const char *s, double *ms);

/* This process is the first rank as the launcher's variables tell before
 * MPI starts (Open MPI's mpirun, PMIx, PMI, Slurm), or has none of them. */
int report_first_rank(void);

#endif
