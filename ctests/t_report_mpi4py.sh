#!/usr/bin/env bash
# papi-mpit-report measures a program that loads MPI later: Python with
# Debian's python3-mpi4py (built against Debian's Open MPI 4.1.4,
# libmpi.so.40), which loads libmpi with dlopen, privately (RTLD_LOCAL).
# The interposer links no libmpi; it once referred to Open MPI's handles at
# load time, and the program died at start ("undefined symbol:
# ompi_mpi_comm_world"), or the component, finding no MPI, refused every
# event.  report_mpi4py.py, 4 ranks (known traffic: all pairs, a 400-byte
# broadcast from 0, an 800-byte gather to root 2):
# - default events: status 0 and rank 0's line, as without the tool, and
#   the report has every rank's perf::TASK-CLOCK;
# - SPC flavors (OMPI_MCA_mpi_spc_attach=all, SPC dump at MPI_Finalize):
#   BYTES_SENT, BYTES_RECEIVED and UNEXPECTED_MSGS of every rank equal Open
#   MPI's own dump (report_spc_compare.py);
# - --matrix: coll exact, as Open MPI files it: 0 -> r 400 bytes (the
#   broadcast), 2 -> r 800 bytes (the gather, filed at its root, whichever
#   way the data went), one message each, and report.json's "axes" says so;
#   p2p where the MPI gives it (5.0): 5 messages, 76100 bytes each ordered
#   pair; on 4.1 absent with its reason (open-mpi/ompi#9260).
# - call sites (report_mpi4py.py sites, 2 ranks): each comm.send and
#   comm.recv at its Python line (the interpreter's frame, read without the
#   GIL), exact: two MPI_Send sites at the two send lines with 3 and 1
#   calls, messages and the pickled bytes; the receives' messages and bytes
#   at their two lines (mpi4py receives with MPI_Mprobe + MPI_Mrecv); every
#   site a Python line, with mpi4py's frame as its detail.
#   The line is the interpreter's, read per version: Debian 12's 3.11 here
#   (site_python.c's table), and on the distribution flavors their suite's
#   own python3-mpi4py (scripts/chroot.sh installs it) on their Open MPI:
#   Debian 13's 3.13 and sid's 3.14, read from the interpreter's
#   _Py_DebugOffsets.  The run says which Python it measured.
# - the same call sites from the mapped state files alone (report_mpi4py.py
#   sites hang: both ranks then wait for each other, and the job is
#   SIGKILLed whole): every site at its Python line, exact, after --merge.
# Skips only when python3-mpi4py is not installed (scripts/deps.sh installs
# it, scripts/chroot.sh in the chroots), or on an Open MPI whose library is
# not libmpi.so.40 (this machine's mpi4py is linked against Debian 12's).
# flavors: openmpi openmpi-spc
# timeout: 600
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
# Debian's python3, the one python3-mpi4py is for (PATH may name another),
# where the flavor's programs run (a distribution flavor: its chroot's)
py=/usr/bin/python3
pyver=$($FLAVOR_EXEC "$py" -c 'import sys, mpi4py; print("%d.%d.%d" % sys.version_info[:3], mpi4py.__version__)' 2>/dev/null) \
  || { echo "SKIP python3-mpi4py is not installed for $py (scripts/deps.sh installs it; scripts/chroot.sh in a chroot)"; exit 77; }
echo "Python and mpi4py: $pyver"
# a distribution flavor's mpi4py is its suite's, built for its Open MPI
[ -n "$FLAVOR_EXEC" ] || libmpi40_fits \
  || { echo "SKIP $FLAVOR's Open MPI has no libmpi.so.40, which Debian's mpi4py is linked against"; exit 77; }
test_workdir report-mpi4py || exit 1
cp "$here/report_mpi4py.py" . || exit 1
# the flavor's libmpi.so.40 before Debian's, for mpi4py's module
pass=()
case $MPICC in
  */*) [ -n "$FLAVOR_EXEC" ] || {
         lib=$(cd "$(dirname "$MPICC")/../lib" && pwd)
         pass=(-x LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"); } ;;
esac
run() { timeout 180 $MPIRUN $MPIRUN_OPTS "${pass[@]}" "$@"; }
np=4

# ---- without the tool: the program's own status and line
run -np $np "$py" report_mpi4py.py >base.out 2>base.err
base=$?
[ $base = 0 ] && grep -qx "report_mpi4py: $np ranks" base.out \
  || { echo "FAIL: report_mpi4py.py without the tool: status $base"; cat base.out base.err; exit 1; }

# ---- the default events
run -np $np "$wrap" -q -o plain "$py" report_mpi4py.py >plain.out 2>plain.err
rc=$?
if [ $rc = 0 ] && cmp -s plain.out base.out && python3 - plain/report.json $np <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in r["events"]}
n = int(sys.argv[2])
assert r["ranks"] == n, r["ranks"]
t = ev["perf::TASK-CLOCK"]["values"]
assert len(t) == n and all(v > 0 for v in t), t
PY
then
  ok "default events: status 0 and the program's line as without the tool, perf::TASK-CLOCK on all $np ranks"
else
  fail "default events: status $rc (without the tool $base)"; tail -20 plain.err
fi

# ---- against Open MPI's own SPC dump
if [ "$KIND" = openmpi-spc ]; then
  misfiled=""; case $FLAVOR in openmpi-[56]*) misfiled=--misfiled-ok ;; esac
  for i in 1 2; do
    OMPI_MCA_mpi_spc_attach=all PAPI_MPIT_REPORT_SELFCHECK=1 run --mca mpi_spc_dump_enabled true -x OMPI_MCA_mpi_spc_attach \
      -np $np "$wrap" -q -o spc$i -e mpit:::BYTES_SENT,mpit:::BYTES_RECEIVED,mpit:::UNEXPECTED_MSGS \
      "$py" report_mpi4py.py >spc$i.out 2>spc$i.err
    rc=$?
    if [ $rc = 0 ] && python3 "$here/report_spc_compare.py" spc$i/report.json spc$i.err $np $misfiled >spc$i.check; then
      ok "SPC run $i: report = Open MPI's SPC dump on every rank ($(grep -c '^rank' spc$i.check) ranks)"
    else
      fail "SPC run $i (exit $rc): $(grep FAIL spc$i.check)"; grep -v OMPI_SPC spc$i.err | tail -20
    fi
  done
fi

# ---- the communication matrix (not on sid's Open MPI 6.0.0~rc2, whose
# monitoring segfaults in MPI_Init: the tool refuses it there, which
# t_never_kill checks; flavors.sh's FLAVOR_SKIPS says so for t_report_matrix)
case $FLAVOR in
  sid-*) echo "(--matrix not checked on $FLAVOR: its Open MPI's monitoring is refused, t_never_kill)" ;;
  *)
run -np $np "$wrap" -q --matrix -o matrix "$py" report_mpi4py.py >matrix.out 2>matrix.err
rc=$?
p2p=no; case $FLAVOR in openmpi-[56]* | debian13-openmpi) p2p=yes ;; esac
if [ $rc = 0 ] && cmp -s matrix.out base.out && python3 - matrix/report.json $np $p2p <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n, p2p = int(sys.argv[2]), sys.argv[3] == "yes"
m = r["matrix"]
coll = sorted(tuple(c) for c in m["entries"]["coll"])
want = sorted([(0, q, 1, 400) for q in range(n) if q != 0] + [(2, q, 1, 800) for q in range(n) if q != 2])
assert coll == want, "coll %s, want %s" % (coll, want)
assert m["axes"]["coll"].startswith("row: the calling rank, a rooted collective's root"), m["axes"]
if p2p:
    got = sorted(tuple(c) for c in m["entries"]["p2p"])
    assert got == sorted((a, b, 5, 76100) for a in range(n) for b in range(n) if a != b), got
else:
    assert "open-mpi/ompi#9260" in m["absent"]["p2p"], m["absent"]
print("coll", coll)
PY
then
  ok "--matrix: coll exact (broadcast 0 -> r, gather filed 2 -> r), labelled so; p2p $([ $p2p = yes ] && echo exact || echo 'absent with its reason')"
else
  fail "--matrix: status $rc"; tail -20 matrix.err
fi
  ;;
esac

# ---- call sites at the script's lines
run -np 2 "$wrap" -q -o sites "$py" report_mpi4py.py sites >sites.out 2>sites.err
rc=$?
bytes=$(sed -n 's/^report_mpi4py: sites, \([0-9]*\)-byte messages$/\1/p' sites.out)
# sid's mpi4py (4.1) sends and receives with the large-count MPI_Send_c and
# MPI_Mrecv_c where the MPI has them: the same sites, named by those calls
# sites_check REPORT.JSON BYTES: the sites at the script's lines, exact
# (site:hang's call, where a killed job was, never ended: no site)
sites_check() {
  python3 - "$1" report_mpi4py.py "$2" <<'PY'
import json, os, re, sys
doc, src, size = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
lines = {}
for n, t in enumerate(open(src), 1):
    m = re.search(r"# site:(\w+)$", t.rstrip())
    if m:
        lines[m.group(1)] = n
sites = doc["call_sites"]["sites"]
assert doc["call_sites"]["program_lines_off"] is None, doc["call_sites"]["program_lines_off"]
for s in sites:
    assert os.path.basename(s["file"]) == src and s["program_line"] == "python", (s["label"], s["program_line"])
    assert s["via"] and "mpi4py" in s["via"]["module"], s["via"]
at = lambda name: [s for s in sites if s["line"] == lines[name]]
for name, n in (("send_loop", 3), ("send_once", 1)):
    got = [(s["call"], s["calls"], s["messages_sent"], s["bytes_sent"], s["messages_received"]) for s in at(name)]
    assert got in ([("MPI_Send", n, n, n * size, 0)], [("MPI_Send_c", n, n, n * size, 0)]), (name, got)
for name, n in (("recv_loop", 3), ("recv_once", 1)):
    got = at(name)
    assert got and sum(s["messages_received"] for s in got) == n and sum(s["bytes_received"] for s in got) == n * size \
        and sum(s["messages_sent"] for s in got) == 0, (name, [(s["call"], s["calls"], s["messages_received"]) for s in got])
used = {lines[k] for k in lines if k != "hang"}
assert {s["line"] for s in sites} == used, sorted({s["line"] for s in sites})
print(len(sites), "sites at", sorted(used))
PY
}
if [ $rc = 0 ] && [ -n "$bytes" ] && sites_check sites/report.json "$bytes" >sites.check
then
  cat sites.check
  ok "call sites: comm.send at its two lines (3 and 1 calls, $bytes bytes each), the receives at theirs, exact; all Python lines"
else
  cat sites.check; fail "call sites: status $rc"; tail -20 sites.err; python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["call_sites"]["sites"]: print(s["label"], s["call"], s["calls"], s["program_line"])' sites/report.json
fi

# ---- the same sites from the mapped state files of a job SIGKILLed whole
# while both ranks wait at site:hang (polled with --merge until both are in
# a call; no snapshot is asked for): the Python lines from the files alone
d=$PWD/killed
mkdir -p "$d"
set -m # the job in a process group of its own
run -np 2 "$wrap" -q -o "$d" --snapshot-period 0 "$py" report_mpi4py.py sites hang </dev/null >killed.out 2>killed.err &
pgid=$!
set +m
both_waiting() {
  "$wrap" --merge "$d" >/dev/null 2>&1 && python3 -c 'import json, sys
c = json.load(open(sys.argv[1])).get("hang", {}).get("calls", {})
sys.exit(0 if {0, 1} <= set(c.get("rank", [])) else 1)' "$d/report.json" 2>/dev/null
}
seen=
end=$((SECONDS + 60))
while [ $SECONDS -lt $end ]; do both_waiting && { seen=1; break; }; sleep 0.2; done
procs() { local c; for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do echo "$c"; procs "$c"; done; }
kill -KILL -- -$pgid $(procs $pgid) 2>/dev/null
{ wait $pgid; } 2>/dev/null
bytes=$(sed -n 's/^report_mpi4py: sites, \([0-9]*\)-byte messages$/\1/p' killed.out)
if [ -z "$seen" ]; then
  fail "killed: --merge never saw both ranks in a call in 60 s"; tail -20 killed.err
elif [ "$(ls "$d"/snapshot.*.txt 2>/dev/null | wc -l)" != 0 ]; then
  fail "killed: snapshot files (none was asked for): the check would not be the mapped files'"
elif rm -f "$d"/report.* && "$wrap" --merge "$d" >killed.merge 2>&1 && [ -n "$bytes" ] \
  && grep -q "from the mapped state file" "$d/report.txt" && sites_check "$d/report.json" "$bytes" >killed.check; then
  cat killed.check
  ok "killed job: the same sites at their Python lines, exact, from the $(ls "$d"/state.*.map | wc -l) mapped state files"
else
  cat killed.check killed.merge 2>/dev/null; fail "killed job: the sites from the mapped state files"
  python3 -c 'import json,sys
for s in json.load(open(sys.argv[1]))["call_sites"]["sites"]: print(s["label"], s["call"], s["calls"], s["program_line"])' "$d/report.json"
fi

[ $fails -eq 0 ] && echo "PASS t_report_mpi4py ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
