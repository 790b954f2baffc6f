#!/usr/bin/env bash
# papi-mpit-report under mpirun on this flavor: with 1, 2 and 3 ranks (3
# alone on a kind's other flavors: common/test_lib.sh, counts) the report
# appears once on rank 0 with every rank in it, the values in the table,
# CSV and JSON agree, the program's stdout and exit status (3) are those of
# a run without the tool, an event the MPI lacks is reported once and
# skipped, the SVG renders (rsvg-convert).  Also MPI_Init_thread, plain
# LD_PRELOAD, Fortran (mpif.h, MPI_INIT_THREAD, mpi_f08) where the flavor
# has a Fortran compiler, and on the SPC flavor exact byte totals.
# (--quiet, --chart and the script's own errors are t_report_cli's, the
# renderings alone the unit test report-output's: they do not depend on
# the MPI.)
#
# Run by ctests/run.sh (environment: FLAVOR FAMILY MPICC MPIRUN MPIRUN_OPTS
# BIN ...), in $BIN.  The tool comes from the build tree: MPIT_BUILDDIR, else
# $BIN/../.. (run.sh puts BIN at <build>/ctests-build/<flavor>).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$FAMILY.so
# a program of the MPI 5.0 standard ABI: the interposer built against its header
case $FLAVOR in *-abi | *-abi-*) lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-abi.so ;; esac
test_workdir report || exit 1

run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }

[ -f "$lib" ] || { echo "SKIP no $FAMILY interposer in this build ($lib)"; exit 77; }
command -v rsvg-convert >/dev/null || { echo "FAIL: rsvg-convert (librsvg2-bin) not installed"; exit 1; }

$MPICC -O2 -Wall "$here/report_app.c" -o report_app || { echo "FAIL: cannot build report_app"; exit 1; }

# is_png FILE: a PNG of some substance
is_png() {
  [ -s "$1" ] && [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '211PNG' ] && [ "$(stat -c %s "$1")" -gt 5000 ]
}

M=10 B=64
spc=0
if [ "$KIND" = openmpi-spc ]; then
  spc=1
  export OMPI_MCA_mpi_spc_attach=all
fi
SENT=mpit:::runtime_spc_OMPI_SPC_BYTES_SENT_USER
RECV=mpit:::runtime_spc_OMPI_SPC_BYTES_RECEIVED_USER
MISSING=mpit:::NO_SUCH_EVENT_FOR_THE_TEST

for np in $(counts 1 2 3); do
  run -np $np ./report_app -m $M -b $B -x 3 >base.$np.out 2>base.$np.err
  base_rc=$?
  events=default,$MISSING
  [ $spc = 1 ] && events=$events,$SENT,$RECV
  if launcher_is_prrte; then
    # each rank's own stderr and status (common/per_rank.sh): PRRTE now and
    # then forwards none of rank 0's line of MPI_Init (launcher_is_prrte)
    rm -rf ranks$np
    run -np $np bash "$here/common/per_rank.sh" "$PWD/ranks$np" "$wrap" -o out$np -e "$events" ./report_app -m $M -b $B -x 3 >tool.$np.out 2>tool.$np.fwd
    rc=$?
    cat ranks$np/err.* >tool.$np.err 2>/dev/null
    # every rank exits 3 as the program does, unless prterun ended it first
    # on another rank's non-zero status (then no status file).  Rank 0 may
    # be ended so too, after MPI_Finalize's fence: its report was written
    # before that fence, so its stderr then holds the whole "wrote" line.
    wrong=$(cat ranks$np/status.* 2>/dev/null | grep -vx 3 | tr '\n' ' ')
    nstatus=$(ls ranks$np/status.* 2>/dev/null | wc -l)
    if [ -n "$wrong" ] || [ "$nstatus" = 0 ]; then
      fail "np=$np: the ranks' statuses '$(cat ranks$np/status.* 2>/dev/null | tr '\n' ' ')' (each 3 wanted)"
    elif [ ! -f ranks$np/status.0 ] && ! grep -q "^papi-mpit-report: wrote report.html, .* in $PWD/out$np\$" ranks$np/err.0 2>/dev/null; then
      fail "np=$np: rank 0 has no status, and its stderr no whole report line"
    fi
  else
    run -np $np "$wrap" -o out$np -e "$events" ./report_app -m $M -b $B -x 3 >tool.$np.out 2>tool.$np.err
    rc=$?
  fi
  echo "--- np=$np: stderr of the run with the tool"
  cat tool.$np.err
  [ $base_rc -eq 3 ] || fail "np=$np: report_app alone exited $base_rc, expected 3"
  [ $rc -eq $base_rc ] && ok "np=$np: exit status $rc, as without the tool" \
    || fail "np=$np: exit status $rc with the tool, $base_rc without"
  cmp -s base.$np.out tool.$np.out && grep -q "^report_app: $np ranks" tool.$np.out \
    && ok "np=$np: stdout identical to the run without the tool" \
    || { fail "np=$np: stdout differs"; diff base.$np.out tool.$np.out; }
  n=$(grep -c "^papi-mpit-report: $np ranks\? on" tool.$np.err)
  [ "$n" = 1 ] && ok "np=$np: one report" || fail "np=$np: $n report headers on stderr"
  n=$(grep -c "event $MISSING not available: skipped" tool.$np.err)
  [ "$n" = 1 ] && ok "np=$np: missing event reported once" || fail "np=$np: missing event reported $n times"
  grep -q "^perf::TASK-CLOCK  *ns " tool.$np.err || fail "np=$np: no perf::TASK-CLOCK row"
  checks=(--measured perf::TASK-CLOCK --skipped $MISSING)
  [ $spc = 1 ] && checks+=(--equal-sums $SENT $RECV --sum $SENT $((np * (M * B + 4))))
  python3 "$here/report_check.py" out$np $np "${checks[@]}" || fail "np=$np: output files inconsistent"
  python3 -c "import xml.dom.minidom, sys; xml.dom.minidom.parse(sys.argv[1])" out$np/chart.svg \
    && rsvg-convert out$np/chart.svg -o out$np/chart.png && is_png out$np/chart.png \
    && ok "np=$np: chart.svg is XML and renders ($(stat -c %s out$np/chart.png) bytes of PNG)" \
    || fail "np=$np: chart.svg does not render"
done

# ---- MPI_Init_thread
# (the default events: MPI_T is read, and on Open MPI started before MPI_Init;
# the thread level the program gets is the one it gets without the tool)
run -np 2 ./report_app -t >thread.base 2>/dev/null
run -np 2 "$wrap" ./report_app -t >thread.out 2>thread.err
grep -q "^papi-mpit-report: 2 ranks" thread.err && ok "MPI_Init_thread" || { fail "MPI_Init_thread: no report"; cat thread.err; }
grep -q "thread level FUNNELED$" thread.base && cmp -s thread.base thread.out \
  && ok "MPI_Init_thread: the program's thread level (FUNNELED) kept" \
  || fail "MPI_Init_thread: thread level without the tool '$(cat thread.base)', with it '$(cat thread.out)'"

# ---- the interposer by plain LD_PRELOAD, no script
run -np 2 env LD_PRELOAD="$lib" PAPI_MPIT_REPORT_EVENTS=perf::TASK-CLOCK ./report_app >preload.out 2>preload.err
grep -q "^papi-mpit-report: 2 ranks" preload.err && ok "LD_PRELOAD" || { fail "LD_PRELOAD: no report"; cat preload.err; }

# ---- event log mode: on an MPI with MPI_T events, one file per rank whose
# enqueue lines agree with the component's event-derived UNEXPECTED_MSGS
# (the log's watcher and the counters are fed by the same callbacks, through
# two paths: the watcher's element copy and the engine's rule);
# elsewhere one message that there is no log, and a normal report.
run -np 2 "$wrap" --log -o log ./report_app -m 20 -c 3 >log.out 2>log.err
rc=$?
grep -q "^papi-mpit-report: 2 ranks" log.err && [ $rc = 0 ] || { fail "--log: no report (exit $rc)"; cat log.err; }
if grep -q '^# event type [0-9]* unexp_message_enqueued' log/mpit-events.0.log 2>/dev/null; then
  python3 - log <<'PY' && ok "--log: per-rank logs agree with mpit:::UNEXPECTED_MSGS" || fail "--log: logs disagree"
import json, re, sys
d = sys.argv[1]
rep = json.load(open(d + "/report.json"))
ev = {e["name"]: e for e in rep["events"]}
for r in range(2):
    text = open("%s/mpit-events.%d.log" % (d, r)).read()
    n = len(re.findall(r"^\d+ unexp_message_enqueued ", text, re.M))
    q = re.search(r"^# queue unexp_message_enqueued/unexp_message_dequeued: in (\d+), out (\d+)", text, re.M)
    print("rank %d: %d enqueued in the log, queue line %s" % (r, n, q.group(0) if q else None))
    if n < 20 or not q or int(q.group(1)) != n:
        sys.exit(1)
    if "mpit:::UNEXPECTED_MSGS" in ev and ev["mpit:::UNEXPECTED_MSGS"]["values"][r] != n:
        print("UNEXPECTED_MSGS of rank %d is %r" % (r, ev["mpit:::UNEXPECTED_MSGS"]["values"][r]))
        sys.exit(1)
PY
elif grep -q '^# event type [0-9]* ompi.mpi.communicator_created: size handle$' log/mpit-events.0.log 2>/dev/null; then
  # Open MPI 6.0: object events, with the element names; the 3 communicators
  # report_app -c 3 duplicates and frees, on each rank, and none of the tool's
  python3 - log <<'PY' && ok "--log: Open MPI 6.0's object events, with element names: 3 communicators created (size=2) and freed per rank" || fail "--log: object events wrong"
import re, sys
for r in range(2):
    text = open("%s/mpit-events.%d.log" % (sys.argv[1], r)).read()
    made = re.findall(r"^\d+ ompi\.mpi\.communicator_created size=(\d+) handle=(\d+)$", text, re.M)
    freed = re.findall(r"^\d+ ompi\.mpi\.communicator_freed handle=(\d+)$", text, re.M)
    print("rank %d: %d created %s, %d freed" % (r, len(made), [m[0] for m in made], len(freed)))
    if len(made) != 3 or len(freed) != 3 or any(m[0] != "2" for m in made) or sorted(freed) != sorted(m[1] for m in made):
        sys.exit(1)
PY
else
  n=$(grep -c "event log: .*\(no MPI_T events\|no log\)" log.err)
  [ "$n" = 1 ] && ok "--log: this MPI has no events, said once" || { fail "--log: $n messages"; cat log.err; }
fi

# ---- a program that uses PAPI itself (its own mpit event set) keeps working:
# the tool's event sets belong to a thread of its own
if $MPICC -O2 -I"$PAPI_INC" "$here/report_papi_app.c" -L"$PAPI_LIB" -Wl,-rpath,"$PAPI_LIB" -lpapi \
    -o report_papi_app >papi_app.log 2>&1; then
  run -np 2 ./report_papi_app >papi_base.out 2>/dev/null
  run -np 2 "$wrap" ./report_papi_app >papi_app.out 2>papi_app.err
  rc=$?
  cat papi_app.out
  [ $rc = 0 ] && cmp -s papi_base.out papi_app.out && grep -q "^papi-mpit-report: 2 ranks" papi_app.err \
    && ok "a program using PAPI itself: unaffected, and reported" \
    || { fail "a program using PAPI itself: exit $rc"; cat papi_app.err; }
else
  fail "cannot build report_papi_app"; cat papi_app.log
fi

# ---- Fortran: mpif.h MPI_INIT, MPI_INIT_THREAD, and the mpi_f08 module
if mpi_fortran && "$fc" "$here/report_app_f.f90" -o report_app_f >fc.log 2>&1; then
  for variant in "" thread; do
    run -np 2 ./report_app_f $variant >fbase.out 2>/dev/null
    run -np 2 "$wrap" -e perf::TASK-CLOCK ./report_app_f $variant >f.out 2>f.err
    n=$(grep -c "^papi-mpit-report: 2 ranks" f.err)
    [ "$n" = 1 ] && cmp -s fbase.out f.out && ok "Fortran mpif.h ${variant:-MPI_INIT}: one report, same stdout" \
      || { fail "Fortran ${variant:-MPI_INIT}: $n reports"; cat f.err; }
  done
  if "$fc" "$here/report_app_f08.f90" -o report_app_f08 >>fc.log 2>&1; then
    run -np 2 "$wrap" -e perf::TASK-CLOCK ./report_app_f08 >f.out 2>f.err
    n=$(grep -c "^papi-mpit-report: 2 ranks" f.err)
    [ "$n" = 1 ] && ok "Fortran mpi_f08: one report" || { fail "Fortran mpi_f08: $n reports"; cat f.err; }
  else
    echo "note: $fc cannot build an mpi_f08 program: not tested"
  fi
else
  echo "note: Fortran not tested: $fc_why"
fi

[ $fails -eq 0 ] && echo "PASS t_report ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
