#!/usr/bin/env bash
# Sets everything up and runs every test: the unit tests, the MPI tests under
# mpirun on every MPI flavor, then scripts/sanitize.sh (ASan+UBSan build and
# MPI tests, TSan stress, fuzzers).  Prints a summary per flavor, and last the
# sum of all.
#   scripts/test.sh
# The flavors are the distribution's Open MPI 4.1.4 and MPICH 4.0.2, and the
# builds of Debian's sources with the instrumentation the packages leave out:
# Open MPI 4.1.4 (bookworm) and 5.0.7 (trixie) with SPCs, MPICH 4.0.2 with
# MPI_T events; and the MPIs Debian 13 and sid ship, in debootstrap chroots
# (scripts/chroot.sh); and Debian 11, where the project is built from source
# inside its chroot and tested there (scripts/debian11.sh; PAPI_MPIT_DEBIAN11=no
# leaves it out).  The
# MPI source builds and the chroots run in the background, each kind in
# order, while the tests of the flavors already there run.  The client tests
# (TAU, Caliper, hpcrun, Score-P) run against the installations the environment
# names (doc/testing.md, "Testing with your own tools") and skip otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
export PREFIX=${PREFIX:-$BUILD/install} PAPI_PREFIX=${PREFIX:-$BUILD/install}
CACHE=$(sh "$top/scripts/cache-dir.sh")

# flavor, scripts/deps.sh mode that builds it
source_flavors=(openmpi-spc:ompi-spc mpich-events:mpich-events openmpi-5.0.7-spc:ompi5-spc)
# the distributions' MPIs as they ship (debootstrap chroots, scripts/chroot.sh):
# "flavors run on it", the scripts/deps.sh mode that makes it
distro_chroots=("debian13-openmpi debian13-mpich:debian13" "sid-openmpi sid-mpich sid-abi-openmpi sid-abi-mpich:debian-sid")
# Debian 11's chroot, made after those (scripts/debian11.sh builds and tests
# in it, last; doc/testing.md, "Time"); PAPI_MPIT_DEBIAN11=no|yes|auto (below)
debian11=${PAPI_MPIT_DEBIAN11:-auto}
started=$(date +%s)
stamp() { printf '[test %3d min] %s\n' $(( ($(date +%s) - started) / 60 )) "$*"; }
mkdir -p "$BUILD/logs"
logs=$BUILD/logs
rm -f "$logs"/mpi-*.done

# ---- packages, then the MPI source builds and the chroots in the background
bash "$top/scripts/deps.sh" packages || { echo "0 passed, 1 failed"; exit 1; }
# build_each NAME MODE...: scripts/deps.sh MODE for each in order, its log
# in $logs/mpi-NAME.log and "status seconds" in $logs/mpi-NAME.done
build_each() {
  local nm n m s
  for nm in "$@"; do
    n=${nm%%:*} m=${nm#*:} s=$(date +%s)
    bash "$top/scripts/deps.sh" "$m" >"$logs/mpi-$n.log" 2>&1
    echo "$? $(( $(date +%s) - s ))" > "$logs/mpi-$n.done"
  done
}
build_each "${source_flavors[@]}" &
builder=$!
# the chroots beside it: mostly download and unpacking, little compiling
build_each $(for cm in "${distro_chroots[@]}"; do echo "${cm#*:}:${cm#*:}"; done) \
  $([ "$debian11" = no ] || echo debian11:debian11 debian11-build:debian11-build) &
chrooter=$!

# ---- papi-mpit itself (its backends need only the distribution's MPIs)
stamp "building papi-mpit"
PAPI_MPIT_MPI_BUILDS=no bash "$top/scripts/build.sh" "$@" || { echo "0 passed, 1 failed"; exit 1; }
cd "$BUILD"

summaries=()
run_check() { # run_check LABEL [VAR=VALUE...]: make check narrowed by the variables
  # (CHECK=COMMAND: that command instead of make check)
  local label=$1; shift
  stamp "tests: $label"
  env "$@" ${CHECK:-make check} >"$logs/check-$label.log" 2>&1
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/check-$label.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed, 0 skipped"
  # each failure with the end of its log (ctests/run.sh indents it), so
  # that CI's output says why without the logs
  awk '/^FAIL/ { print; tail = 1; n = 0; next }
       tail && /^    / && n < 15 { print; n++; next }
       { tail = 0 } /^failed:/ { print }' "$logs/check-$label.log" | head -80
  summaries+=("$label: $line")
  echo "$label: $line"
}

# ---- unit tests and the distribution's flavors, while the MPIs build
run_check units MPIT_FLAVORS=none
run_check openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi
run_check mpich MPIT_UNITS=no MPIT_FLAVORS=mpich

# await NAME PID: until build_each (PID) has written NAME's .done (or ended);
# sets rc and secs from it (rc 1 when it never came)
await() {
  while [ ! -f "$logs/mpi-$1.done" ] && kill -0 "$2" 2>/dev/null; do sleep 5; done
  read -r rc secs < "$logs/mpi-$1.done" 2>/dev/null || rc=1
}

# ---- each distribution's flavors as soon as its chroot is made (before the
# source builds end: they take longer)
for cm in "${distro_chroots[@]}"; do
  fs=${cm%%:*}; m=${cm#*:}
  stamp "waiting for the $m chroot (log: $logs/mpi-$m.log)"
  await "$m" $chrooter
  if [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-$m.log"
    summaries+=("$m: 0 passed, 1 failed, 0 skipped (the chroot was not made)")
    continue
  fi
  stamp "$m chroot ready in $((secs / 60)) min $((secs % 60)) s ($(grep -o 'ready (.*)\|cached in .*' "$logs/mpi-$m.log" | tail -1))"
  for f in $fs; do run_check "$f" MPIT_UNITS=no MPIT_FLAVORS="$f"; done
done

# ---- each source flavor as soon as it is built
for fm in "${source_flavors[@]}"; do
  f=${fm%%:*}
  stamp "waiting for the $f build (log: $logs/mpi-$f.log)"
  await "$f" $builder
  if [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-$f.log"
    summaries+=("$f: 0 passed, 1 failed, 0 skipped (the MPI did not build)")
    continue
  fi
  stamp "$f built in $((secs / 60)) min $((secs % 60)) s"
  run_check "$f" MPIT_UNITS=no MPIT_FLAVORS="$f"
done

wait 2>/dev/null  # the MPI builder and the chroots

stamp "sanitizers and fuzzers"
bash "$top/scripts/sanitize.sh" >"$logs/sanitize.log" 2>&1
src=$?
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/sanitize.log" | tail -1)
[ -n "$line" ] || line="0 passed, 0 failed"
# a failure the sanitizers did not count still counts one
[ $src -eq 0 ] || ! grep -q ' 0 failed' <<<"$line" || line="${line/ 0 failed/ 1 failed}"
grep -E '^FAIL' "$logs/sanitize.log" | head -20
summaries+=("sanitize: $line")

# ---- Debian 11, last: the project built inside its chroot with the
# README's commands, and a subset of the tests run there on its Open MPI
# 4.1.0 and MPICH 3.4.1 (scripts/debian11.sh says which and why).  The build
# runs in the background once the chroot is made (scripts/debian11.sh
# build; its tree stays in the cache, so later runs rebuild what changed);
# the stage then runs the tests (a few minutes).  "auto" (the default)
# leaves the stage out, said and counted as a skip, when the run has
# already taken more than PAPI_MPIT_DEBIAN11_BY minutes (78) once the build
# is there: CI's limit is 90.  yes: always; no: never.
if [ "$debian11" != no ]; then
  stamp "waiting for the debian11 chroot and its build (logs: $logs/mpi-debian11.log, $logs/mpi-debian11-build.log)"
  await debian11 $chrooter
  chroot_rc=$rc chroot_secs=$secs
  await debian11-build $chrooter
  build_secs=${secs:-0}
  took=$(( ($(date +%s) - started) / 60 ))
  if [ "$chroot_rc" != 0 ]; then
    tail -20 "$logs/mpi-debian11.log"
    summaries+=("debian11: 0 passed, 1 failed, 0 skipped (the chroot was not made)")
  elif [ "$debian11" = auto ] && [ "$took" -gt "${PAPI_MPIT_DEBIAN11_BY:-78}" ]; then
    stamp "debian11: left out, the run has taken $took min (more than ${PAPI_MPIT_DEBIAN11_BY:-78}; PAPI_MPIT_DEBIAN11=yes runs it)"
    summaries+=("debian11: 0 passed, 0 failed, 1 skipped (left out after $took min)")
  else
    stamp "debian11 chroot ready in $((chroot_secs / 60)) min $((chroot_secs % 60)) s, built there in $((build_secs / 60)) min $((build_secs % 60)) s"
    CHECK="bash $top/scripts/debian11.sh" run_check debian11
  fi
fi

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
