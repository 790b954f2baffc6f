#!/usr/bin/env bash
# The report tool on arm64, under qemu-user, from nothing: a Debian 12
# (bookworm) arm64 userland in the cache ($CACHE/chroots/bookworm-arm64,
# scripts/chroot.sh), libpapi with the mpit component, the Open MPI backend
# and interposer and the unit tests cross-compiled against it, the unit
# tests run in it, and one 4-rank call-site run of ctests/report_sites_app.c
# on its Open MPI 4.1.4, every process emulated, checked exact by
# ctests/report_sites_check.py (every site's calls, messages, bytes, peers).
# Needs root (debootstrap, chroot, binfmt_misc), qemu-user-static and
# gcc-aarch64-linux-gnu.
#   scripts/arm64.sh [all]     binfmt, chroot, build, units, run (the default)
#   scripts/arm64.sh binfmt    registers qemu-aarch64 with binfmt_misc (once per boot)
#   scripts/arm64.sh chroot    the arm64 chroot (cached after the first time)
#   scripts/arm64.sh build     libpapi, the backend, the interposer, the test program
#   scripts/arm64.sh units     the report tool's unit tests, on arm64
#   scripts/arm64.sh run       the 4-rank call-site run, checked
#   scripts/arm64.sh check     build, units and run on a chroot already made,
#                              ending "N passed, N failed, N skipped" (the
#                              stage arm64 of scripts/test.sh)
# The build is $ARM64_BUILD (default _build/arm64 in the checkout); the
# seconds of each step go to its times.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
export NICE=${NICE:-nice -n 10}
B=${ARM64_BUILD:-$top/_build/arm64}
SUITE=bookworm-arm64
JOBS=${JOBS:-2}
log() { printf '[arm64 %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
in_chroot() { MPIT_BUILDDIR=$B bash "$here/chroot.sh" run "$SUITE" "$@"; }
timed() { # timed NAME CMD...: CMD, its seconds appended to times.txt
  local name=$1 t0 rc=0; shift
  t0=$(date +%s)
  "$@" || rc=$?
  mkdir -p "$B" && echo "$name $(($(date +%s) - t0)) s$( [ $rc = 0 ] || echo " (failed: $rc)")" >> "$B/times.txt"
  return "$rc"
}

# qemu-aarch64 in binfmt_misc, with the F flag (the interpreter opened now,
# so it runs inside the chroot too): Debian's own registration of it
binfmt() {
  local conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] && { log "binfmt: qemu-aarch64 registered"; return 0; }
  [ -f "$conf" ] || { echo "arm64: $conf missing: apt-get install qemu-user-static" >&2; return 1; }
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  cat "$conf" > /proc/sys/fs/binfmt_misc/register
  log "binfmt: qemu-aarch64 registered ($(sed -n 's/^flags: //p' /proc/sys/fs/binfmt_misc/qemu-aarch64))"
}

make_chroot() { bash "$here/chroot.sh" make "$SUITE"; }

# Cross-compiled on the host with Debian's aarch64-linux-gnu-gcc, the
# chroot as its sysroot (the faster of the two ways: gcc under qemu-user is
# emulated instruction by instruction; that way was not measured).  What the project's make builds, the same way: PAPI 7.2.0 from the
# cache's source with the project's patches and the mpit component (its
# bundled libpfm4: the chroot's libpfm4 is not needed), only its library;
# the Open MPI backend and interposer from Makefile.am's and
# utils/utils.am's source lists, with their flags; papi-mpit-report from
# its template; the call-site test's program as t_report_sites.sh builds it.
R=$(bash "$here/chroot.sh" root "$SUITE")
XCC="aarch64-linux-gnu-gcc --sysroot=$R"
L=$R/usr/lib/aarch64-linux-gnu
OMPI_I="-I$L/openmpi/include -I$L/openmpi/include/openmpi"
# sources NAME FILE: the .c files of the make variable NAME in FILE
sources() { sed -n "/^$1 *[+]*=/,/[^\\\\]\$/p" "$2" | tr -c 'A-Za-z0-9_./\n-' '\n' | grep '\.c$' | sort -u; }
build() {
  command -v aarch64-linux-gnu-gcc >/dev/null || { echo "arm64: apt-get install gcc-aarch64-linux-gnu" >&2; return 1; }
  local papi P=$B/papi-build s=$top/utils/report
  papi=$(bash "$here/deps.sh" papi72-source | tail -1)
  [ -f "$papi/src/configure" ] || { echo "arm64: no PAPI 7.2.0 source ($papi)" >&2; return 1; }
  rm -rf "${B:?}/papi-build" "${B:?}/obj" "${B:?}/gen" "${B:?}/.libs" "${B:?}/utils"
  mkdir -p "$B/obj/report" "$B/obj/backend" "$B/gen/utils/report/sites" "$B/gen/utils/report/interpose" "$B/.libs" "$B/utils"
  log "build: PAPI 7.2.0 with the mpit component, configured for aarch64"
  cp -R "$papi/." "$P/"
  for p in "$top"/patches/papi-7.2/*.patch; do (cd "$P" && patch -s -p1 --no-backup-if-mismatch < "$p"); done
  mkdir -p "$P/src/components/mpit" && cp -p "$top"/components/mpit/*.[ch] "$top/components/mpit/Rules.mpit" "$P/src/components/mpit/"
  # PAPI's configure for another architecture: what it cannot probe is given
  # (its own cross-compiling example, configure.in's head)
  (cd "$P/src" && QEMU_LD_PREFIX=$R CC=$XCC $NICE ./configure --prefix=/usr/local --host=aarch64-linux-gnu \
     --with-arch=aarch64 --with-CPU=arm --with-ffsll --with-walltimer=clock_realtime \
     --with-virtualtimer=clock_thread_cputime_id --with-tls=__thread --with-perf-events \
     --with-components="sde mpit") > "$B/build.log" 2>&1 || { tail -30 "$B/build.log"; return 1; }
  log "build: libpfm4 and libpapi"
  # shellcheck disable=SC2086
  (cd "$P/src" && $NICE make -C libpfm4/lib ARCH=aarch64 CC="$XCC -Wno-override-init" -j"$JOBS" \
     && $NICE make shared MPIT_BACKENDS= MPIT_BACKEND_DIR="$B/.libs" MPIT_DEFAULT_LIBMPI=libmpi.so.40 \
          MPIT_OPENMPI_CPPFLAGS= MPIT_MPICH_CPPFLAGS=) >> "$B/build.log" 2>&1 || { tail -30 "$B/build.log"; return 1; }
  log "build: the Open MPI backend and interposer, papi-mpit-report, report_sites_app"
  python3 "$s/interpose/gen-wrappers.py" "$s/interpose/mpi-calls.tsv" \
    "$B/gen/utils/report/interpose/site_wrappers.c" "$B/gen/utils/report/sites/site_fn.h"
  sh "$s/gen-report-options.sh" script "$s/papi-mpit-report.in" \
    | sed "s|@PACKAGE_VERSION[@]|$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")|g" > "$B/utils/papi-mpit-report"
  chmod +x "$B/utils/papi-mpit-report"
  local rs bs
  # (REPORT_SOURCES names REPORT_RENDER_SOURCES as a variable: both read)
  rs=$(sources REPORT_SOURCES "$top/utils/utils.am"; sources REPORT_RENDER_SOURCES "$top/utils/utils.am")
  bs=$(sources BACKEND_SOURCES "$top/Makefile.am")
  if [ "$(echo "$rs" | wc -l)" -lt 20 ] || [ "$(echo "$bs" | wc -l)" -lt 5 ]; then echo "arm64: source lists not found" >&2; return 1; fi
  # -DHAVE__DL_FIND_OBJECT: glibc 2.36 has it (configure's check)
  { for f in $rs; do echo "$top/$f"; done; echo "$B/gen/utils/report/interpose/site_wrappers.c"; } \
    | $NICE xargs -P "$JOBS" -I{} sh -c "$XCC -g -O2 -Wall -Wextra -fPIC -DPIC -DHAVE__DL_FIND_OBJECT=1 $OMPI_I -I$P/src \
        -I$s/interpose -I$s/hang -I$s/collect -I$s/sites -I$B/gen/utils/report/sites -I$s/render -I$s/common -I$top/components/mpit \
        -c {} -o $B/obj/report/\$(basename {} .c).o" >> "$B/build.log" 2>&1 || { tail -30 "$B/build.log"; return 1; }
  for f in $bs; do echo "$top/$f"; done \
    | $NICE xargs -P "$JOBS" -I{} sh -c "$XCC -g -O2 -Wall -Wextra -fPIC -DPIC $OMPI_I -I$top/components/mpit \
        -c {} -o $B/obj/backend/\$(basename {} .c).o" >> "$B/build.log" 2>&1 || { tail -30 "$B/build.log"; return 1; }
  # shellcheck disable=SC2086
  { $XCC -shared -o "$B/.libs/libpapi-mpit-report-openmpi.so" "$B"/obj/report/*.o -Wl,-rpath-link,"$L" \
      -L"$P/src" -lpapi -lpthread -ldl -lm -L"$L" -ldw -ljansson \
    && $XCC -shared -o "$B/.libs/mpit_backend_openmpi.so" "$B"/obj/backend/*.o \
    && $XCC -g -O0 -Wall -pthread $OMPI_I "$top/ctests/report_sites_app.c" -o "$B/report_sites_app" \
         -Wl,-rpath-link,"$L" "$L/libmpi.so.40"; } >> "$B/build.log" 2>&1 || { tail -30 "$B/build.log"; return 1; }
  if grep -q 'warning:' "$B/build.log"; then grep 'warning:' "$B/build.log" | grep -v "^$P" | head -5; fi
  log "build: $(for f in .libs/libpapi-mpit-report-openmpi.so .libs/mpit_backend_openmpi.so papi-build/src/libpapi.so report_sites_app; do
    printf '%s %s; ' "${f##*/}" "$(readelf -h "$B/$f" | sed -n 's/^ *Machine: *//p')"; done)"
}

# the report tool's unit tests that need neither MPI nor a browser, as
# ctests/run.sh runs them: cross-compiled, run in the chroot under qemu
units() {
  local s=$top/utils/report u=$B/units t rc fails=0 r j
  mkdir -p "$u"
  r="-I$s/render -I$s/common -I$s/collect"
  j="-I$R/usr/include -L$L -ljansson -Wl,-rpath-link,$L"
  local render="$s/render/report_job.c $s/render/report_not_provided.c $s/render/report_stats.c $s/render/report_text.c $s/render/report_json.c $s/render/report_svg.c $s/render/report_write_file.c $s/render/report_units.c $s/render/report_matrix.c $s/render/report_kit.c"
  local -A cmd=(
    [names]="-I$top/components/mpit $top/components/mpit/tests/test_names.c $top/components/mpit/mpit_names.c"
    [report-output]="$r $s/tests/test_output.c $render $j -lm"
    [report-senders]="$r $s/tests/test_senders.c $render $j -lm"
    [report-matrix]="$r $s/tests/test_matrix.c $render $j -lm"
    [report-units]="$r $s/tests/test_units.c $render $j -lm"
    [report-env]="$r $s/tests/test_env.c $s/common/report_env.c"
    [report-files]="$r $s/tests/test_files.c $render $j -lm"
    [report-records]="$r $s/tests/test_records.c $s/collect/report_records.c"
    [report-modules]="-UHAVE__DL_FIND_OBJECT -I$s/sites -I$s/collect $s/tests/test_modules.c $s/sites/site_modules.c -ldl -lpthread"
    [report-frame-arch]="-O2 -I$s/sites -I$s/collect $s/tests/test_frame_arch.c"
  )
  # report-output is left out: its out-of-memory checks cap the address
  # space with setrlimit(RLIMIT_AS), which qemu-user accepts and ignores
  # (a 4 GiB malloc under a 1 GiB cap succeeds there, fails natively)
  log "units: SKIP report-output (qemu-user ignores setrlimit(RLIMIT_AS), which its out-of-memory checks need)"
  for t in names report-senders report-matrix report-units report-env report-files report-records report-modules report-frame-arch; do
    rc=0
    # shellcheck disable=SC2086
    $XCC -Wall -Wextra -Werror ${cmd[$t]} -o "$u/test_$t" > "$u/$t.log" 2>&1 \
      && in_chroot sh -c "cd $u && ./test_$t" >> "$u/$t.log" 2>&1 || rc=$?
    if [ $rc = 0 ]; then log "units: PASS $t"; else log "units: FAIL $t (exit $rc, $u/$t.log)"; tail -5 "$u/$t.log"; fails=$((fails + 1)); fi
  done
  [ $fails = 0 ]
}

# the call-site test's 4-rank run (ctests/t_report_sites.sh, np=4) on the
# chroot's Open MPI, every process an emulated arm64 one
run() {
  # vader's single copy is process_vm_readv, which qemu-user does not have
  # (ENOSYS; vader then copies through its buffers and says so each time)
  local opts="--allow-run-as-root --oversubscribe --mca btl self,vader --mca btl_vader_single_copy_mechanism none --mca pml ob1"
  rm -rf "$B/out4"
  log "run: mpirun -np 4 $opts papi-mpit-report -q -o out4 ./report_sites_app"
  # as ctests/run.sh and test_lib.sh's report_tool run the build tree's tool
  in_chroot sh -c "cd $B && export LD_LIBRARY_PATH=$B/papi-build/src:$B/papi-build/src/libpfm4/lib PAPI_MPIT_BACKEND_DIR=$B/.libs \
      PAPI_MPIT_REPORT_LIBDIR=$B/.libs && timeout ${ARM64_TIMEOUT:-600} \
      mpirun -np 4 $opts $B/utils/papi-mpit-report -q -o out4 ./report_sites_app > out4.txt 2> err4.txt" \
    || { log "run: exit $?"; tail -20 "$B/err4.txt"; return 1; }
  local threads rc; threads=$(sed -n 's/^threads: //p' "$B/out4.txt")
  in_chroot python3 "$top/ctests/report_sites_check.py" "$top/ctests/report_sites_app.c" "$B/out4" 4 "$threads" openmpi \
    > "$B/check4.txt" 2>&1 && rc=0 || rc=$?
  log "run: $(grep -c '^ok:' "$B/check4.txt") ok, $(grep -c '^FAIL:' "$B/check4.txt") FAIL (threads: $threads; $B/check4.txt)"
  grep '^FAIL:' "$B/check4.txt" || true
  return "$rc"
}

case ${1:-all} in
  binfmt) binfmt ;;
  chroot) timed chroot make_chroot ;;
  build) timed build build ;;
  units) timed units units ;;
  run) timed run run ;;
  all)
    mkdir -p "$B" && : > "$B/times.txt"
    binfmt
    timed chroot make_chroot
    timed build build
    rc=0
    timed units units || rc=1
    timed run run || rc=1
    log "times: $(paste -sd, "$B/times.txt" | sed 's/,/, /g')"
    exit $rc
    ;;
  check)
    # each unit test and the run count one; a build that fails counts one
    mkdir -p "$B" && : > "$B/times.txt"
    binfmt && timed build build || { echo "0 passed, 1 failed, 0 skipped"; exit 1; }
    timed units units > "$B/units.out" 2>&1 || true
    cat "$B/units.out"
    p=$(grep -c 'units: PASS' "$B/units.out" || true) f=$(grep -c 'units: FAIL' "$B/units.out" || true)
    k=$(grep -c 'units: SKIP' "$B/units.out" || true)
    if timed run run; then p=$((p + 1)); else f=$((f + 1)); fi
    log "times: $(paste -sd, "$B/times.txt" | sed 's/,/, /g')"
    echo "$p passed, $f failed, $k skipped"
    [ "$f" = 0 ]
    ;;
  *) echo "usage: $0 [all|binfmt|chroot|build|units|run|check]" >&2; exit 2 ;;
esac
