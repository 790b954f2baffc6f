/*
 * papi-mpit-report: sampling the maxima the mpit component keeps over what
 * its reads see (see report_sample.c).
 */
#ifndef PAPI_MPIT_REPORT_SAMPLE_H
#define PAPI_MPIT_REPORT_SAMPLE_H

#include <stddef.h>

/* The period when PAPI_MPIT_REPORT_SAMPLE_MS is not set, in ms. */
#define SAMPLE_DEFAULT_MS 10.0

/* 1 when the event's value is a maximum the component keeps over the values
 * its reads see (its description says "seen when read"), so that only reads
 * between the report's first and last one can catch a queue that fills and
 * drains in between. */
int sample_needed(int code);

/* The period asked for (PAPI_MPIT_REPORT_SAMPLE_MS), in ms; 0 is off.  A
 * value that is not a number >= 0 gives the default and *bad = 1. */
double sample_period_ms(int *bad);

/* Starts a thread of its own that PAPI_reads an event set of codes[0 .. n-1]
 * every period_ms.  Returns once that set runs: nothing else of the tool
 * touches MPI_T while the set is made.  0, or -1 with why filled. */
int sample_start(const int *codes, int n, double period_ms, char *why, size_t len);

/* Queue lengths over time: the n events codes[] (current lengths) are read
 * with the others at every sample and kept, with the time, in a bounded
 * buffer that covers the whole run (SAMPLE_KEEP points: when full, every
 * other point goes and points are kept half as often).  Call before
 * sample_start; the sampler then runs even when no maximum needs it. */
#define SAMPLE_KEEP   512
#define SAMPLE_SERIES 4
void sample_series(const int *codes, int n);
/* A copy of series k's points (t: CLOCK_MONOTONIC seconds), at most max;
 * how many.  From any thread but a signal handler, during the run and after
 * sample_stop. */
int sample_series_copy(int k, double *t, double *v, int max);

/* Stops the thread (its set stopped and destroyed) and joins it; returns
 * the samples taken, and in *cpu_s the thread's CPU time from its set
 * running to the stop (its cost inside the measured window).
 * Safe to call when nothing was started (0 and 0). */
long sample_stop(double *cpu_s);

/* Samples taken so far, or -1 when no sampler runs: for the tests, whose
 * program holds a queue at its peak until a sample has seen it (found with
 * dlsym; never called by the tool). */
long papi_mpit_report_samples(void);

#endif
