#!/bin/sh
# Prints the cache of downloaded sources and MPI builds: $PAPI_MPIT_CACHE if
# set, else /var/cache/papi-mpit for root (shared with CI) and the user's own
# cache ($XDG_CACHE_HOME or ~/.cache) for everyone else, who cannot write
# under /var/cache.
if [ -n "${PAPI_MPIT_CACHE:-}" ]; then
  echo "$PAPI_MPIT_CACHE"
elif [ "$(id -u)" = 0 ]; then
  echo /var/cache/papi-mpit
else
  echo "${XDG_CACHE_HOME:-$HOME/.cache}/papi-mpit"
fi
