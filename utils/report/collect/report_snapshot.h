/*
 * papi-mpit-report: when a rank writes its state without any MPI call
 * (report_snapshot.c): on SIGTERM and SIGINT (what Slurm and mpirun send
 * before they kill), on SIGUSR1 (on demand, the job goes on), every period
 * (PAPI_MPIT_REPORT_SNAPSHOT_MS) and when the watchdog sees no wrapped MPI
 * call return for PAPI_MPIT_REPORT_WATCHDOG_MS while one is in progress.
 * The state itself is written by the helper thread (report_rank_state.c).
 */
#ifndef PAPI_MPIT_REPORT_SNAPSHOT_H
#define PAPI_MPIT_REPORT_SNAPSHOT_H

/* why a state was taken */
enum { SNAP_SIGNAL = 1, SNAP_ON_DEMAND, SNAP_PERIODIC, SNAP_WATCHDOG };
const char *snap_reason_name(int reason);

/* The settings, read once (every rank): 1 when snapshots are on (an output
 * directory and PAPI_MPIT_REPORT_SNAPSHOTS not off).  mapped: the rank has
 * its mapped state file (then no periodic snapshot unless asked for). */
int snap_wanted(int mapped);
/* The pipes and the signal handlers (the program's own, installed before or
 * after ours, are kept and called after ours: sigaction and signal are
 * interposed for the three signals).  0, or -1 with why. */
int snap_install(char *why, size_t len);
/* The helper thread's loop: write(reason, signo) for each request, until
 * done() says stop (checked at every wake-up: snap_wake).  The watchdog's
 * stderr line is said by warn(seconds, call) once. */
void snap_serve(void (*write)(int reason, int signo, void *arg), int (*done)(void *arg), void *arg);
void snap_wake(void);
/* fn is called by the helper's loop every second besides (the mapped
 * state's stamp, report_state_map.h) */
void snap_every_second(void (*fn)(void));
/* Seconds since the last SIGTERM or SIGINT reached the handler, -1 none. */
double snap_since_signal_s(void);
/* No more snapshots: the handlers only pass the signals on. */
void snap_off(void);
/* The signals this machinery takes, blocked in the tool's own threads. */
void snap_block_here(void);

#endif
