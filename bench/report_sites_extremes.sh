#!/usr/bin/env bash
# What keeping each site's longest and shortest single call costs a wrapped
# call (issue 43 item 6: mpiP's figures): the Open MPI interposer built
# twice from this checkout, as it is and with -DSITES_NO_CALL_EXTREMES (the
# two updates in sites_leave compiled out), both run on
# bench/sites_call_cost.c (one rank to itself: MPI_Isend, MPI_Recv,
# MPI_Wait, three wrapped calls an iteration), single-threaded (plain
# compare and store) and under MPI_THREAD_MULTIPLE (compare-and-swap
# loops), alternating within each round; the best of each round's 100
# trials of 20000 iterations, then the median and best over rounds.
#   bench/report_sites_extremes.sh [rounds]     (default 9; BUILD, PREFIX: the build measured)
exec bash "$(dirname "$0")/sites_compiled_out.sh" report_sites_extremes -DSITES_NO_CALL_EXTREMES extremes "${1:-9}"
