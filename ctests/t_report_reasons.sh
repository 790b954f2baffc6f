#!/usr/bin/env bash
# Reasons are whole wherever papi-mpit-report shows them: the reason the
# mpit component gives for mpit:::BYTES_SENT on Debian's Open MPI 4.1.4
# (about 500 characters; what explains 4.1, open-mpi/ompi#9260, comes after
# character 255, where the tool used to cut it) is, exactly, the component's
# own words as a PAPI program gets them (report_why.c, papi_mpit_why) and the
# tool's sentence about the monitoring it leaves off, on stderr, in
# report.txt, report.json and report.html (unescaped).
# flavors: openmpi
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-reasons || exit 1
$MPICC -Wall -Wextra -Werror -I"$PAPI_INC" -I"$here/../components/mpit" "$here/report_why.c" -L"$PAPI_LIB" -lpapi \
  -Wl,-rpath,"$PAPI_LIB" -o report_why && $MPICC -O2 "$here/report_app.c" -o report_app \
  || { echo "FAIL: cannot build the test programs"; exit 1; }
run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }
ev=mpit:::BYTES_SENT

PAPI_MPIT_QUIET=1 run -np 2 ./report_why $ev >why.out 2>why.err
own=$(sed -n "s/^$ev: //p" why.out)
[ ${#own} -gt 255 ] && case $own in *open-mpi/ompi#9260*) true ;; *) false ;; esac \
  || { echo "FAIL: the component's reason for $ev is not the long one this test needs: '$own'"; cat why.err; exit 1; }
want="$own; papi-mpit-report leaves the monitoring off unless --matrix is given"

if launcher_is_prrte; then
  # each rank's own stderr and status (common/per_rank.sh): PRRTE now and
  # then forwards none of rank 0's line of MPI_Init (launcher_is_prrte)
  run -np 2 bash "$here/common/per_rank.sh" "$PWD/ranks" "$wrap" -o out -e $ev,perf::TASK-CLOCK ./report_app >app.out 2>app.fwd
  rc=$?
  cat ranks/err.* >app.err 2>/dev/null
  [ "$(cat ranks/status.* 2>/dev/null | tr '\n' ' ')" = "0 0 " ] || fail "the ranks' statuses: $(cat ranks/status.* 2>/dev/null | tr '\n' ' ')"
else
  run -np 2 "$wrap" -o out -e $ev,perf::TASK-CLOCK ./report_app >app.out 2>app.err
  rc=$?
fi
[ $rc = 0 ] || { fail "the tool's run: status $rc"; cat app.err; }
python3 - "$ev" "$want" app.err out <<'PY' && ok "$ev's reason (${#want} characters) whole on stderr, in report.txt, report.json and report.html" || fail "$ev's reason cut somewhere"
import html, json, sys
ev, want, err, d = sys.argv[1:]
bad = 0
def check(where, text):
    global bad
    if want not in text:
        bad = 1
        i = text.find(ev)
        print("FAIL: %s: the whole reason is not there; around the name: %r" % (where, text[i:i + 600]))
    else:
        print("ok: %s" % where)
check("stderr", open(err).read())
check("report.txt", open(d + "/report.txt").read())
r = json.load(open(d + "/report.json"))
check("report.json", json.dumps([s.get("reason", "") for s in r.get("skipped", []) + r.get("not_provided", [])]
                                 , ensure_ascii=False).replace('\\"', '"'))
check("report.html", html.unescape(open(d + "/report.html").read()))
sys.exit(bad)
PY
[ $fails = 0 ] || { echo "--- stderr of the tool's run"; sed 's/^/    /' app.err; }

[ $fails -eq 0 ] && echo "PASS t_report_reasons ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
