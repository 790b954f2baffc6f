#!/usr/bin/env bash
# papi-mpit-report where most users run it: under Slurm.  The test starts
# its own Slurm from Debian's slurm-wlm on this host (munged, slurmctld,
# slurmd: a private configuration, key, sockets, state and logs under the
# work directory, 127.0.0.1 only, ports that were free) and stops it at the
# end, whatever happened (trap).  Then, on known traffic (report_app: a ring
# of -m messages of -b bytes; the Slurm start and stop: common/slurm.sh):
# - srun --mpi=pmix -n 4 papi-mpit-report gives the same report as mpirun
#   -np 4: report.json's events and values per rank, the metrics not
#   provided with their reasons, the skipped events, the communication
#   matrix (asked for with --matrix) and the command, and ranks.csv's columns, all but the timings
#   (TASK-CLOCK, cycles, elapsed, time in MPI and tool times) and the sampled queue maxima
#   (what a read at some moment saw); the table is printed once.
# - The launcher's rank detection before MPI_Init under srun (PMIX_RANK: no
#   OMPI_COMM_WORLD_RANK there): a mistake on the command line is said in
#   one line, not one per task, and srun exits 2.
# When Slurm cannot start here (not root, slurm-wlm or munge not installed,
# a daemon that does not come up) the test skips and says why.
# flavors: openmpi
# timeout: 400
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/slurm.sh"
report_tool || exit 1
test_workdir report_slurm || exit 1
lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$FAMILY.so
[ -f "$lib" ] || { echo "SKIP no $FAMILY interposer in this build ($lib)"; exit 77; }

slurm_start

$MPICC -O2 -Wall "$here/report_app.c" -o report_app || { echo "FAIL: cannot build report_app"; exit 1; }
srun_() { timeout 120 srun -n 4 -O --mpi=pmix "$@"; }

# ---- the same program under mpirun and under srun
M=20 B=1000
timeout 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" --matrix -o viampirun ./report_app -m $M -b $B >mpirun.out 2>mpirun.err
rc_m=$?
srun_ "$wrap" --matrix -o viasrun ./report_app -m $M -b $B >srun.out 2>srun.err
rc_s=$?
echo "--- srun's stderr"; cat srun.err
if [ $rc_m = 0 ] && [ $rc_s = 0 ] && [ "$(grep -c '^papi-mpit-report: 4 ranks on 1 host' srun.err)" = 1 ]; then
  ok "srun --mpi=pmix -n 4: exit 0, the table printed once"
else
  fail "exit $rc_m under mpirun, $rc_s under srun, or the table not printed once"
  cat mpirun.err
fi
python3 - viampirun viasrun <<'PY' && ok "report.json and ranks.csv under srun equal those under mpirun (all but timings and sampled maxima)" || fail "srun's report differs from mpirun's"
import csv, json, sys
a, b = (json.load(open(d + "/report.json")) for d in sys.argv[1:3])
def timing(e):  # what a clock or a moment decides
    return e["units"] in ("ns", "us", "s", "cycles") or "TOT_CYC" in e["name"] or "TASK-CLOCK" in e["name"] or e.get("sampled")
bad = []
for key in ("ranks", "command", "mpi_library", "not_provided", "skipped", "matrix", "senders"):
    if a.get(key) != b.get(key):
        bad.append("%s: mpirun %r, srun %r" % (key, a.get(key), b.get(key)))
ea, eb = {e["name"]: e for e in a["events"]}, {e["name"]: e for e in b["events"]}
if list(ea) != list(eb):
    bad.append("events: mpirun %s, srun %s" % (list(ea), list(eb)))
exact = [n for n, e in ea.items() if not timing(e)]
for n in exact:
    x, y = ea[n], eb.get(n, {})
    for k in ("units", "type", "measured_ranks", "values", "min", "max", "sum"):
        if x.get(k) != y.get(k):
            bad.append("%s %s: mpirun %r, srun %r" % (n, k, x.get(k), y.get(k)))
assert exact, "no exact event to compare"
# known traffic: report_app's one MPI_Reduce of a long to rank 0 is 3
# logical messages of 8 bytes between rank 0 and the others (whichever way
# the matrix files them); the ring's point-to-point Open MPI 4.1 hides
for name, r in (("mpirun", a), ("srun", b)):
    coll = ((r.get("matrix") or {}).get("entries") or {}).get("coll")
    if coll is None or sum(c[2] for c in coll) != 3 or sum(c[3] for c in coll) != 24 \
            or any(0 not in c[:2] for c in coll):
        bad.append("%s: collective matrix %r, not report_app's reduce (3 messages of 8 bytes with rank 0)" % (name, coll))
ra, rb = (list(csv.DictReader(open(d + "/ranks.csv"))) for d in sys.argv[1:3])
for r, (x, y) in enumerate(zip(ra, rb)):
    for col in x:
        if col in ("elapsed_s", "mpi_s", "mpi_share") or (col in ea and timing(ea[col])):
            continue
        if x[col] != y.get(col):
            bad.append("ranks.csv rank %d %s: mpirun %r, srun %r" % (r, col, x[col], y.get(col)))
if len(ra) != 4 or len(rb) != 4:
    bad.append("ranks.csv rows: %d and %d" % (len(ra), len(rb)))
for m in bad:
    print("differs:", m)
print("compared exactly:", ", ".join(exact), "+ not_provided, skipped, matrix (the reduce's 3 x 8 bytes), command")
sys.exit(1 if bad else 0)
PY

# ---- rank detection before MPI_Init under srun (PMIX_RANK): one line, exit 2
echo 'int x;' >comp.c && chmod 644 comp.c
srun_ sh -c 'echo "$PMIX_RANK ${OMPI_COMM_WORLD_RANK:-unset}"' >ranks.out 2>&1
srun_ "$wrap" ./comp.c >bad.out 2>bad.err
rc=$?
n=$(grep -c '^papi-mpit-report:' bad.err)
if [ $rc = 2 ] && [ "$n" = 1 ] && grep -q '^papi-mpit-report: ./comp.c is not executable' bad.err \
  && [ "$(sort ranks.out | tr '\n' ' ')" = "0 unset 1 unset 2 unset 3 unset " ]; then
  ok "srun: a program that is not executable said once (PMIX_RANK 0 only; no OMPI_COMM_WORLD_RANK before MPI_Init), srun exit 2"
else
  fail "srun with a bad program: exit $rc, $n lines of ours; ranks seen: $(tr '\n' ' ' <ranks.out)"
  cat bad.err
fi

[ $fails -eq 0 ]
