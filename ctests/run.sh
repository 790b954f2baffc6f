#!/usr/bin/env bash
# Runs every test: the unit tests of pure logic, then each ctests/t_*.c under
# mpirun (with the rank counts its "ranks:" line names) and each ctests/t_*.sh
# (300 s each unless a "timeout:" line says otherwise), on every MPI flavor
# present or those a "flavors:" line names.  Ends with "N passed, N failed, N skipped".
#
# Environment: PAPI_BUILD (PAPI tree with libpapi and papi.h), MPIT_SRCDIR,
# MPIT_BUILDDIR, PAPI_MPIT_BACKEND_DIR; MPIT_FLAVORS and MPIT_TESTS narrow the
# run (space-separated names; tests by file name without extension);
# MPIT_EXCLUDE leaves tests out; MPIT_UNITS=no leaves out the unit tests;
# MPIT_RANKS (kind, all, largest) says at which rank counts the C tests (and
# the shell tests that loop over counts, through MPIT_COUNTS) run
# (below).
set -u
here=$(cd "$(dirname "$0")" && pwd)
SRC=${MPIT_SRCDIR:-$(dirname "$here")}
BUILD=${MPIT_BUILDDIR:-$SRC}
PAPI_BUILD=${PAPI_BUILD:-$BUILD/papi-build}
export PAPI_INC=$PAPI_BUILD/src PAPI_LIB=$PAPI_BUILD/src PAPI_UTILS=$PAPI_BUILD/src/utils
# PAPI built with its own libpfm4 (configure found the system's too old):
# that one, not the system's, for a libpapi not installed yet
pfm=$PAPI_BUILD/src/libpfm4/lib
[ -e "$pfm/libpfm.so.4" ] || pfm=
export LD_LIBRARY_PATH=$PAPI_LIB${pfm:+:$pfm}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PAPI_MPIT_BACKEND_DIR=${PAPI_MPIT_BACKEND_DIR:-$BUILD/.libs}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
. "$here/flavors.sh"

passed=0 failed=0 skipped=0
failures=()
logdir=$BUILD/ctests-build/logs
mkdir -p "$logdir"
. "$SRC/scripts/debian-python.sh"
debian_python "$BUILD/ctests-build/bin"

wanted() { # wanted LIST ITEM: empty list means all
  [ -z "$1" ] && return 0
  case " $1 " in *" $2 "*) return 0 ;; esac
  return 1
}
chosen() { # chosen TEST: in MPIT_TESTS (empty: all) and not in MPIT_EXCLUDE
  wanted "${MPIT_TESTS:-}" "$1" || return 1
  case " ${MPIT_EXCLUDE:-} " in *" $1 "*) return 1 ;; esac
  return 0
}

# each result's seconds since the one before go to times.tsv, with its
# status and the CPU seconds (user + system) its processes took: what
# CI's two cores go to (sort -k4 -n logs/times.tsv; ranks a launcher
# leaves running are not counted)
# children_cpu: the CPU milliseconds of this shell's ended children so far
children_cpu() {
  local self children u s
  times >"$logdir/.times.$$" # (a builtin: this shell's own, not a subshell's)
  { read -r self; read -r children; } <"$logdir/.times.$$"
  u=${children%% *} s=${children#* }
  REPLY=$(awk -v u="$u" -v s="$s" 'function ms(t) { split(t, a, /[ms]/); return (a[1] * 60 + a[2]) * 1000 }
    BEGIN { printf "%d", ms(u) + ms(s) }')
}
last_record=$SECONDS
children_cpu; last_cpu=$REPLY
# Each test its own TMPDIR (in /tmp, which the chroots share): the
# launchers name their session directories after their pid (PRRTE:
# prterun.HOST.PID.0, ORTE: ompi.HOST.PID), a job the tests kill leaves its
# directory behind, and pids wrap at 32768 on these machines: a later
# prterun given that pid failed in prte_init ("prte_session_dir failed",
# "Exists").
fresh_tmp() { test_tmp=$(mktemp -d /tmp/papi-mpit-test.XXXXXX); }

record() { # record STATUS LABEL LOG
  children_cpu
  printf '%s\t%s\t%s\t%d.%03d\n' "$2" $((SECONDS - last_record)) "$1" $(((REPLY - last_cpu) / 1000)) $(((REPLY - last_cpu) % 1000)) >>"$logdir/times.tsv"
  last_record=$SECONDS last_cpu=$REPLY
  case $1 in
    0)  passed=$((passed + 1)); echo "PASS $2" ;;
    77) skipped=$((skipped + 1)); echo "SKIP $2: $(grep -h '^SKIP' "$3" | head -1 | cut -c6-)" ;;
    *)  failed=$((failed + 1)); failures+=("$2"); echo "FAIL $2 (exit $1; log $3)"
        # the test's own failure lines first (a long stderr dump after them
        # must not hide why), then the log's end
        grep -E '^ *FAIL|^rank [0-9]+: FAIL' "$3" | head -5 | sed 's/^/    /'; tail -10 "$3" | sed 's/^/    /' ;;
  esac
}

# ---- unit tests of pure logic
run_unit() {
  local name=$1; shift
  local log=$logdir/unit-$name.log
  [ "${MPIT_UNITS:-yes}" = no ] && return 0
  wanted "${MPIT_TESTS:-}" "$name" || return 0
  "$@" >"$log" 2>&1
  record $? "unit/$name" "$log"
}
unitdir=$BUILD/ctests-build/unit
# report.json is written through jansson
jansson=$(pkg-config --cflags --libs jansson)
mkdir -p "$unitdir"
run_unit names bash -c "cc -Wall -Wextra -Werror -I'$SRC/components/mpit' '$SRC/components/mpit/tests/test_names.c' '$SRC/components/mpit/mpit_names.c' -o '$unitdir/test_names' && '$unitdir/test_names'"
run_unit engine make -s -C "$SRC/components/mpit/tests" -f Makefile.engine check BUILDDIR="$unitdir"
# the report tool's renderings without MPI (table, CSV, JSON, SVG, sender
# matrix, communication matrix); the files they write are valid JSON and
# SVG that renders (rsvg-convert), at 4 ranks and, for the matrix, in
# blocks at 300.  (They do not depend on the MPI: here once, not in the
# MPI tests of every flavor.)
# renders_all FILE...: each JSON parses, each SVG renders to a PNG
renders_all='for f in "$@"; do case $f in
  *.json) python3 -m json.tool "$f" >/dev/null || { echo "FAIL: $f is not JSON"; exit 1; } ;;
  *.svg) command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert (librsvg2-bin) not installed"; exit 1; }
         rsvg-convert "$f" -o "$f.png" && [ -s "$f.png" ] || { echo "FAIL: $f does not render"; exit 1; } ;;
  esac; done'
declare -A report_unit_files=([output]="unit/unit.json unit/unit.svg" [senders]="" [matrix]="unit/matrix4.svg unit/matrix300.svg")
for t in output senders matrix; do
  run_unit report-$t bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/render' -I'$SRC/utils/report/common' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_$t.c' \
    '$SRC/utils/report/render/report_job.c' '$SRC/utils/report/render/report_not_provided.c' '$SRC/utils/report/render/report_stats.c' '$SRC/utils/report/render/report_text.c' '$SRC/utils/report/render/report_json.c' '$SRC/utils/report/render/report_svg.c' '$SRC/utils/report/render/report_write_file.c' '$SRC/utils/report/render/report_units.c' '$SRC/utils/report/render/report_matrix.c' '$SRC/utils/report/render/report_kit.c' $jansson -lm -o '$unitdir/test_report_$t' && cd '$unitdir' && rm -rf unit && ./test_report_$t \${1:+unit} && $renders_all" \
    _ ${report_unit_files[$t]}
done
# numbers for people (KiB, ms) and the recorded command's quoting
run_unit report-units bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/render' -I'$SRC/utils/report/common' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_units.c' \
  '$SRC/utils/report/render/report_units.c' '$SRC/utils/report/render/report_job.c' '$SRC/utils/report/render/report_not_provided.c' '$SRC/utils/report/render/report_stats.c' '$SRC/utils/report/render/report_text.c' '$SRC/utils/report/render/report_json.c' '$SRC/utils/report/render/report_svg.c' '$SRC/utils/report/render/report_write_file.c' '$SRC/utils/report/render/report_matrix.c' '$SRC/utils/report/render/report_kit.c' $jansson -lm -o '$unitdir/test_report_units' && '$unitdir/test_report_units'"
# one parser for every boolean variable of the report tool
run_unit report-env bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/render' -I'$SRC/utils/report/common' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_env.c' \
  '$SRC/utils/report/common/report_env.c' -o '$unitdir/test_report_env' && '$unitdir/test_report_env'"
# the report's temporary files: created exclusively, no symbolic link followed
run_unit report-files bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/render' -I'$SRC/utils/report/common' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_files.c' \
  '$SRC/utils/report/render/report_job.c' '$SRC/utils/report/render/report_not_provided.c' '$SRC/utils/report/render/report_stats.c' '$SRC/utils/report/render/report_text.c' '$SRC/utils/report/render/report_json.c' '$SRC/utils/report/render/report_svg.c' '$SRC/utils/report/render/report_write_file.c' '$SRC/utils/report/render/report_units.c' '$SRC/utils/report/render/report_matrix.c' '$SRC/utils/report/render/report_kit.c' $jansson -lm -o '$unitdir/test_report_files' && '$unitdir/test_report_files'"
# the record sequences of the collection (written against the record before)
run_unit report-records bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/render' -I'$SRC/utils/report/common' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_records.c' \
  '$SRC/utils/report/collect/report_records.c' -o '$unitdir/test_report_records' && '$unitdir/test_report_records'"
# the module holding an address without glibc's _dl_find_object (below 2.35):
# the executable, libc, a library loaded later, from a signal handler
run_unit report-modules bash -c "cc -Wall -Wextra -Werror -UHAVE__DL_FIND_OBJECT -I'$SRC/utils/report/sites' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_modules.c' \
  '$SRC/utils/report/sites/site_modules.c' -ldl -lpthread -o '$unitdir/test_report_modules' && '$unitdir/test_report_modules'"
# the Python frames' layout read from CPython 3.13's and later _Py_DebugOffsets
# (Debian 13's 3.13.5 numbers; refused: no cookie, before 3.13, free-threaded, another order)
run_unit report-python-offsets bash -c "cc -Wall -Wextra -Werror -I'$SRC/utils/report/sites' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_python_offsets.c' \
  '$SRC/utils/report/sites/site_python.c' -ldl -o '$unitdir/test_report_python_offsets' && '$unitdir/test_report_python_offsets'"
# the Python line behind a call made without the GIL (a ctypes call, as
# mpi4py's), on this machine's python3: each marked line exact
run_unit report-python-frames bash -c "cc -Wall -Wextra -Werror -shared -fPIC -I'$SRC/utils/report/sites' -I'$SRC/utils/report/collect' \
  '$SRC/utils/report/sites/site_python.c' -ldl -o '$unitdir/libsite_python.so' && python3 '$SRC/utils/report/tests/test_python_frames.py' '$unitdir/libsite_python.so'"
# where a frame keeps its return address (the call-site chains), on a real stack
run_unit report-frame-arch bash -c "cc -Wall -Wextra -Werror -O2 -I'$SRC/utils/report/sites' -I'$SRC/utils/report/collect' '$SRC/utils/report/tests/test_frame_arch.c' \
  -o '$unitdir/test_report_frame_arch' && '$unitdir/test_report_frame_arch'"
# report.html from 2 to 1024 ranks, checked in headless Chromium
run_unit report-html bash "$SRC/ctests/report_html_scale.sh" "$unitdir/report-html"
# papi-mpit-merge's cycles of waits from written states: a deadlock once every wait is 0.5 s old
run_unit report-cycle bash "$SRC/ctests/report_cycle_settled.sh" "$BUILD" "$unitdir/report-cycle"
# the report tool's options: doc/report.md's table is utils/report/report-options.tsv's and
# that file names every PAPI_MPIT_REPORT_* variable utils/ reads
run_unit report-options sh "$SRC/utils/report/gen-report-options.sh" check "$SRC"
# the man page made from it renders without a groff warning
run_unit report-man bash -c "command -v groff >/dev/null || { echo 'SKIP groff is not installed (scripts/deps.sh installs groff-base)'; exit 77; }
  out=\$(groff -man -Tutf8 -ww -z '$BUILD/doc/papi-mpit-report.1' 2>&1) &&
    [ -f '$BUILD/doc/papi-mpit-report.1' ] && [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
# doc/testing.md's table of tests by flavor is what the tests' "flavors:" and
# "scope:" lines and flavors.sh's skips make run.sh do
run_unit flavor-table bash "$SRC/ctests/flavor-table.sh" check "$SRC/doc/testing.md"
# the written style (.clang-format) holds for every C file of the project
run_unit format bash -c "command -v clang-format >/dev/null ||
    { echo 'SKIP clang-format is not installed (scripts/deps.sh installs it)'; exit 77; }
  cd '$SRC' && find components/mpit utils ctests bench -name '*.[ch]' -print0 | xargs -0 clang-format --dry-run --Werror"

# lsan_tool_crash NAME LOG: 0 when a failed run of NAME failed only because
# LeakSanitizer itself crashed ("Tracer caught signal 11", seen with the
# machine busy): the sanitizer failing, not a finding.  Its reports are set
# aside (tool-crashes/ beside them) so that the run can be made once more.
lsan_tool_crash() {
  local path files=() f
  path=$(sed -n 's/.*log_path=\([^:]*\).*/\1/p' <<<"${ASAN_OPTIONS:-}")
  if [ -n "$path" ]; then for f in "$path".$1.*; do [ -e "$f" ] && files+=("$f"); done; fi
  grep -qs 'LeakSanitizer has encountered a fatal error' "$2" "${files[@]}" || return 1
  ! grep -qs 'ERROR: AddressSanitizer\|ERROR: LeakSanitizer\|runtime error:' "$2" "${files[@]}" || return 1
  if [ ${#files[@]} -gt 0 ]; then mkdir -p "$(dirname "$path")/tool-crashes" && mv "${files[@]}" "$(dirname "$path")/tool-crashes/"; fi
  return 0
}

# ---- MPI tests per flavor
# skip_known NAME: a test that cannot hold on this flavor (flavors.sh,
# FLAVOR_SKIPS) is recorded as skipped with its reason
skip_known() {
  local why log=$logdir/$flavor-$1.log
  why=$(flavor_skip "$flavor" "$1") || return 1
  echo "SKIP $why" > "$log"
  record 77 "$flavor/$1" "$log"
}
# rank_counts TEST: MPIT_COUNTS (exported: the shell tests read it through
# test_lib.sh's counts) says whether TEST runs at every rank count it
# names ("all") or at the largest alone ("largest").  Every count on the
# first flavor of each kind, where the test's arithmetic per rank count is
# checked; on the kind's other flavors (another release, chroot or ABI of
# the same MPI) the largest alone, which exercises the MPI as much.
# MPIT_RANKS=all: every count on every flavor; =largest: the largest
# everywhere.
rank_counts() {
  case ${MPIT_RANKS:-kind} in
    all) MPIT_COUNTS=all ;;
    largest) MPIT_COUNTS=largest ;;
    *) if in_scope "$1" kind "$only" "$flavor"; then MPIT_COUNTS=all; else MPIT_COUNTS=largest; fi ;;
  esac
  export MPIT_COUNTS
}
for flavor in $ALL_FLAVORS; do
  wanted "${MPIT_FLAVORS:-}" "$flavor" || continue
  if ! flavor_vars "$flavor"; then
    echo "(flavor $flavor not installed: skipped)"
    continue
  fi
  bin=$BUILD/ctests-build/$flavor
  mkdir -p "$bin"
  export FLAVOR=$flavor FAMILY=$(flavor_family "$flavor") KIND=$(flavor_kind "$flavor") MPICC MPIRUN MPIRUN_OPTS FLAVOR_EXEC BIN=$bin
  # shared helpers, compiled once per flavor (renamed into place: another
  # run.sh may be running this flavor's other tests beside this one)
  $MPICC -Wall -Wextra -I"$here/common" -I"$PAPI_INC" -c "$here/common/check.c" -o "$bin/check.o.$$" &&
    mv -f "$bin/check.o.$$" "$bin/check.o" || { failed=$((failed + 1)); failures+=("$flavor/build"); continue; }
  for src in "$here"/t_*.c; do
    name=$(basename "$src" .c)
    chosen "$name" || continue
    test_meta "$src"; only=$KINDS
    [ -n "$only" ] && ! wanted "$only" "$KIND" && continue
    in_scope "$name" "$SCOPE" "$only" "$flavor" || continue
    skip_known "$name" && continue
    ranks=$(sed -n 's/^.*ranks: *\([0-9 ]*\).*$/\1/p' "$src" | head -1)
    read -ra counts <<<"${ranks:-2 4}"
    rank_counts "$name"
    [ "$MPIT_COUNTS" = all ] || counts=("${counts[-1]}")
    # -ldl: the tests that call dlsym (RTLD_NEXT) need it below glibc 2.34 (Debian 11)
    log=$logdir/$flavor-$name-build.log
    if ! $MPICC -Wall -Wextra -Werror -pthread -rdynamic -I"$here/common" -I"$PAPI_INC" -I"$SRC/components/mpit" "$src" "$bin/check.o" \
        -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -ldl -o "$bin/$name" >"$log" 2>&1; then
      record 1 "$flavor/$name (build)" "$log"; continue
    fi
    for np in "${counts[@]}"; do
      log=$logdir/$flavor-$name-np$np.log
      fresh_tmp
      (cd "$bin" && TMPDIR=$test_tmp timeout 180 $MPIRUN $MPIRUN_OPTS -np "$np" "./$name") >"$log" 2>&1
      rc=$?
      if [ $rc -ne 0 ] && lsan_tool_crash "$name" "$log"; then
        mv "$log" "$log.tool-crash"
        echo "(LeakSanitizer crashed in $flavor/$name np=$np: run again; $log.tool-crash)"
        (cd "$bin" && TMPDIR=$test_tmp timeout 180 $MPIRUN $MPIRUN_OPTS -np "$np" "./$name") >"$log" 2>&1
        rc=$?
      fi
      rm -rf "$test_tmp"
      # a skip is said by rank 0; mpirun may turn 77 into 1 if some rank exits
      # first.  A run with any FAIL line is never a skip.
      grep -q '^SKIP' "$log" && ! grep -q 'FAIL' "$log" && [ $rc -ne 0 ] && rc=77
      record $rc "$flavor/$name np=$np" "$log"
    done
  done
  for script in "$here"/t_*.sh; do
    [ -e "$script" ] || continue
    name=$(basename "$script" .sh)
    chosen "$name" || continue
    # a "# flavors: ..." line runs a script on those flavors only, and a
    # "# timeout: SECONDS" line replaces the default 300 s
    test_meta "$script"; only=$KINDS
    [ -n "$only" ] && ! wanted "$only" "$KIND" && continue
    # a "# scope: ..." line runs it once per release, kind or family
    # (flavors.sh, in_scope; doc/testing.md has the table)
    in_scope "$name" "$SCOPE" "$only" "$flavor" || continue
    skip_known "$name" && continue
    rank_counts "$name"
    limit=$(sed -n 's/^# timeout: *\([0-9]*\).*$/\1/p' "$script" | head -1)
    limit=$(( ${limit:-300} * ${MPIT_TIMEOUT_FACTOR:-1} ))
    # a "# nice: N" line runs it at that niceness: jobs that wait on a clock
    # (Slurm's time limit, a launcher's timeout) with every rank polling, so
    # that their spinning takes what the other CI lane leaves, not half of it
    niceness=$(sed -n 's/^# nice: *\([0-9]*\).*$/\1/p' "$script" | head -1)
    log=$logdir/$flavor-$name.log
    fresh_tmp
    (cd "$bin" && TMPDIR=$test_tmp nice -n "${niceness:-0}" timeout "$limit" bash "$script") >"$log" 2>&1
    rc=$?
    rm -rf "$test_tmp"
    record $rc "$flavor/$name" "$log"
  done
done

echo
[ ${#failures[@]} -eq 0 ] || printf 'failed: %s\n' "${failures[@]}"
rm -f "$logdir/.times.$$"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
