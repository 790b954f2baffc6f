#!/usr/bin/env bash
# flavors: openmpi openmpi-spc
# papi-mpit-report's call sites on a real application: Debian's HPC
# Challenge (hpcc, built for the distribution's Open MPI), 4 ranks, N=500.
# Its site table must add up: the bytes its sites sent equal the program's
# point-to-point matrix and the bytes its sites received (every message sent
# is received); each rank's time in MPI calls, summed over its sites, is at
# most its time from MPI_Init to MPI_Finalize; nothing overflowed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
command -v hpcc >/dev/null || { echo "SKIP hpcc is not installed (scripts/deps.sh installs it)"; exit 77; }
test_workdir report-sites-hpcc || exit 1
inf=/usr/share/doc/hpcc/examples/_hpccinf.txt
[ -f "$inf" ] || { echo "SKIP $inf is not there"; exit 77; }
sed '6s/^1000 /500  /' "$inf" >hpccinf.txt
timeout 600 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o out hpcc >run.out 2>run.err
rc=$?
[ $rc = 0 ] && ok "hpcc under the tool: exit 0" || { fail "hpcc: exit $rc"; tail run.err; exit 1; }
python3 - out/report.json <<'PY' || fails=$((fails + 1))
import json, sys
d = json.load(open(sys.argv[1]))
s = d["call_sites"]["sites"]
sends = {"MPI_Send", "MPI_Isend", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend",
         "MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init", "MPI_Sendrecv", "MPI_Sendrecv_replace"}
recvs = {"MPI_Recv", "MPI_Irecv", "MPI_Recv_init", "MPI_Mrecv", "MPI_Imrecv", "MPI_Sendrecv", "MPI_Sendrecv_replace"}
sent = sum(x["bytes_sent"] for x in s if x["call"] in sends)
matrix = sum(c["bytes"] for c in d["program_matrix"]["cells"])
received = sum(x["bytes_received"] for x in s if x["call"] in recvs)
n = d["ranks"]
in_mpi = [sum(x["rank_time_ns"][r] for x in s) / 1e9 for r in range(n)]
fails = 0
def check(c, what):
    global fails
    print(("ok: " if c else "FAIL: ") + what)
    fails += not c
check(len(s) >= 50, f"{len(s)} sites")
check(sent > 0 and sent == matrix == received, f"bytes sent at the sites {sent} = the matrix {matrix} = received {received}")
check(all(0 < t <= d["elapsed_s"] for t in in_mpi), f"time in MPI per rank {in_mpi} <= elapsed {d['elapsed_s']}")
check(d["call_sites"]["not_recorded"] == {"calls": 0, "collectives": 0, "requests": 0}, "nothing overflowed")
sys.exit(1 if fails else 0)
PY
[ $fails = 0 ]
