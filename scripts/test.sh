#!/usr/bin/env bash
# Sets everything up and runs every test in three lanes side by side: the
# MPI tests under mpirun on every MPI flavor (Open MPI's in one; MPICH's,
# arm64 and Debian 11 in another; the unit tests, the tests under Slurm,
# a long one, the Open MPI 4.1.4 SPC build's flavor and
# scripts/sanitize.sh (ASan+UBSan build and MPI tests, TSan stress,
# fuzzers) in the third).  Prints
# a summary per flavor, and last the sum of all.
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
# arm64 under qemu-user (scripts/arm64.sh), last in lane 2; PAPI_MPIT_ARM64=no|yes|auto
arm64=${PAPI_MPIT_ARM64:-auto}
started=$(date +%s)
stamp() { printf '[test %3d min] %s\n' $(( ($(date +%s) - started) / 60 )) "$*"; }
mkdir -p "$BUILD/logs"
logs=$BUILD/logs
. "$top/scripts/debian-python.sh"
debian_python "$BUILD/bin"
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
# The MPI source builds run beside papi-mpit's own build and the chroots,
# and the tests start once they are made (below).  Open MPI 5.0.7's, the
# longest (about 15 min on 2 idle cores), is left to the next run when
# none of the three is cached (PAPI_MPIT_OMPI5=auto, the default; yes:
# always built; no: never): its stage says so and counts a skip, and a
# run that finds the other two cached builds it.  Its log's last line
# says why.
ompi5=${PAPI_MPIT_OMPI5:-auto}
builds=()
for fm in "${source_flavors[@]}"; do
  case $fm in
    openmpi-5.0.7-spc:*)
      if [ "$ompi5" = no ] || { [ "$ompi5" = auto ] && [ ! -f "$CACHE/openmpi-5.0.7-spc/.built" ] &&
           [ ! -f "$CACHE/openmpi-spc/.built" ] && [ ! -f "$CACHE/mpich-events/.built" ]; }; then
        if [ "$ompi5" = no ]; then echo "PAPI_MPIT_OMPI5=no"; else
          echo "the cache held none of the MPI source builds: this one, the longest, is left to the next run"
        fi >"$logs/mpi-openmpi-5.0.7-spc.log"
        echo "77 0" >"$logs/mpi-openmpi-5.0.7-spc.done"
        continue
      fi ;;
  esac
  builds+=("$fm")
done
# each build on its own (their configure steps are serial: side by side
# they fill both cores)
build_side_by_side() { local b; for b in "$@"; do build_each "$b" & done; wait; }
build_side_by_side "${builds[@]}" &
builder=$!
# the chroots beside it: mostly download and unpacking, little compiling
make_chroots() {
  build_each $(for cm in "${distro_chroots[@]}"; do echo "${cm#*:}:${cm#*:}"; done) \
    $([ "$debian11" = no ] || echo debian11:debian11 debian11-build:debian11-build)
  [ "$arm64" != no ] || return 0
  # arm64's chroot takes about 26 min from nothing (its packages configured
  # under qemu-user): made when it is cached, or when the chroots before it
  # came early enough (PAPI_MPIT_ARM64_MAKE_BY minutes, 15: they were
  # cached) that it is ready about when lane 2 ends; otherwise not made, so
  # that a run from an empty cache is not made longer (status 77: the
  # stage says so and counts a skip; a run that finds the other chroots
  # cached makes it)
  if [ -f "$(bash "$top/scripts/chroot.sh" root bookworm-arm64)/.built" ] ||
     [ $(( ($(date +%s) - started) / 60 )) -lt "${PAPI_MPIT_ARM64_MAKE_BY:-15}" ]; then
    build_each arm64:arm64
  else
    : > "$logs/mpi-arm64.log"
    echo "77 0" > "$logs/mpi-arm64.done"
  fi
}
make_chroots &
chrooter=$!

# ---- compilers through ccache, its store in the cache (PAPI_MPIT_CCACHE=no
# leaves it out): a run after the first compiles only what changed, where
# each run compiles PAPI three times (the build, the sanitizers', and
# t_papi_tree's two pristine trees) and every test program on every flavor
# of this machine.  Compiles with -g hash their directory (ccache's
# default), so the debug information, which the call sites' lines come
# from, never names another checkout's files.
if [ "${PAPI_MPIT_CCACHE:-yes}" != no ] && [ -d /usr/lib/ccache ] && command -v ccache >/dev/null; then
  export PATH=/usr/lib/ccache:$PATH CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G}
  ccache -z >/dev/null 2>&1
fi

# ---- papi-mpit itself (its backends need only the distribution's MPIs)
stamp "building papi-mpit"
PAPI_MPIT_MPI_BUILDS=no bash "$top/scripts/build.sh" "$@" || { echo "0 passed, 1 failed"; exit 1; }
cd "$BUILD"
# The tests wait for the MPI source builds (from the cache: seconds).  Run
# beside the tests on 2 cores, Open MPI 4.1.4's build took 49 min where it
# takes about 8 alone, every test ran slower, and the flavors that need
# the builds came last anyway (doc/testing.md, "Time").
stamp "waiting for the MPI source builds"
wait $builder

# Each stage's summary line goes to $logs/summary.LANE (the lanes below run
# side by side, so the sums are read back from those files at the end).
rm -f "$logs"/summary.*
run_check() { # run_check LANE LABEL [VAR=VALUE...]: make check narrowed by the variables
  # (CHECK=COMMAND: that command instead of make check)
  local lane=$1 label=$2; shift 2
  stamp "tests: $label"
  env "$@" ${CHECK:-make check} >"$logs/check-$label.log" 2>&1
  local line out
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/check-$label.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed, 0 skipped"
  # each failure with the end of its log (ctests/run.sh indents it), so
  # that CI's output says why without the logs; printed in one write, so
  # that the other lane's lines do not land inside it
  out=$(awk '/^FAIL/ { print; tail = 1; n = 0; next }
       tail && /^    / && n < 15 { print; n++; next }
       { tail = 0 } /^failed:/ { print }' "$logs/check-$label.log" | head -80)
  echo "$label: $line" >>"$logs/summary.$lane"
  printf '%s%s%s: %s\n' "$out" "${out:+$'\n'}" "$label" "$line"
}
summarize() { # summarize LANE LABEL LINE: a stage's line without make check
  echo "$2: $3" >>"$logs/summary.$1"
  echo "$2: $3"
}

# await NAME PID: until build_each (PID) has written NAME's .done (or ended);
# sets rc and secs from it (rc 1 when it never came)
await() {
  while [ ! -f "$logs/mpi-$1.done" ] && kill -0 "$2" 2>/dev/null; do sleep 5; done
  read -r rc secs < "$logs/mpi-$1.done" 2>/dev/null || rc=1
}
# await_built LANE NAME PID WHAT: await, then 0 when it was made; otherwise
# its log's end and a failed stage in LANE's sums (a skipped one for
# status 77, with the log's last line)
await_built() {
  stamp "waiting for the $2 $4 (log: $logs/mpi-$2.log)"
  await "$2" "$3"
  if [ "$rc" = 77 ]; then
    summarize "$1" "$2" "0 passed, 0 failed, 1 skipped (the $4 was not made: $(tail -1 "$logs/mpi-$2.log"))"
    return 1
  elif [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-$2.log"
    summarize "$1" "$2" "0 passed, 1 failed, 0 skipped (the $4 was not made)"
    return 1
  fi
  stamp "$2 $4 ready in $((secs / 60)) min $((secs % 60)) s"
}

# ---- three lanes side by side, each flavor as soon as its MPI is there
# (the distribution's first, then the chroots, then the source builds).
# The tests take about 1.4 of the 2 cores when run alone (doc/testing.md,
# "Time"); two lanes fill both, and the third mostly waits at first.
# Lane 1: Open MPI's flavors (the distribution's, the chroots', 5.0.7's
# source build, which comes last from an empty cache).  Lane 2: MPICH's,
# then arm64 and Debian 11.  Lane 3: the unit tests, the Slurm tests
# (Open MPI's only: one private Slurm at a time), which mostly wait on
# Slurm's clock, then t_papi_tree on Open MPI's first flavor,
# openmpi-spc (the first source build) and the sanitizers (on openmpi-spc
# and mpich-events).
# chroot_lane FAMILY LANE: each chroot's flavors of FAMILY
chroot_lane() {
  local cm fs m f
  for cm in "${distro_chroots[@]}"; do
    fs=${cm%%:*} m=${cm#*:}
    await_built "$2" "$m" $chrooter chroot || continue
    for f in $fs; do
      case $f in *-"$1") run_check "$2" "$f" MPIT_UNITS=no MPIT_FLAVORS="$f" ;; esac
    done
  done
}
# source_stage LANE FLAVOR: a source build's flavor, once it is built
source_stage() {
  await_built "$1" "$2" $builder build || return 0
  run_check "$1" "$2" MPIT_UNITS=no MPIT_FLAVORS="$2"
}
# the tests that wait on Slurm's time limit (a minute at least) or run
# under its srun: lane 3, beside the other two from the start, so that
# lane 1 goes on meanwhile.  Their ranks poll at nice 10 (their "nice:"
# lines): what the other lanes leave.  One private Slurm at a time.
slurm_tests="t_report_slurm t_report_hang_slurm t_report_hang_sbatch"
# The unit tests come first in it (scripts/build.sh has built all that
# make check needs: in every lane make check only runs ctests/run.sh).
# Then the openmpi flavor's t_papi_tree (PAPI's two pristine trees built:
# about 2 min, mostly compiling), openmpi-spc (the first source build) and
# the sanitizers.  t_report_scale (128 ranks) stays in
# lane 1: beside a test whose launcher's 10 s timeout must find every rank
# past MPI_Init (t_report_hang) it took that test's ranks' CPU.
long_tests="t_papi_tree"
lane_slurm() {
  run_check units units MPIT_FLAVORS=none
  run_check 3 slurm-openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_TESTS="$slurm_tests"
  run_check 3 openmpi-papi-tree MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_TESTS="$long_tests"
  source_stage 3 openmpi-spc
  lane_sanitize
}
lane_openmpi() {
  run_check 1 openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_EXCLUDE="$slurm_tests $long_tests"
  chroot_lane openmpi 1
  source_stage 1 openmpi-5.0.7-spc
}

# ---- arm64, last in lane 2: libpapi with the component, the Open MPI
# backend and the interposer cross-compiled against a Debian 12 arm64
# chroot, the report's unit tests and a 4-rank exact call-site run under
# qemu-user (scripts/arm64.sh check; doc/testing.md, "arm64").  "auto"
# leaves it out, said and counted as a skip, when its chroot was not made
# (above) or the run has taken more than PAPI_MPIT_ARM64_BY minutes (78).
lane_arm64() {
  [ "$arm64" != no ] || return 0
  stamp "waiting for the arm64 chroot (log: $logs/mpi-arm64.log)"
  await arm64 $chrooter
  local took=$(( ($(date +%s) - started) / 60 ))
  if [ "$rc" = 77 ] && [ -s "$logs/mpi-arm64.log" ]; then
    summarize 2 arm64 "0 passed, 0 failed, 1 skipped (binfmt_misc cannot run arm64 binaries here: $(tail -1 "$logs/mpi-arm64.log"))"
  elif [ "$rc" = 77 ]; then
    summarize 2 arm64 "0 passed, 0 failed, 1 skipped (its chroot is not in the cache, and making it, about 26 min, would have made this run longer)"
  elif [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-arm64.log"
    summarize 2 arm64 "0 passed, 1 failed, 0 skipped (the arm64 chroot was not made)"
  elif [ "$arm64" = auto ] && [ "$took" -gt "${PAPI_MPIT_ARM64_BY:-78}" ]; then
    summarize 2 arm64 "0 passed, 0 failed, 1 skipped (left out after $took min; PAPI_MPIT_ARM64=yes runs it)"
  else
    stamp "arm64 chroot ready in $((secs / 60)) min $((secs % 60)) s"
    ARM64_BUILD=$BUILD/arm64 CHECK="bash $top/scripts/arm64.sh check" run_check 2 arm64
  fi
}
lane_mpich() {
  run_check 2 mpich MPIT_UNITS=no MPIT_FLAVORS=mpich
  chroot_lane mpich 2
  source_stage 2 mpich-events
  lane_debian11
  lane_arm64
}
lane_sanitize() {
  # the sanitizers' MPI tests run on openmpi-spc and mpich-events (both
  # built by then, or their own stages say why not)
  await openmpi-spc $builder
  await mpich-events $builder
  stamp "sanitizers and fuzzers"
  local src line
  bash "$top/scripts/sanitize.sh" >"$logs/sanitize.log" 2>&1
  src=$?
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/sanitize.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 0 failed"
  # a failure the sanitizers did not count still counts one
  [ $src -eq 0 ] || ! grep -q ' 0 failed' <<<"$line" || line="${line/ 0 failed/ 1 failed}"
  grep -E '^FAIL' "$logs/sanitize.log" | head -20
  summarize 3 sanitize "$line"
}

# ---- Debian 11, in lane 2 before arm64: the project built inside its
# chroot with the README's commands, and a subset of the tests run there
# on its Open MPI 4.1.0 and MPICH 3.4.1 (scripts/debian11.sh says which
# and why).  The
# build runs in the background once the chroot is made (scripts/debian11.sh
# build; its tree stays in the cache, so later runs rebuild what changed);
# the stage then runs the tests (a few minutes).  "auto" (the default)
# leaves the stage out, said and counted as a skip, when the run has
# already taken more than PAPI_MPIT_DEBIAN11_BY minutes (78) once the build
# is there: CI's limit is 90.  yes: always; no: never.
lane_debian11() {
  [ "$debian11" != no ] || return 0
  stamp "waiting for the debian11 chroot and its build (logs: $logs/mpi-debian11.log, $logs/mpi-debian11-build.log)"
  await debian11 $chrooter
  local chroot_rc=$rc chroot_secs=$secs build_secs took
  await debian11-build $chrooter
  build_secs=${secs:-0}
  took=$(( ($(date +%s) - started) / 60 ))
  if [ "$chroot_rc" != 0 ]; then
    tail -20 "$logs/mpi-debian11.log"
    summarize 2 debian11 "0 passed, 1 failed, 0 skipped (the chroot was not made)"
  elif [ "$debian11" = auto ] && [ "$took" -gt "${PAPI_MPIT_DEBIAN11_BY:-78}" ]; then
    stamp "debian11: left out, the run has taken $took min (more than ${PAPI_MPIT_DEBIAN11_BY:-78}; PAPI_MPIT_DEBIAN11=yes runs it)"
    summarize 2 debian11 "0 passed, 0 failed, 1 skipped (left out after $took min)"
  else
    stamp "debian11 chroot ready in $((chroot_secs / 60)) min $((chroot_secs % 60)) s, built there in $((build_secs / 60)) min $((build_secs % 60)) s"
    CHECK="bash $top/scripts/debian11.sh" run_check 2 debian11
  fi
}

rm -f "$logs"/lane.*.ended
# each lane marks its end: a lane that died on the way counts as a failure
(lane_slurm; touch "$logs/lane.3.ended") &
lane3=$!
(lane_openmpi; touch "$logs/lane.1.ended") &
lane1=$!
lane_mpich; touch "$logs/lane.2.ended"
wait $lane1 $lane3
wait 2>/dev/null  # the MPI builder and the chroots

# ---- one closing line: the sums
passed=0 failed=0 skipped=0
echo
summaries=()
for f in "$logs"/summary.units "$logs"/summary.1 "$logs"/summary.3 "$logs"/summary.2; do
  [ -f "$f" ] || continue
  while IFS= read -r s; do summaries+=("$s"); done <"$f"
done
for l in 1 2 3; do
  [ -f "$logs/lane.$l.ended" ] || summaries+=("lane $l: 0 passed, 1 failed, 0 skipped (it ended before its last stage)")
done
for s in "${summaries[@]}"; do
  echo "  $s"
  p=$(grep -oE '[0-9]+ passed' <<<"$s" | grep -oE '^[0-9]+'); f=$(grep -oE '[0-9]+ failed' <<<"$s" | grep -oE '^[0-9]+')
  k=$(grep -oE '[0-9]+ skipped' <<<"$s" | grep -oE '^[0-9]+' || echo 0)
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
done
[ -z "${CCACHE_DIR:-}" ] || echo "  (ccache: $(ccache -s 2>/dev/null | grep -iE '^ *(hits|misses):' | tr -s ' ' | paste -sd';'))"
stamp "done"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
