#!/usr/bin/env bash
# papi-mpit-report's call sites of a Fortran program (use mpi): on MPICH,
# whose Fortran layer calls the C MPI_ functions, each call is charged to
# the Fortran line that made it (the first frame outside libmpifort), with
# its exact calls and bytes.  Open MPI's Fortran layer calls the C PMPI_
# functions directly, so its Fortran calls are not seen (the test skips,
# saying so; README and the man page say it too).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
case $FAMILY in
  mpich) ;;
  *) echo "SKIP $FLAVOR: Open MPI's Fortran bindings call PMPI_ directly, past the tool's wrappers"; exit 77 ;;
esac
test_workdir report-sites-fortran || exit 1
# the Fortran compiler of the flavor, as t_report.sh finds it
case $MPICC in
  *_abi | */distro/*-mpicc) fc=none ;;
  mpicc.*) fc=mpifort.${MPICC#mpicc.} ;;
  */mpicc) fc=${MPICC%/mpicc}/mpifort ;;
  *) fc=mpifort ;;
esac
command -v "$fc" >/dev/null 2>&1 && "$fc" -g -O0 "$here/report_sites_f.f90" -o report_sites_f 2>build.err \
  || { echo "SKIP no working Fortran compiler for $FLAVOR ($fc)"; exit 77; }
timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 "$wrap" -q -o out ./report_sites_f >out.txt 2>err.txt
rc=$?
[ $rc = 0 ] && ok "exit 0" || { fail "exit $rc"; cat err.txt; exit 1; }
python3 - "$here/report_sites_f.f90" out/report.json <<'PY' || fails=$((fails + 1))
import json, os, re, sys
lines = {}
for n, t in enumerate(open(sys.argv[1]), 1):
    m = re.search(r"site:(\w+)", t)
    if m:
        lines[m.group(1)] = n
sites = json.load(open(sys.argv[2]))["call_sites"]["sites"]
got = {(s["call"], os.path.basename(s["file"]), s["line"]): (s["calls"], s["bytes_sent"], s["bytes_received"]) for s in sites}
want = {("MPI_Send", "report_sites_f.f90", lines["send_f"]): (3, 48, 0),
        ("MPI_Recv", "report_sites_f.f90", lines["recv_f"]): (3, 0, 48),
        ("MPI_Barrier", "report_sites_f.f90", lines["barrier_f"]): (2, 0, 0)}
bad = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
print("ok: Fortran sites " + str(want) if not bad else "FAIL: Fortran sites (got, want): " + str(bad) + "; all: " + str(got))
sys.exit(1 if bad else 0)
PY
[ $fails = 0 ]
