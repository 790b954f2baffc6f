#!/usr/bin/env bash
# Sets everything up and runs every test: the unit tests, the MPI tests under
# mpirun on every MPI flavor (the real TAU, Caliper, hpcrun and Score-P among them),
# then scripts/sanitize.sh (ASan+UBSan build and MPI tests, TSan stress,
# fuzzers).  Prints a summary per flavor, and last the sum of all.
#   scripts/test.sh [--all-flavors]
# By default the flavors are the distribution's Open MPI 4.1.4 and MPICH 4.0.2
# and the source builds oldest and newest of each family (Open MPI 4.1.4 and
# 5.0.9 with SPCs, MPICH 4.0.2 and 5.0.1 with MPI_T events): what CI runs.
# --all-flavors adds MPICH 4.3.2 and Open MPI 6.0.  The MPI source builds run in the
# background, in order, while the tests of the flavors already there run.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
export PREFIX=${PREFIX:-$BUILD/install} PAPI_PREFIX=${PREFIX:-$BUILD/install}
CACHE=$(sh "$top/scripts/cache-dir.sh")

# flavor, scripts/deps.sh mode that builds it
# (mpich-5.0.1-abi: programs built for the MPI 5.0 standard ABI with MPICH
# 5.0.1's mpicc_abi, the same build)
source_flavors=(openmpi-spc:ompi-spc mpich-events:mpich-events
                openmpi-5.0.9-spc:ompi5-spc mpich-5.0.1-events:mpich50-events
                mpich-5.0.1-abi:mpich50-events)
if [ "${1:-}" = --all-flavors ]; then
  source_flavors+=(mpich-4.3.2-events:mpich43-events openmpi-6.0-spc:ompi6-spc); shift
fi
started=$(date +%s)
stamp() { printf '[test %3d min] %s\n' $(( ($(date +%s) - started) / 60 )) "$*"; }
mkdir -p "$BUILD/logs"
logs=$BUILD/logs
rm -f "$logs"/mpi-*.done "$logs"/scorep-*.done

# ---- packages, then the MPI source builds in the background
bash "$top/scripts/deps.sh" packages || { echo "0 passed, 1 failed"; exit 1; }
(
  for fm in "${source_flavors[@]}"; do
    f=${fm%%:*}; m=${fm#*:}
    s=$(date +%s)
    bash "$top/scripts/deps.sh" "$m" >"$logs/mpi-$f.log" 2>&1
    rc=$?
    echo "$rc $(( $(date +%s) - s ))" > "$logs/mpi-$f.done"
  done
) &
builder=$!

# ---- papi-mpit itself (its backends need only the distribution's MPIs)
stamp "building papi-mpit"
PAPI_MPIT_MPI_BUILDS=no bash "$top/scripts/build.sh" "$@" || { echo "0 passed, 1 failed"; exit 1; }
cd "$BUILD"

# ---- Score-P, once per MPI family (against the distribution's MPI and this
# libpapi), in the background beside the MPI builds; a flavor's tests wait
# for its family's build (client-scorep.sh holds a lock while it builds)
(
  for family in openmpi mpich; do
    s=$(date +%s)
    bash "$top/scripts/client-scorep.sh" $family >"$logs/client-scorep-$family.log" 2>&1
    echo "$? $(( $(date +%s) - s ))" > "$logs/scorep-$family.done"
  done
) &

summaries=()
run_check() { # run_check LABEL [VAR=VALUE...]: make check narrowed by the variables
  local label=$1; shift
  stamp "tests: $label"
  env "$@" make check >"$logs/check-$label.log" 2>&1
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/check-$label.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed, 0 skipped"
  grep -E '^(FAIL|failed:)' "$logs/check-$label.log" | head -20
  summaries+=("$label: $line")
  echo "$label: $line"
}

# ---- unit tests and the distribution's flavors, while the MPIs build
run_check units MPIT_FLAVORS=none
run_check openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi
run_check mpich MPIT_UNITS=no MPIT_FLAVORS=mpich

# ---- each source flavor as soon as it is built; its clients first, so that
# their build time stays outside the per-test limits
hpcrun_done=no
for fm in "${source_flavors[@]}"; do
  f=${fm%%:*}
  stamp "waiting for the $f build (log: $logs/mpi-$f.log)"
  while [ ! -f "$logs/mpi-$f.done" ] && kill -0 $builder 2>/dev/null; do sleep 5; done
  read -r rc secs < "$logs/mpi-$f.done" 2>/dev/null || rc=1
  if [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-$f.log"
    summaries+=("$f: 0 passed, 1 failed, 0 skipped (the MPI did not build)")
    continue
  fi
  stamp "$f built in $((secs / 60)) min $((secs % 60)) s"
  # the clients are built per native MPI; a program built for the standard
  # ABI is measured with them only where they can be (the tests say which)
  clients=("client-tau.sh $f" "client-caliper.sh $f" "client-scorep.sh $f")
  case $f in *-abi) clients=() ;; esac
  for client in "${clients[@]}"; do
    bash "$top/scripts/"$client >"$logs/client-${client%%.sh*}-$f.log" 2>&1 \
      || echo "[test] $client did not build: its tests will fail (log: $logs/client-${client%%.sh*}-$f.log)"
  done
  if [ $hpcrun_done = no ]; then
    bash "$top/scripts/client-hpcrun.sh" >"$logs/client-hpcrun.log" 2>&1 \
      || echo "[test] hpcrun did not build: its tests will fail (log: $logs/client-hpcrun.log)"
    hpcrun_done=yes
  fi
  run_check "$f" MPIT_UNITS=no MPIT_FLAVORS="$f"
done
wait 2>/dev/null  # the MPI and Score-P builders

stamp "sanitizers and fuzzers"
bash "$top/scripts/sanitize.sh" >"$logs/sanitize.log" 2>&1
src=$?
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/sanitize.log" | tail -1)
[ -n "$line" ] || line="0 passed, 0 failed"
# a failure the sanitizers did not count still counts one
[ $src -eq 0 ] || ! grep -q ' 0 failed' <<<"$line" || line="${line/ 0 failed/ 1 failed}"
grep -E '^FAIL' "$logs/sanitize.log" | head -20
summaries+=("sanitize: $line")

# ---- one closing line: the sums
passed=0 failed=0 skipped=0
echo
for s in "${summaries[@]}"; do
  echo "  $s"
  p=$(grep -oE '[0-9]+ passed' <<<"$s" | grep -oE '^[0-9]+'); f=$(grep -oE '[0-9]+ failed' <<<"$s" | grep -oE '^[0-9]+')
  k=$(grep -oE '[0-9]+ skipped' <<<"$s" | grep -oE '^[0-9]+' || echo 0)
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
done
stamp "done"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
