#!/usr/bin/env bash
# What the timeline costs a wrapped call (each thread's ring of its last
# calls in the rank's mapped state file, sites/site_timeline.h): the Open MPI
# interposer built twice from this checkout, as it is and with
# -DSITES_NO_TIMELINE (the ring's record in sites_leave compiled out; the
# bytes a call moved are counted in both), both run with -o (the rings
# live in the state file) on bench/sites_call_cost.c (one rank to itself:
# MPI_Isend, MPI_Recv, MPI_Wait, three wrapped calls an iteration),
# single-threaded and under MPI_THREAD_MULTIPLE, alternating within each
# round; the best of each round's 100 trials of 20000 iterations, then the
# median and best over rounds.  On a loaded machine the difference is a
# bound, not a measure.
#   bench/report_timeline.sh [rounds]     (default 9; BUILD, PREFIX: the build measured)
exec bash "$(dirname "$0")/sites_compiled_out.sh" report_timeline -DSITES_NO_TIMELINE timeline "${1:-9}"
