#!/usr/bin/env bash
# papi-mpit-report charges a call made inside a library to the program's
# line behind it (issue 43, item 2): report_sites_libapp.c calls a small
# shared library built here (report_sites_lib.c, -O2 without frame
# pointers), which makes the MPI calls.  The library lies in the work
# directory, which the rule counts as the program's own code, so the runs
# name it with --site-libs; report_sites_lib_check.py says what each run
# must give, exactly:
# - --site-libs 'libsitelib*': each call at the program's line that called
#   the library, the library's line as its detail (via), also where one
#   library line is reached by two paths in turn (the path learnt for one
#   must not be taken for the other) and through a frame whose size varies
#   (a variable-length array);
# - --site-depth 2: the broadcasts, two library frames deep, stay at the
#   library's line (not_found), the sends still reach the program;
# - --site-depth 1: every library call at the library's line;
# - no --site-libs: the library is the program's own code: its lines.
# scope: library (the wrappers of each release and ABI: a rebuild with SPCs or MPI_T events changes no call)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-sites-lib || exit 1
$MPICC -g -O2 -fPIC -shared -fomit-frame-pointer -fno-optimize-sibling-calls -Wall -Wextra -I"$here" \
  "$here/report_sites_lib.c" -o libsitelib.so || { echo "FAIL: cannot build libsitelib.so"; exit 1; }
# -O0: each marked line keeps its own call
$MPICC -g -O0 -Wall -Wextra -I"$here" "$here/report_sites_libapp.c" -L. -lsitelib -Wl,-rpath,"$PWD" \
  -o report_sites_libapp || { echo "FAIL: cannot build report_sites_libapp"; exit 1; }
np=3
run() { timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q "$@" ./report_sites_libapp; }

run -o base >base.out 2>base.err  # warm-up and the program's line
grep -qx "report_sites_libapp: $np ranks, 42" base.out || { echo "FAIL: the program's line"; cat base.out base.err; exit 1; }
for mode in behind depth2 depth1 own; do
  case $mode in
    behind) opts=(--site-libs 'libsitelib*') ;;
    depth2) opts=(--site-libs 'libsitelib*' --site-depth 2) ;;
    depth1) opts=(--site-libs 'libother.so,libsitelib.so' --site-depth 1) ;;
    own) opts=() ;;
  esac
  run -o $mode "${opts[@]}" >$mode.out 2>$mode.err
  rc=$?
  if [ $rc = 0 ] && python3 "$here/report_sites_lib_check.py" "$here" $mode $np $mode >$mode.check; then
    ok "$mode (${opts[*]}): $(grep -c '^ok' $mode.check) checks exact"
  else
    fail "$mode (${opts[*]}): exit $rc"; grep FAIL $mode.check; tail -5 $mode.err
  fi
done
[ $fails = 0 ]
