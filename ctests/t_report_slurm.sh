#!/usr/bin/env bash
# papi-mpit-report where most users run it: under Slurm.  The test starts
# its own Slurm from Debian's slurm-wlm on this host (munged, slurmctld,
# slurmd: a private configuration, key, sockets, state and logs under the
# work directory, 127.0.0.1 only, ports that were free) and stops it at the
# end, whatever happened (trap).  Then, on known traffic (report_app: a ring
# of -m messages of -b bytes):
# - srun --mpi=pmix -n 4 papi-mpit-report gives the same report as mpirun
#   -np 4: report.json's events and values per rank, the metrics not
#   provided with their reasons, the skipped events, the communication
#   matrix (asked for with --matrix) and the command, and ranks.csv's columns, all but the timings
#   (TASK-CLOCK, cycles, elapsed and tool times) and the sampled queue maxima
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
report_tool || exit 1
test_workdir report_slurm || exit 1
lib=$PAPI_MPIT_REPORT_LIBDIR/libpapi-mpit-report-$FAMILY.so
[ -f "$lib" ] || { echo "SKIP no $FAMILY interposer in this build ($lib)"; exit 77; }

skip() { echo "SKIP $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start tasks (SlurmdUser=root); this test is not root"
for b in munged munge slurmctld slurmd srun sinfo scontrol; do
  command -v $b >/dev/null || skip "$b is not installed (scripts/deps.sh installs munge, slurmctld, slurmd, slurm-client)"
done
[ -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmix.so ] || [ -n "$(find /usr/lib -name mpi_pmix.so -path '*slurm*' 2>/dev/null | head -1)" ] \
  || skip "Slurm's PMIx plugin (mpi_pmix.so) is not installed"

S=$PWD/slurm
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" && chmod 700 "$S/munge"

# ---- stop what was started, on every way out
stop_all() {
  local f pid
  for f in "$S/slurmd.pid" "$S/slurmctld.pid" "$S/munge/pid"; do
    [ -s "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
}
trap stop_all EXIT
show_logs() { for f in "$S"/log/*.log "$S/munge/log"; do [ -f "$f" ] && { echo "--- $f"; tail -15 "$f"; }; done; }

# ---- munge: its own key and socket
head -c 1024 /dev/urandom >"$S/munge/key" && chmod 400 "$S/munge/key"
munged -f --socket="$S/munge/sock" --key-file="$S/munge/key" --pid-file="$S/munge/pid" \
  --log-file="$S/munge/log" --seed-file="$S/munge/seed" \
  || { show_logs; skip "munged does not start (log above)"; }
munge -S "$S/munge/sock" -n </dev/null | unmunge -S "$S/munge/sock" >/dev/null \
  || { show_logs; skip "munge does not answer on its socket"; }

# ---- two ports free now on 127.0.0.1
read -r pc pd < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
node=$(hostname -s)
cpus=$(nproc)
export SLURM_CONF=$S/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=papimpit
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$pc
SlurmdPort=$pd
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MailProg=/bin/true
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=10 State=UP OverSubscribe=FORCE:4
EOF
slurmctld -i -f "$SLURM_CONF" || { show_logs; skip "slurmctld does not start (log above)"; }
slurmd -f "$SLURM_CONF" || { show_logs; skip "slurmd does not start (log above)"; }
# the node idle: polled, at most 60 s
state=
for _ in $(seq 300); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || { show_logs; skip "the Slurm node is '$state', not idle, after 60 s (logs above)"; }
ok "Slurm 22.05 up: munged, slurmctld (port $pc), slurmd (port $pd) on 127.0.0.1, $cpus CPUs"

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
        if col == "elapsed_s" or (col in ea and timing(ea[col])):
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
