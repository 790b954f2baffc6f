#!/usr/bin/env bash
# What Open MPI's monitoring costs (issue: monitoring-based metrics on a stock
# Open MPI): bench/monitoring_cost.c with pml_monitoring_enable 0 and 2
# alternating, runs times each, on the distribution's Open MPI and on Open
# MPI 5.0.7; medians.  No PAPI involved: the cost is the MPI's.
#   bench/monitoring_cost.sh [runs] [iterations]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/bench_env.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
runs=${1:-7} iters=${2:-20000}
mkdir -p "$BUILD/bench"
for flavor in openmpi openmpi-5.0.7-spc; do
  flavor_vars "$flavor" || { echo "($flavor not installed)"; continue; }
  exe=$BUILD/bench/monitoring_cost-$flavor
  $MPICC -O2 -Wall -Wextra "$top/bench/monitoring_cost.c" -o "$exe"
  echo "== $flavor: 2 ranks, $runs alternating runs, medians"
  for ((i = 0; i < runs; i++)); do
    for on in 0 2; do
      printf 'enable=%s ' $on
      OMPI_MCA_pml_monitoring_enable=$on $MPIRUN ${MPIRUN_OPTS/--mca pml ob1/--mca pml ob1,monitoring} -np 2 "$exe" "$iters"
    done
  done | awk '
    function med(s,   n, a, i, j, t) { n = split(s, a, " "); for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
                                       return n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2 }
    { split($1, e, "="); split($2, l, "="); split($3, b, "="); lat[e[2]] = lat[e[2]] " " l[2]; bw[e[2]] = bw[e[2]] " " b[2] }
    END { l0 = med(lat[0]); l2 = med(lat[2]); b0 = med(bw[0]); b2 = med(bw[2])
          printf "  8-byte round trip: off %.3f us, on %.3f us (%+.1f %%)\n", l0, l2, 100 * (l2 - l0) / l0
          printf "  1 MiB bandwidth:   off %.0f MB/s, on %.0f MB/s (%+.1f %%)\n", b0, b2, 100 * (b2 - b0) / b0 }'
done
