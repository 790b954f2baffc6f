#!/usr/bin/env bash
# papi-mpit-report's call sites of Fortran programs, in the three Fortran
# interfaces: report_sites_f.f90 (use mpi), report_app_f.f90 (mpif.h) and
# report_app_f08.f90 (use mpi_f08) make the same calls (report_sites_f.f90
# says which), each at a line marked site:NAME.  The tool's Fortran entry
# points (made from mpi-calls.tsv with the C wrappers) charge each call to
# the Fortran line that made it, on Open MPI (whose Fortran layer calls
# PMPI_ directly) and on MPICH (whose Fortran layer calls the C MPI_ names,
# and whose mpi_f08 calls PMPI_ for the calls without a buffer), once.
# At 2 ranks, for each program:
# - the report's sites are exactly these, summed over the ranks, as
#   (calls, bytes sent, bytes received): send (3, 48, 0), recv (3, 0, 48),
#   irecv (2, 0, 80: charged at completion by an MPI_Waitall with
#   MPI_STATUSES_IGNORE), waitall (1, 0, 0), isend (2, 80, 0), wait (2, 0,
#   0), sendrecv (2, 16, 16), allreduce (2, 40, 0), gather_root (1, 0, 0:
#   MPI_IN_PLACE), gather (1, 12, 0), barrier (2, 0, 0), and in the two
#   report_app programs the communicator and datatype calls
#   (MPI_Comm_split, MPI_Comm_dup, MPI_Type_contiguous, MPI_Type_commit,
#   MPI_Type_free, and MPI_Comm_free at two lines: 2, 0, 0 each) and reduce
#   (2, 8, 0); no other site.  (Not in report_sites_f.f90: with Open MPI's
#   "use mpi", gfortran 12 writes no line-table row for most of those
#   statements, so the calls, counted right, are named by "end program".) (a call charged twice,
#   by the C layer too, would be one);
# - the program matrix is exactly 0->1: 4 messages, 56 bytes; 1->0: 3
#   messages, 88 bytes;
# - neither the console nor report.json says that calls went unseen
#   ("call sites: ...", call_sites.unseen).
# report_kinds_f.f90 (use mpi) has the other kinds (persistent requests,
# MPI_Waitany, MPI_Waitsome, matched probes, rooted, v and w collectives,
# a nonblocking barrier): its sites and matrix exactly as its header says.
# Flavors without a Fortran compiler (the source builds, configured without
# Fortran; the distribution chroots; the standard ABI) skip, saying so.
# scope: library (the wrappers of each release and ABI: a rebuild with SPCs or MPI_T events changes no call)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-sites-fortran || exit 1
mpi_fortran || { echo "SKIP $FLAVOR: $fc_why"; exit 77; }
for p in report_sites_f report_app_f report_app_f08 report_kinds_f; do
  "$fc" -g -O0 "$here/$p.f90" -o $p 2>>build.err || { echo "SKIP $fc cannot build $p.f90"; cat build.err; exit 77; }
done
for p in report_sites_f report_app_f report_app_f08 report_kinds_f; do
  # (not -q: the console's first screen is judged too)
  timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$wrap" -o out-$p ./$p >$p.out 2>$p.err
  rc=$?
  [ $rc = 0 ] && ok "$p: exit 0" || { fail "$p: exit $rc"; cat $p.err; continue; }
  grep -q "^papi-mpit-report: 2 ranks" $p.err || fail "$p: no table on the console"
  # the tool's line when calls went unseen or none were recorded
  # (site_report.c, sites_unseen_line: "call sites: none recorded ...",
  # "call sites: the sites saw N of the M ..."), on the console and atop
  # report.txt
  for f in $p.err out-$p/report.txt; do
    if grep -q "^call sites: \(none recorded\|the sites saw \)" $f; then fail "$p: $f says calls went unseen: $(grep "^call sites:" $f)"; fi
  done
  python3 - "$here/$p.f90" out-$p/report.json "$(objdump --dwarf=decodedline $p | awk -v f=$p.f90 '$1 == f && $4 == "x" { print $2 }' | sort -un | tr '\n' ' ')" <<'PY' || fails=$((fails + 1))
import json, os, re, sys
src, name = sys.argv[1], os.path.basename(sys.argv[1])
lines = {}
for n, t in enumerate(open(src), 1):
    m = re.search(r"site:(\w+)", t)
    if m:
        lines[m.group(1)] = n
if name == "report_kinds_f.f90":  # its header says what these are
    by_marker = {"psend": ("MPI_Send_init", 1, 64, 0), "pstart": ("MPI_Start", 2, 0, 0),
                 "pwait": ("MPI_Wait", 2, 0, 0), "pfree": ("MPI_Request_free", 1, 0, 0),
                 "precv": ("MPI_Recv_init", 1, 0, 64), "rstart": ("MPI_Start", 2, 0, 0),
                 "rwait": ("MPI_Wait", 2, 0, 0), "rfree": ("MPI_Request_free", 1, 0, 0),
                 "isend": ("MPI_Isend", 4, 48, 0), "waitall": ("MPI_Waitall", 1, 0, 0),
                 "irecv_any": ("MPI_Irecv", 2, 0, 24), "waitany": ("MPI_Waitany", 2, 0, 0),
                 "irecv_some": ("MPI_Irecv", 2, 0, 24), "waitsome": ("MPI_Waitsome", None, 0, 0),
                 "send_m": ("MPI_Send", 1, 20, 0), "mprobe": ("MPI_Mprobe", 1, 0, 0),
                 "mrecv": ("MPI_Mrecv", 1, 0, 20), "bcast": ("MPI_Bcast", 2, 24, 0),
                 "scatterv": ("MPI_Scatterv", 2, 12, 0), "alltoallw": ("MPI_Alltoallw", 2, 32, 0),
                 "ibarrier": ("MPI_Ibarrier", 2, 0, 0), "ibwait": ("MPI_Wait", 2, 0, 0)}
    mwant = {(0, 1): (7, 132)}
else:  # report_sites_f.f90's header says what these are
    by_marker = {"send": ("MPI_Send", 3, 48, 0), "recv": ("MPI_Recv", 3, 0, 48),
                 "irecv": ("MPI_Irecv", 2, 0, 80), "waitall": ("MPI_Waitall", 1, 0, 0),
                 "isend": ("MPI_Isend", 2, 80, 0), "wait": ("MPI_Wait", 2, 0, 0),
                 "sendrecv": ("MPI_Sendrecv", 2, 16, 16), "allreduce": ("MPI_Allreduce", 2, 40, 0),
                 "gather_root": ("MPI_Gather", 1, 0, 0), "gather": ("MPI_Gather", 1, 12, 0),
                 "barrier": ("MPI_Barrier", 2, 0, 0), "reduce": ("MPI_Reduce", 2, 8, 0),
                 "csplit": ("MPI_Comm_split", 2, 0, 0), "cdup": ("MPI_Comm_dup", 2, 0, 0),
                 "tcontig": ("MPI_Type_contiguous", 2, 0, 0), "tcommit": ("MPI_Type_commit", 2, 0, 0),
                 "tfree": ("MPI_Type_free", 2, 0, 0), "cfree": ("MPI_Comm_free", 2, 0, 0),
                 "cfree2": ("MPI_Comm_free", 2, 0, 0)}
    mwant = {(0, 1): (4, 56), (1, 0): (3, 88)}
# the lines the compiler's line table has a statement row for: a call on a
# line without one (gfortran 14 with Open MPI 5's `use mpi` writes none for
# calls inside a loop or an if) can only be named by a neighbouring row, so
# those are checked by call, their counts summed
rows = {int(x) for x in sys.argv[3].split()}
want = {(c, name, lines[k]): tuple(v) for k, (c, *v) in by_marker.items() if k in lines and lines[k] in rows}
unplaced = [(c, v) for k, (c, *v) in by_marker.items() if k in lines and lines[k] not in rows]
r = json.load(open(sys.argv[2]))
if r["call_sites"].get("unseen"):
    print(f"FAIL: {name}: report.json says calls went unseen: {r['call_sites']['unseen']}")
    sys.exit(1)
got = {(s["call"], os.path.basename(s["file"] or ""), s["line"]): (s["calls"], s["bytes_sent"], s["bytes_received"])
       for s in r["call_sites"]["sites"]}
own = {(s["call"], os.path.basename(s["file"]), s["line"]) for s in r["call_sites"]["sites"]
       if s["file"] and os.path.realpath(s["file"]) == os.path.realpath(src)}
def same(g, w):  # calls None: any number (MPI_Waitsome returns what is done)
    return g is not None and w is not None and (w[0] is None and g[0] > 0 or g[0] == w[0]) and g[1:] == w[1:]
bad = {k: (got.get(k), want.get(k)) for k in set(got) | set(want) if not same(got.get(k), want.get(k))}
def by_call(items):
    t = {}
    for c, v in items:
        a = t.setdefault(c, [0, 0, 0])
        for i in range(3):
            a[i] += v[i] or 0
    return t
if unplaced:
    # only sites at other lines of the program's own file, by its whole
    # path: a site in the MPI's Fortran layer (libmpi_mpifh) or anywhere
    # else is never forgiven
    pool = [(k[0], g) for k, (g, w) in bad.items() if w is None and k in own]
    if by_call(pool) == by_call(unplaced):
        bad = {k: gw for k, gw in bad.items() if gw[1] is not None}
        print(f"note: {name}: {len(unplaced)} calls on lines without a row in the line table, counts exact by call: {sorted(by_call(unplaced))}")
print(f"ok: {name}: {len(want)} sites at their lines" if not bad else f"FAIL: {name}: sites (got, want): {bad}")
cells = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in r["program_matrix"]["cells"]}
mbad = cells != mwant
print(f"ok: {name}: program matrix {cells}" if not mbad else f"FAIL: {name}: program matrix {cells}, want {mwant}")
sys.exit(1 if bad or mbad else 0)
PY
done
[ $fails = 0 ]
