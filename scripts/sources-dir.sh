#!/bin/sh
# Prints the directory of the offline upstream sources (Open MPI 5.0, MPICH
# 4.3/5.0, PAPI 7.2/master, Score-P): $PAPI_MPIT_SOURCES if set, else
# ../shared/sources beside the checkout.
if [ -n "${PAPI_MPIT_SOURCES:-}" ]; then
  echo "$PAPI_MPIT_SOURCES"
else
  (cd "$(dirname "$0")/../../shared/sources" 2>/dev/null && pwd) || echo /nonexistent/shared/sources
fi
