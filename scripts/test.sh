#!/usr/bin/env bash
# Sets everything up and runs every test: the stages (a flavor's MPI
# tests under mpirun, the unit tests, the tests under Slurm, the
# sanitizers and fuzzers of scripts/sanitize.sh, Debian 11, arm64) in one
# queue that three lanes take from side by side.  Prints a summary per
# stage, and last the sum of all.
#   scripts/test.sh
# The flavors are the distribution's Open MPI 4.1.4 and MPICH 4.0.2, and the
# builds of Debian's sources with the instrumentation the packages leave out:
# Open MPI 4.1.4 (bookworm) and 5.0.7 (trixie) with SPCs, MPICH 4.0.2 with
# MPI_T events; and the MPIs Debian 13 and sid ship, in debootstrap chroots
# (scripts/chroot.sh); and Debian 11, where the project is built from source
# inside its chroot and tested there (scripts/debian11.sh; PAPI_MPIT_DEBIAN11=no
# leaves it out).  The MPI source builds run side by side and the chroots
# in the background, beside papi-mpit's own build; the tests start once
# the source builds are made.  The client tests (TAU, Caliper, hpcrun,
# Score-P) run against the installations the environment names
# (doc/testing.md, "Testing with your own tools") and skip otherwise.
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
# an empty cache: none of the three MPI source builds in it
cache_empty=no
[ -f "$CACHE/openmpi-5.0.7-spc/.built" ] || [ -f "$CACHE/openmpi-spc/.built" ] ||
  [ -f "$CACHE/mpich-events/.built" ] || cache_empty=yes
builds=()
for fm in "${source_flavors[@]}"; do
  case $fm in
    openmpi-5.0.7-spc:*)
      if [ "$ompi5" = no ] || { [ "$ompi5" = auto ] && [ $cache_empty = yes ]; }; then
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
# the chroots beside it: mostly download and unpacking, little compiling.
# Debian 11's chroot and the build inside it (about 5 and 14 min from
# nothing, beside the MPI builds) are left to the next run from an empty
# cache (PAPI_MPIT_DEBIAN11=auto), as Open MPI 5.0.7's build is: they
# took CPU the MPI builds, which the tests wait for, needed.
make_chroots() {
  build_each $(for cm in "${distro_chroots[@]}"; do echo "${cm#*:}:${cm#*:}"; done)
  if [ "$debian11" = auto ] && [ $cache_empty = yes ]; then
    echo "the cache held none of the MPI source builds: Debian 11's chroot and build are left to the next run" \
      | tee "$logs/mpi-debian11.log" >"$logs/mpi-debian11-build.log"
    echo "77 0" | tee "$logs/mpi-debian11.done" >"$logs/mpi-debian11-build.done"
  elif [ "$debian11" != no ]; then
    build_each debian11:debian11 debian11-build:debian11-build
  fi
  [ "$arm64" != no ] || return 0
  # arm64's chroot takes about 26 min from nothing (its packages configured
  # under qemu-user): made when it is cached, or, when the cache is not
  # empty, when the chroots before it came early enough
  # (PAPI_MPIT_ARM64_MAKE_BY minutes, 15: they were cached) that it is
  # ready about when the queue reaches it; otherwise not made, so that
  # a run from an empty cache is not made longer (status 77: the stage
  # says so and counts a skip; a run that finds the other chroots cached
  # makes it)
  if [ -f "$(bash "$top/scripts/chroot.sh" root bookworm-arm64)/.built" ] ||
     { [ $cache_empty = no ] && [ $(( ($(date +%s) - started) / 60 )) -lt "${PAPI_MPIT_ARM64_MAKE_BY:-15}" ]; }; then
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

# Each stage's summary line goes to $logs/summary.STAGE (the lanes below
# run side by side, so the sums are read back from those files at the end).
rm -f "$logs"/summary.*
rm -rf "$logs"/claim.*
run_check() { # run_check LABEL [VAR=VALUE...]: make check narrowed by the variables
  # (CHECK=COMMAND: that command instead of make check)
  local label=$1; shift
  stamp "tests: $label"
  env "$@" ${CHECK:-make check} >"$logs/check-$label.log" 2>&1
  local line out
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/check-$label.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 1 failed, 0 skipped"
  # each failure with the end of its log (ctests/run.sh indents it), so
  # that CI's output says why without the logs; printed in one write, so
  # that the other lanes' lines do not land inside it
  out=$(awk '/^FAIL/ { print; tail = 1; n = 0; next }
       tail && /^    / && n < 15 { print; n++; next }
       { tail = 0 } /^failed:/ { print }' "$logs/check-$label.log" | head -80)
  echo "$label: $line" >"$logs/summary.$label"
  printf '%s%s%s: %s\n' "$out" "${out:+$'\n'}" "$label" "$line"
}
summarize() { # summarize STAGE LINE: a stage's line without make check
  echo "$1: $2" >"$logs/summary.$1"
  echo "$1: $2"
}

# await NAME PID: until build_each (PID) has written NAME's .done (or ended);
# sets rc and secs from it (rc 1 when it never came)
await() {
  while [ ! -f "$logs/mpi-$1.done" ] && kill -0 "$2" 2>/dev/null; do sleep 5; done
  read -r rc secs < "$logs/mpi-$1.done" 2>/dev/null || rc=1
}
# await_built STAGE NAME PID WHAT: await NAME, then 0 when it was made;
# otherwise its log's end and STAGE counted failed (skipped for status
# 77, with the log's last line)
await_built() {
  stamp "waiting for the $2 $4 (log: $logs/mpi-$2.log)"
  await "$2" "$3"
  if [ "$rc" = 77 ]; then
    summarize "$1" "0 passed, 0 failed, 1 skipped (the $4 was not made: $(tail -1 "$logs/mpi-$2.log"))"
    return 1
  elif [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-$2.log"
    summarize "$1" "0 passed, 1 failed, 0 skipped (the $4 was not made)"
    return 1
  fi
  stamp "$2 $4 ready in $((secs / 60)) min $((secs % 60)) s"
}

# ---- the stages
# chroot_stage FLAVOR: a distribution chroot's flavor, once its chroot is made
chroot_stage() {
  local cm
  for cm in "${distro_chroots[@]}"; do
    case " ${cm%%:*} " in *" $1 "*)
      await_built "$1" "${cm#*:}" $chrooter chroot || return 0
      run_check "$1" MPIT_UNITS=no MPIT_FLAVORS="$1"; return ;;
    esac
  done
}
# source_stage FLAVOR: a source build's flavor (the builds are done or
# given up by the time the stages start)
source_stage() {
  await_built "$1" "$1" $builder build || return 0
  run_check "$1" MPIT_UNITS=no MPIT_FLAVORS="$1"
}
# the tests that wait on Slurm's time limit (a minute at least) or run
# under its srun, in a stage of their own: one private Slurm at a time;
# their ranks poll at nice 10 (their "nice:" lines), what the other lanes
# leave.  t_papi_tree (PAPI's two pristine trees built: about 2 min,
# mostly compiling) in another, so that the openmpi stage is shorter.
slurm_tests="t_report_slurm t_report_hang_slurm t_report_hang_sbatch"
long_tests="t_papi_tree"

# ---- arm64: libpapi with the component, the Open MPI backend and the
# interposer cross-compiled against a Debian 12 arm64 chroot, the report's
# unit tests and a 4-rank exact call-site run under qemu-user
# (scripts/arm64.sh check; doc/testing.md, "arm64").  "auto" leaves it
# out, said and counted as a skip, when its chroot was not made (above) or
# the run has taken more than PAPI_MPIT_ARM64_BY minutes (78).
stage_arm64() {
  stamp "waiting for the arm64 chroot (log: $logs/mpi-arm64.log)"
  await arm64 $chrooter
  local took=$(( ($(date +%s) - started) / 60 ))
  if [ "$rc" = 77 ] && [ -s "$logs/mpi-arm64.log" ]; then
    summarize arm64 "0 passed, 0 failed, 1 skipped (binfmt_misc cannot run arm64 binaries here: $(tail -1 "$logs/mpi-arm64.log"))"
  elif [ "$rc" = 77 ]; then
    summarize arm64 "0 passed, 0 failed, 1 skipped (its chroot is not in the cache, and making it, about 26 min, would have made this run longer)"
  elif [ "$rc" != 0 ]; then
    tail -20 "$logs/mpi-arm64.log"
    summarize arm64 "0 passed, 1 failed, 0 skipped (the arm64 chroot was not made)"
  elif [ "$arm64" = auto ] && [ "$took" -gt "${PAPI_MPIT_ARM64_BY:-78}" ]; then
    summarize arm64 "0 passed, 0 failed, 1 skipped (left out after $took min; PAPI_MPIT_ARM64=yes runs it)"
  else
    stamp "arm64 chroot ready in $((secs / 60)) min $((secs % 60)) s"
    ARM64_BUILD=$BUILD/arm64 CHECK="bash $top/scripts/arm64.sh check" run_check arm64
  fi
}
stage_sanitize() {
  # the sanitizers' MPI tests run on openmpi-spc and mpich-events (built
  # by then, or their own stages say why not)
  stamp "sanitizers and fuzzers"
  local src line
  bash "$top/scripts/sanitize.sh" >"$logs/sanitize.log" 2>&1
  src=$?
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/sanitize.log" | tail -1)
  [ -n "$line" ] || line="0 passed, 0 failed"
  # a failure the sanitizers did not count still counts one
  [ $src -eq 0 ] || ! grep -q ' 0 failed' <<<"$line" || line="${line/ 0 failed/ 1 failed}"
  # each failure with the lines indented under it: the report itself when a
  # sanitizer spoke (CI's output is all a reader may get)
  awk '/^FAIL/ { failing = 1; print; next } !/^    / { failing = 0 } failing { print }' \
    "$logs/sanitize.log" | head -120
  summarize sanitize "$line"
}

# ---- Debian 11: the project built inside its chroot with the README's
# commands, and a subset of the tests run there on its Open MPI 4.1.0 and
# MPICH 3.4.1 (scripts/debian11.sh says which and why).  The build runs in
# the background once the chroot is made (scripts/debian11.sh build; its
# tree stays in the cache, so later runs rebuild what changed); the stage
# then runs the tests (a few minutes).  "auto" (the default) leaves the
# stage out, said and counted as a skip, when the chroot was left to the
# next run (above) or the run has already taken more than
# PAPI_MPIT_DEBIAN11_BY minutes (78) once the build is there: CI's limit
# is 90.  yes: always; no: never.
stage_debian11() {
  stamp "waiting for the debian11 chroot and its build (logs: $logs/mpi-debian11.log, $logs/mpi-debian11-build.log)"
  await debian11 $chrooter
  local chroot_rc=$rc chroot_secs=$secs build_secs took
  if [ "$chroot_rc" = 77 ]; then
    summarize debian11 "0 passed, 0 failed, 1 skipped (the chroot was not made: $(tail -1 "$logs/mpi-debian11.log"))"
    return
  fi
  await debian11-build $chrooter
  build_secs=${secs:-0}
  took=$(( ($(date +%s) - started) / 60 ))
  if [ "$chroot_rc" != 0 ]; then
    tail -20 "$logs/mpi-debian11.log"
    summarize debian11 "0 passed, 1 failed, 0 skipped (the chroot was not made)"
  elif [ "$debian11" = auto ] && [ "$took" -gt "${PAPI_MPIT_DEBIAN11_BY:-78}" ]; then
    stamp "debian11: left out, the run has taken $took min (more than ${PAPI_MPIT_DEBIAN11_BY:-78}; PAPI_MPIT_DEBIAN11=yes runs it)"
    summarize debian11 "0 passed, 0 failed, 1 skipped (left out after $took min)"
  else
    stamp "debian11 chroot ready in $((chroot_secs / 60)) min $((chroot_secs % 60)) s, built there in $((build_secs / 60)) min $((build_secs % 60)) s"
    CHECK="bash $top/scripts/debian11.sh" run_check debian11
  fi
}

# run_stage STAGE: one stage of the queue below
run_stage() {
  case $1 in
    units) run_check units MPIT_FLAVORS=none ;;
    openmpi) run_check openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_EXCLUDE="$slurm_tests $long_tests" ;;
    mpich) run_check mpich MPIT_UNITS=no MPIT_FLAVORS=mpich ;;
    slurm-openmpi) run_check slurm-openmpi MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_TESTS="$slurm_tests" ;;
    openmpi-papi-tree) run_check openmpi-papi-tree MPIT_UNITS=no MPIT_FLAVORS=openmpi MPIT_TESTS="$long_tests" ;;
    sanitize) stage_sanitize ;;
    debian11) stage_debian11 ;;
    arm64) stage_arm64 ;;
    openmpi-spc|mpich-events|openmpi-5.0.7-spc) source_stage "$1" ;;
    *) chroot_stage "$1" ;;
  esac
}

# ---- the stages in one queue, taken by PAPI_MPIT_LANES lanes (3) side
# by side: each lane takes the next stage no lane has taken (mkdir is the
# claim), so no lane stands idle while stages wait.  The order is the
# longest first, by their minutes on CI's machine with the cache (in
# brackets): the queue then ends with short stages in every lane.  The
# tests take about 1.4 of the 2 cores when run alone (doc/testing.md,
# "Time"); three lanes fill both.  Debian 11 and arm64 come last: from
# an empty cache their chroots come last.  t_report_scale (128 ranks) and
# openmpi's t_report_hang, whose launcher's 10 s timeout must find every
# rank past MPI_Init, share the openmpi stage, so never run side by side:
# in two lanes the 128 ranks once left the other test's ranks too little
# CPU (no state at all, a failure).
stages=(openmpi           # [19] the family-scoped tests land here
        sanitize          # [14]
        sid-openmpi       # [10]
        openmpi-spc       # [10]
        mpich             # [8]
        sid-mpich         # [7]
        slurm-openmpi     # [6] mostly waits on Slurm's clock
        debian13-openmpi  # [5]
        debian13-mpich    # [5]
        mpich-events      # [5]
        sid-abi-mpich     # [3]
        openmpi-5.0.7-spc # [3]
        sid-abi-openmpi   # [2]
        openmpi-papi-tree # [2]
        units             # [1]
        $([ "$debian11" = no ] || echo debian11)  # [3]
        $([ "$arm64" = no ] || echo arm64))       # [3]
lane() { # take stages until none is left
  local st
  for st in "${stages[@]}"; do
    mkdir "$logs/claim.$st" 2>/dev/null || continue
    run_stage "$st"
  done
}
lanes=()
for ((l = 1; l <= ${PAPI_MPIT_LANES:-3}; l++)); do
  lane &
  lanes+=($!)
done
wait "${lanes[@]}"
wait 2>/dev/null  # the MPI builder and the chroots

# ---- one closing line: the sums
passed=0 failed=0 skipped=0
echo
summaries=()
# in the queue's order; a stage without a line died on the way
for st in "${stages[@]}"; do
  if [ -f "$logs/summary.$st" ]; then summaries+=("$(cat "$logs/summary.$st")")
  else summaries+=("$st: 0 passed, 1 failed, 0 skipped (it did not end)"); fi
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
