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
# TAU's documented format, and shares no code with the tool; what it reads
# must also be what demo/traffic.c does, counted by hand from its source
# (each site's calls on each rank, 2080 calls, 1040 messages and 1314800 B
# each way), not only what report.json says.  Where the site names a TAU
# installation (PAPI_MPIT_TAU), its pprof reads rank 0's calls by site too;
# elsewhere that part is skipped, saying so.  Then PAPI_MPIT_REPORT_TAU=0:
# no tau/, and the console's list of files does not name it.
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
python3 - out "$here/../demo/traffic.c" <<'PY' || fails=$((fails + 1))
import json, re, sys
d, src = sys.argv[1:3]
rep = json.load(open(d + "/report.json"))
bad = 0
def fail(m):
    global bad
    bad = 1
    print("FAIL: " + m)
us = lambda ns: (ns + 500) // 1000
# demo/traffic.c's call lines, found by their text
marks = {"burst_send": "i < BURST; i++) MPI_Send(", "token0_send": "MPI_Send(&token", "token0_recv": "MPI_Recv(&token",
         "token_recv": "MPI_Recv(&token", "token_send": "MPI_Send(&token", "burst_recv": "MPI_Recv(&v",
         "sendrecv": "MPI_Sendrecv(", "allreduce": "MPI_Allreduce("}
text, traffic, used = open(src).read().splitlines(), {}, set()
for k, m in marks.items():  # rank 0's token pair comes first in the file
    n = next(i for i, t in enumerate(text, 1) if m in t and i not in used)
    used.add(n)
    traffic[k] = (re.search(r"(MPI_\w+)\(", m).group(1), n)
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
    # and what demo/traffic.c makes, counted by hand from its source (20
    # rounds): per rank 50 x 20 MPI_Send of the burst and as many MPI_Recv;
    # the token's MPI_Send and MPI_Recv 20 times each (rank 0's pair at its
    # own lines); 20 MPI_Sendrecv and 20 MPI_Allreduce: 2080 calls at 6
    # sites.  Sent and received each: 1000 + 20 messages of 4 B and 20 of
    # 65536 B, 1040 messages, 1314800 B
    hand = {"burst_send": 1000, "burst_recv": 1000, "sendrecv": 20, "allreduce": 20,
            "token0_send" if r == 0 else "token_send": 20, "token0_recv" if r == 0 else "token_recv": 20}
    hand = {"%s() [{%s} {%d,0}]" % (traffic[k][0], src, traffic[k][1]): c for k, c in hand.items()}
    flat = {n: v[0] for n, v in got.items() if " => " not in n}
    if flat != hand or not root or root[:2] != (1, 2080):
        fail("rank %d: by hand from traffic.c: %s and 1 call, 2080 subroutine calls; the profile: %s, %s" % (r, hand, flat, root))
    if r == 0:
        with open("sites.want", "w") as f:
            f.writelines("0\t%d\t%s\n" % (c, n) for n, c in hand.items())
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
    for what, v in (("messages", 1040), ("bytes", 1314800)):
        for way in ("sent", "received"):
            k = "Point-to-point %s %s by the program" % (what, way)
            if ev.get(k) != [float(v)] * 3: fail("rank %d: %s: %s, by hand %d" % (r, k, ev.get(k), v))
    if set(ev) != set(tot): fail("rank %d: user events %s, want %s" % (r, sorted(ev), sorted(tot)))
print("ok: %d ranks' TAU profiles equal report.json" % rep["ranks"])
sys.exit(bad)
PY
# the same profiles as TAU's own pprof reads them, where the site names a
# TAU installation (PAPI_MPIT_TAU, or PAPI_MPIT_TAU_OPENMPI/_MPICH: its
# x86_64/bin/pprof; doc/testing.md, "Testing with your own tools"): rank
# 0's calls by site (pprof -a keeps each site apart), exactly the program's
tau_fam=$(case $FAMILY in openmpi) echo OPENMPI ;; *) echo MPICH ;; esac)
tau_prefix=$(eval "echo \${PAPI_MPIT_TAU_$tau_fam:-\${PAPI_MPIT_TAU:-}}")
if [ -z "$tau_prefix" ]; then
  echo "note: pprof part skipped: no TAU installation named (PAPI_MPIT_TAU; Debian has no TAU)"
elif [ ! -x "$tau_prefix/x86_64/bin/pprof" ]; then
  fail "PAPI_MPIT_TAU=$tau_prefix has no x86_64/bin/pprof"
else
  (cd out/tau && "$tau_prefix/x86_64/bin/pprof" -a -p) >pprof.txt 2>pprof.err || fail "pprof -a -p in out/tau: status $?"
  python3 - pprof.txt sites.want <<'PY' && ok "pprof: rank 0's calls by site as the program makes them" || fail "pprof disagrees"
import re, sys
text, want = open(sys.argv[1]).read(), {}
for l in open(sys.argv[2]):
    r, c, n = l.rstrip("\n").split("\t")
    if r == "0": want[n] = int(c)
# rank 0's section: NODE 0;CONTEXT 0;THREAD 0: up to the next section;
# its rows: %Time, exclusive and inclusive msec, #Call, #Subrs, usec/call, name
sec = re.search(r"^NODE 0;CONTEXT 0;THREAD 0:\n(.*?)(?=^NODE |^FUNCTION SUMMARY|\Z)", text, re.S | re.M)
got = {}
for l in (sec.group(1) if sec else "").splitlines():
    m = re.match(r"\s*[\d.]+\s+[\d,.:]+\s+[\d,.:]+\s+([\d,]+)\s+([\d,]+)\s+[\d,.]+\s+(\S.*?)\s*$", l)
    if m and " => " not in m.group(3): got[m.group(3)] = int(m.group(1).replace(",", ""))
bad = {n: (got.get(n), c) for n, c in want.items() if got.get(n) != c}
print("pprof, rank 0: %d sites, (pprof, want) differing: %s" % (len(want), bad))
sys.exit(1 if bad or not want else 0)
PY
fi

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
