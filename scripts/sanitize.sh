#!/usr/bin/env bash
# Sanitizers and fuzzers; run by the test command after the normal tests, and
# runnable alone.  Steps:
#   canary/*   each sanitizer reports a planted bug (ctests/sanitizers/canary.c)
#   unit/*     unit tests of the name parser and the rule engine, ASan+UBSan
#   tsan/*     the engine's unit tests with their thread stress, TSan
#   fuzz/*     libFuzzer on the name parser and on the rule engine, a bounded
#              number of runs from the corpora in components/mpit/tests/fuzz
#   asan/*     libpapi with the mpit component and the backends built with
#              ASan+UBSan in a second build tree, and the component's MPI tests
#              (ctests/t_*.c) under it on one Open MPI and one MPICH flavor;
#              MPI's own leaks suppressed by ctests/sanitizers/lsan.supp
# Any sanitizer report or fuzzer finding fails its step.  Last line:
# "N passed, N failed" (each MPI test run counts as one step).
#
# Environment: BUILD (_build), SANITIZE_DIR ($BUILD/sanitize),
# SANITIZE_FLAVORS ("openmpi-spc mpich-events"), FUZZ_RUNS_NAMES (2000000),
# FUZZ_RUNS_ENGINE (200000), FUZZ_MAX_SECONDS (240, per target), JOBS.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/_build}
W=${SANITIZE_DIR:-$BUILD/sanitize}
FLAVORS=${SANITIZE_FLAVORS:-openmpi-spc mpich-events}
JOBS=${JOBS:-$(nproc)}
MPIT=$top/components/mpit
TESTS=$MPIT/tests
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
# Sanitizer options: every report fails the process.  (The MPI tests add
# full stacks and per-process report files, below.)
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export LSAN_OPTIONS="suppressions=$top/ctests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1"

passed=0 failed=0 failures=()
mkdir -p "$W/logs" "$W/bin"
t_start=$SECONDS

# step NAME CMD...: runs CMD with its output in $W/logs/NAME.log
step() {
  local name=$1; shift
  local log=$W/logs/${name//\//-}.log t0=$SECONDS
  "$@" >"$log" 2>&1
  record $? "$name" "$log" $((SECONDS - t0))
}
record() { # record STATUS NAME LOG SECONDS [LINES of the log shown on failure]; returns STATUS
  if [ "$1" -eq 0 ]; then
    passed=$((passed + 1)); echo "PASS $2 (${4}s)"
  else
    failed=$((failed + 1)); failures+=("$2"); echo "FAIL $2 (${4}s; log $3)"
    tail -"${5:-25}" "$3" | sed 's/^/    /'
  fi
  return "$1"
}

# expect_report PATTERN CMD...: CMD must fail and print PATTERN
expect_report() {
  local pattern=$1 out rc; shift
  out=$("$@" 2>&1); rc=$?
  echo "$out"
  [ $rc -ne 0 ] || { echo "FAIL: exit status 0 (the planted bug was not reported)"; return 1; }
  grep -q "$pattern" <<<"$out" || { echo "FAIL: no '$pattern' in the output"; return 1; }
}

# TSan needs a memory layout some kernels' address randomisation breaks.
tsan_run() {
  local out rc
  out=$("$@" 2>&1); rc=$?
  if grep -q 'ThreadSanitizer: unexpected memory mapping' <<<"$out" && command -v setarch >/dev/null; then
    out=$(setarch "$(uname -m)" -R "$@" 2>&1); rc=$?
  fi
  echo "$out"
  return $rc
}

# ------------------------------------------------------------- tools
# clang with libFuzzer, from Debian when missing.
have_libfuzzer() {
  printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
    > "$W/bin/probe.c"
  clang -fsanitize=fuzzer "$W/bin/probe.c" -o "$W/bin/probe" >/dev/null 2>&1
}
if ! have_libfuzzer; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "[sanitize] installing clang and its libFuzzer runtime"
  { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
      --no-install-recommends clang libclang-rt-14-dev; } >"$W/logs/apt.log" 2>&1 \
    || tail -5 "$W/logs/apt.log"
fi

# ------------------------------------------------------------- canaries
canaries() {
  gcc -g -O0 $SAN -pthread "$top/ctests/sanitizers/canary.c" -o "$W/bin/canary" &&
  gcc -g -O0 -fsanitize=thread -pthread "$top/ctests/sanitizers/canary.c" -o "$W/bin/canary-tsan" ||
    return 1
}
if step canary/build canaries; then
  step canary/asan expect_report 'AddressSanitizer: heap-buffer-overflow' "$W/bin/canary" heap
  step canary/ubsan expect_report 'runtime error: signed integer overflow' "$W/bin/canary" signed
  # with the suppression file in force: it must not hide the program's leaks
  step canary/lsan expect_report 'LeakSanitizer: detected memory leaks' "$W/bin/canary" leak
  step canary/tsan expect_report 'ThreadSanitizer: data race' tsan_run "$W/bin/canary-tsan" race
fi

# ------------------------------------------------------------- unit tests
unit_names() {
  gcc -g -O1 -Wall -Wextra -Werror $SAN -I"$MPIT" "$TESTS/test_names.c" "$MPIT/mpit_names.c" \
    -o "$W/bin/test_names" && "$W/bin/test_names"
}
engine_build() { # engine_build OUT SANITIZER-FLAGS...
  local out=$1; shift
  gcc -g -O1 -Wall -Wextra -Werror -pthread "$@" -I"$MPIT" "$TESTS"/test_engine*.c \
    "$MPIT"/mpit_engine_*.c "$MPIT/mpit_rules.c" "$MPIT/mpit_metrics.c" -o "$out"
}
unit_engine() { engine_build "$W/bin/test_engine" $SAN && "$W/bin/test_engine" "$TESTS/streams"; }
# test_engine ends with its thread stress: 4 writers and a reader on one engine
tsan_engine() {
  engine_build "$W/bin/test_engine-tsan" -fsanitize=thread && tsan_run "$W/bin/test_engine-tsan" "$TESTS/streams"
}
step unit/names unit_names
step unit/engine unit_engine
step tsan/engine tsan_engine

# ------------------------------------------------------------- fuzzers
# fuzz NAME RUNS MAXLEN SOURCES...: new inputs go to a scratch directory, never
# into the committed corpus; a finding is saved in $W/fuzz/ and reproduced by
# running the target on that file.
fuzz() {
  local name=$1 runs=$2 maxlen=$3; shift 3
  local bin=$W/bin/fuzz_$name scratch=$W/fuzz/$name.scratch
  clang -g -O1 -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I"$MPIT" "$TESTS/fuzz/fuzz_$name.c" "$@" -o "$bin" || return 1
  rm -rf "$scratch" "$W/fuzz/$name-"* && mkdir -p "$scratch"
  "$bin" -runs="$runs" -max_len="$maxlen" -max_total_time="${FUZZ_MAX_SECONDS:-240}" -timeout=20 \
    -print_final_stats=1 -artifact_prefix="$W/fuzz/$name-" "$scratch" "$TESTS/fuzz/corpus_$name"
}
mkdir -p "$W/fuzz"
fuzz_stats() { # fuzz_stats NAME RUNS: runs done and seed, from the step's log
  local done
  done=$(grep -ho 'stat::number_of_executed_units: [0-9]*' "$W/logs/fuzz-$1.log" | sed 's/.*: //')
  echo "    ${done:-0} runs$([ "${done:-0}" -ge "$2" ] || echo " (of $2: time limit)"), $(grep -ho 'Seed: [0-9]*' "$W/logs/fuzz-$1.log")"
}
runs_names=${FUZZ_RUNS_NAMES:-2000000} runs_engine=${FUZZ_RUNS_ENGINE:-200000}
step fuzz/names fuzz names "$runs_names" 600 "$MPIT/mpit_names.c"
fuzz_stats names "$runs_names"
step fuzz/engine fuzz engine "$runs_engine" 4096 "$MPIT"/mpit_engine_*.c "$MPIT/mpit_rules.c"
fuzz_stats engine "$runs_engine"

# ------------------------------------------------------------- ASan libpapi
# A second build tree of the project configured with the sanitizer flags;
# PAPI's configure takes them from CFLAGS, so libpapi, the component and the
# backends are all instrumented.  Rebuilt from scratch when the flags change.
A=$W/asan-build
flags="-g -O1 $SAN"
asan_build() (
  if [ "$(cat "$A/.sanitize-flags" 2>/dev/null)" != "$flags $top" ]; then
    rm -rf "$A" && mkdir -p "$A" && echo "$flags $top" > "$A/.sanitize-flags"
  fi
  cd "$A" || return 1
  export CFLAGS=$flags LDFLAGS="-fsanitize=address,undefined"
  if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
    "$top/configure" --prefix="$A/install" > configure.log 2>&1 || { tail -30 configure.log; return 1; }
  fi
  local backends
  make Makefile > make.log 2>&1 || { tail -20 make.log; return 1; }   # regenerated if Makefile.am changed
  backends=$(printf 'print-backends:\n\t@echo "backends: $(mpitbackend_LTLIBRARIES)"\n' |
             make -s -f Makefile -f - print-backends | sed -n 's/^backends: //p')
  echo "backends: $backends"
  make -j"$JOBS" papi-lib $backends >> make.log 2>&1 || { grep -E 'error|Error' make.log | head -20; tail -20 make.log; return 1; }
  # instrumented for real: the sanitizer flags reached every object
  for lib in papi-build/src/libpapi.so .libs/mpit_backend_*.so; do
    nm -D --undefined-only "$lib" | grep -q __asan_report || { echo "FAIL: $lib is not instrumented"; return 1; }
    echo "instrumented: $lib"
  done
)
if step asan/build asan_build; then
  # The tests get the sanitizer through the MPI compiler wrappers (OMPI_CC,
  # MPICH_CC), and keep_modules.o so that leaks in unloaded modules can be
  # named and matched.  -O0 as in the normal run.
  gcc -c -O1 -fPIC "$top/ctests/sanitizers/keep_modules.c" -o "$W/bin/keep_modules.o"
  cat > "$W/bin/cc-san" <<EOF
#!/bin/sh
for a; do case \$a in -c|-E|-S|-M|-MM) exec gcc -g -O0 $SAN "\$@" ;; esac; done
exec gcc -g -O0 $SAN "\$@" "$W/bin/keep_modules.o"
EOF
  chmod +x "$W/bin/cc-san"

  # MPI runs: one report file per process, named after the program (the
  # ranks' reports would interleave), and full stacks (the slow unwinder: MPI
  # is built without frame pointers, and a suppression matches only frames it
  # sees).  New memory is not filled with ASan's 0xbe bytes: Open MPI 4.1.4
  # files bytes sent under OMPI_SPC_BYTES_SENT_USER or _MPI by the send
  # request's req_status.MPI_TAG before setting it (pml_ob1_sendreq.c:207),
  # so with the fill every user send counts as MPI-internal (t_spc fails);
  # zeroed, as fresh memory is in a normal run.  Detection is unchanged.
  R=$A/sanitizer-reports
  rm -rf "$R" && mkdir -p "$R/canary"
  mpi_env() { # mpi_env REPORT-DIR CMD...
    local logs="log_path=$1/report:log_exe_name=1"; shift
    ASAN_OPTIONS="$ASAN_OPTIONS:fast_unwind_on_malloc=0:malloc_context_size=30:max_malloc_fill_size=0:$logs" \
    UBSAN_OPTIONS="$UBSAN_OPTIONS:$logs" OMPI_CC=$W/bin/cc-san MPICH_CC=$W/bin/cc-san "$@"
  }
  # the planted leak, built by the flavor's mpicc and started by its mpirun,
  # must reach a report file: the wrapper, the options and the suppressions
  # all get through the launcher
  mpi_canary() {
    local f=$1 out=$R/canary/$1
    flavor_vars "$f" || { echo "flavor $f is not installed"; return 1; }
    mkdir -p "$out" && mpi_env "$out" $MPICC "$top/ctests/sanitizers/canary.c" -o "$W/bin/canary-$f" || return 1
    mpi_env "$out" $MPIRUN $MPIRUN_OPTS -np 1 "$W/bin/canary-$f" leak
    echo "exit status $?"
    cat "$out"/report.* 2>/dev/null
    grep -q 'LeakSanitizer: detected memory leaks' "$out"/report.* 2>/dev/null
  }
  . "$top/ctests/flavors.sh"
  for f in $FLAVORS; do
    step "asan/canary-$f" mpi_canary "$f"
  done
  tests=$(cd "$top/ctests" && ls t_*.c | sed 's/\.c$//' | tr '\n' ' ')
  rm -rf "$A/ctests-build/logs"
  t0=$SECONDS
  # each test at its largest rank count: the same code of the component
  # as at the smaller one, which the uninstrumented run checks
  mpi_env "$R" env MPIT_FLAVORS="$FLAVORS" MPIT_TESTS="$tests" MPIT_RANKS=${MPIT_RANKS:-largest} \
    PAPI_BUILD=$A/papi-build PAPI_MPIT_BACKEND_DIR=$A/.libs MPIT_SRCDIR=$top MPIT_BUILDDIR=$A \
    bash "$top/ctests/run.sh" > "$W/logs/asan-mpi-tests.log" 2>&1
  # a failure keeps the lines run.sh indented under it (why, the log's end)
  awk '/^(PASS|FAIL|SKIP) / { sub(/^(PASS|FAIL|SKIP) /, "&asan/"); sub(/ \(exit .*/, ""); print; failing = /^FAIL/; next }
       failing && /^    / { print }' "$W/logs/asan-mpi-tests.log"
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$W/logs/asan-mpi-tests.log" | tail -1)
  echo "asan/mpi-tests: ${summary:-no summary} ($((SECONDS - t0))s; log $W/logs/asan-mpi-tests.log)"
  if [ -n "$summary" ]; then
    set -- $summary
    passed=$((passed + $1)); failed=$((failed + $3))
    [ "$3" -eq 0 ] || failures+=("asan/mpi-tests ($3)")
  else
    record 1 asan/mpi-tests "$W/logs/asan-mpi-tests.log" $((SECONDS - t0))
  fi
  # Any report fails, even in a run that passed or skipped; summed up by the
  # first frame in this project's code.
  reports=$( (ls "$R"/report.* 2>/dev/null
              grep -lE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$A"/ctests-build/logs/*.log 2>/dev/null) )
  {
    echo "$reports"
    [ -z "$reports" ] || echo "$(echo $reports | wc -w) reports; by the first frame in this project's code:"
    [ -z "$reports" ] || awk '
      FNR == 1 { want = 0 }   # a report cut short when mpirun ended the job
      /runtime error:/ { sub(/^.*\//, ""); print "  UBSan " $0; next }
      /ERROR: AddressSanitizer/ { what = $2 " " $3; want = 1; first = ""; next }
      /(Direct|Indirect) leak of/ { what = $1 " leak"; want = 1; first = ""; next }
      want && /^ *#[0-9]+ / {
        f = $0; sub(/^ *#[0-9]+ 0x[0-9a-f]+ in /, "", f); sub(/ \/.*\//, " ", f)
        if (first == "" && f !~ /^(__interceptor|malloc|calloc|realloc|strdup|__asan)/) first = f
        if ($0 ~ /components\/mpit|\/ctests\/|papi-build\/src|\/utils\//) { print "  " what " at " f; want = 0 }
        next }
      want && /^ *$/ { print "  " what " at " first " (no frame in this project)"; want = 0 }
    ' $reports | sort | uniq -c | sort -rn | head -20
    # the first reports themselves: CI's output is all a reader may get
    for r in $(echo $reports | tr ' ' '\n' | head -3); do
      echo "--- $r"
      grep -m1 -A40 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$r"
    done
  } > "$W/logs/asan-reports.log"
  record "$([ -z "$reports" ]; echo $?)" asan/no-sanitizer-reports "$W/logs/asan-reports.log" 0 150
fi

echo
[ ${#failures[@]} -eq 0 ] || printf 'failed: %s\n' "${failures[@]}"
echo "[sanitize] $((SECONDS - t_start))s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
