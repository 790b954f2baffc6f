#!/usr/bin/env bash
# The call sites as a TAU profile (DIR/tau/profile.RANK.0.0, utils/report/sites/site_tau.c),
# read back as TAU's readers read it (pprof, ParaProf; Hatchet's TAU reader's
# regular expressions for the header, the root and the callpath lines), from
# a real 4-rank run of demo/traffic.c: per rank exactly report.json's
# figures: a timer per call site with its calls and time on that rank
# (integer microseconds), named by the call and its program line, flat and
# under ".TAU application" (whose time is the rank's from MPI_Init to
# MPI_Finalize and whose subroutine calls are the rank's calls); the counts
# on the first line and before the user events are right; the user events
# are the MPI's counters of that rank and its point-to-point totals from the
# program's matrix.  Debian has no TAU, so the reader is this test's, after
# TAU's documented format.  Then PAPI_MPIT_REPORT_TAU=0: no tau/, and the
# console's list of files does not name it.
# scope: family (a rendering of the report, the same on every MPI of a family)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-tau || exit 1
$MPICC -g -O2 "$here/../demo/traffic.c" -o traffic || { echo "FAIL: cannot build demo/traffic.c"; exit 1; }
timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o out ./traffic >run.out 2>run.err
rc=$?
[ $rc = 0 ] || { fail "the tool's run: status $rc"; cat run.err; exit 1; }
python3 - out <<'PY' || fails=$((fails + 1))
import json, re, sys
d = sys.argv[1]
rep = json.load(open(d + "/report.json"))
bad = 0
def fail(m):
    global bad
    bad = 1
    print("FAIL: " + m)
us = lambda ns: (ns + 500) // 1000
cells = rep["program_matrix"]["cells"]
for r in range(rep["ranks"]):
    lines = open("%s/tau/profile.%d.0.0" % (d, r)).read().splitlines()
    m = re.match(r"(\d+) templated_functions_MULTI_TIME$", lines[0])
    if not m: fail("rank %d: first line %r" % (r, lines[0])); continue
    nfun = int(m.group(1))
    head = re.match(r"\#\s(.*)\s\#", lines[1])
    if not head or head.group(1).split(" ")[:6] != "Name Calls Subrs Excl Incl ProfileCalls".split():
        fail("rank %d: header %r" % (r, lines[1]))
    if re.search(r"<value>(.*?)</value>", lines[1]).group(1) != "TIME": fail("rank %d: metric is not TIME" % r)
    funs = lines[2:2 + nfun]
    if lines[2 + nfun] != "0 aggregates": fail("rank %d: %d functions, then %r" % (r, nfun, lines[2 + nfun]))
    got = {}
    for l in funs:
        fm = re.match(r'"(.*)" (\d+) (\d+) (\d+) (\d+) 0 GROUP="(.*)"$', l)
        if not fm: fail("rank %d: function line %r" % (r, l)); continue
        got[fm.group(1)] = tuple(int(fm.group(i)) for i in range(2, 6)) + (fm.group(6),)
    want, calls, mpi = {}, 0, 0
    for s in rep["call_sites"]["sites"]:
        c, t = s["rank_calls"][r], s["rank_time_ns"][r]
        if not c: continue
        where = (s["file"] or s["label"]).replace(" ", "_").replace('"', "'")
        name = "%s() [{%s} {%d,0}]" % (s["call"], where, s["line"] if s["file"] else 0)
        want[name] = (c, 0, us(t), us(t), "MPI")
        want[".TAU application => " + name] = (c, 0, us(t), us(t), "MPI|TAU_CALLPATH")
        calls += c
        mpi += us(t)
    # report.json's seconds have fewer digits than the tool's double: the
    # run's time to the microsecond, one either way
    run = max(int(rep["rank_elapsed_s"][r] * 1e6 + 0.5), mpi)
    root = got.pop(".TAU application", None)
    if not root or root[:2] != (1, calls) or abs(root[3] - run) > 1 or root[2] != root[3] - mpi or root[4] != "TAU_DEFAULT":
        fail("rank %d: .TAU application %s, want 1 call, %d subroutine calls, %d us of which %d in MPI" % (r, root, calls, run, mpi))
    if got != want:
        fail("rank %d: timers differ: %s" % (r, sorted(set(got.items()) ^ set(want.items()))[:4]))
    # the root first, as TAU writes it (Hatchet takes the first line as the root)
    if not funs[0].startswith('".TAU application" '): fail("rank %d: the root is not first" % r)
    um = re.match(r"(\d+) userevents$", lines[3 + nfun])
    if not um or lines[4 + nfun] != "# eventname numevents max min mean sumsqr":
        fail("rank %d: user events header %r" % (r, lines[3 + nfun:5 + nfun])); continue
    ev = {}
    for l in lines[5 + nfun:]:
        em = re.match(r'"(.*)" (\d+) (\S+) (\S+) (\S+) (\S+)$', l)
        if not em: fail("rank %d: user event line %r" % (r, l)); continue
        ev[em.group(1)] = [float(x) for x in em.group(3, 4, 5)]
    if len(ev) != int(um.group(1)): fail("rank %d: %s user events announced, %d there" % (r, um.group(1), len(ev)))
    tot = {"Point-to-point messages sent by the program": sum(c["messages"] for c in cells if c["sender"] == r),
           "Point-to-point bytes sent by the program": sum(c["bytes"] for c in cells if c["sender"] == r),
           "Point-to-point messages received by the program": sum(c["messages"] for c in cells if c["receiver"] == r),
           "Point-to-point bytes received by the program": sum(c["bytes"] for c in cells if c["receiver"] == r)}
    for e in rep["events"]:
        if e["values"][r] is not None:
            tot["%s (%s)" % (e["name"], e["units"] or "count")] = e["values"][r]
    for k, v in tot.items():
        if ev.get(k) != [float(v)] * 3: fail("rank %d: user event %s: %s, want %s" % (r, k, ev.get(k), v))
    if set(ev) != set(tot): fail("rank %d: user events %s, want %s" % (r, sorted(ev), sorted(tot)))
print("ok: %d ranks' TAU profiles equal report.json" % rep["ranks"])
sys.exit(bad)
PY
# PAPI_MPIT_REPORT_TAU=0: the other files, no tau/, and the console's list
# of files without it (above 1024 ranks the default is this, with a line
# saying how to ask: site_tau.c, sites_tau_wanted)
PAPI_MPIT_REPORT_TAU=0 timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -o off ./traffic >off.out 2>off.err \
  || { fail "the run with PAPI_MPIT_REPORT_TAU=0"; cat off.err; }
[ -s off/sites.csv ] || fail "PAPI_MPIT_REPORT_TAU=0: no sites.csv"
[ ! -e off/tau ] || fail "PAPI_MPIT_REPORT_TAU=0 wrote tau/"
grep -q "wrote report.html.*collectives.csv in " off.err || fail "PAPI_MPIT_REPORT_TAU=0: the files' line: $(grep wrote off.err)"
! grep -q "tau/ (" off.err || fail "PAPI_MPIT_REPORT_TAU=0: the console names tau/: $(grep "tau/ (" off.err)"
[ $fails -eq 0 ] && ok "the TAU profile" || exit 1
exit 0
