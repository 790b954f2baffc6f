#!/usr/bin/env bash
# flavors: openmpi
# Real Fortran codes from Debian, built for its Open MPI: CP2K (cp2k.popt,
# an MD step of one water molecule, the package's H2O.inp) and Quantum
# ESPRESSO (pw.x, an SCF of bulk silicon with the package's Si.pz-vbc.UPF),
# at 3 ranks.  Each runs twice: without the tool under Open MPI's
# monitoring (pml_monitoring_enable=2, whose "E" lines at MPI_Finalize are
# the program's own point-to-point messages and bytes per pair, one file
# per rank), then under
# papi-mpit-report.  The report's program matrix must equal the E lines
# pair by pair (messages and bytes), the sites' sent bytes must add up to
# the matrix and equal the bytes their receives got, and sites must be in
# the program's own module (the Fortran calls seen, not only ScaLAPACK's).
# scope: family (Debian 12's CP2K and Quantum ESPRESSO are built for its Open MPI)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
# Debian 12's cp2k and quantum-espresso are built for its own Open MPI
[ "$FLAVOR" = openmpi ] || { echo "SKIP $FLAVOR: Debian 12's CP2K and Quantum ESPRESSO run on Debian 12's Open MPI (flavor openmpi)"; exit 77; }
test_workdir report-apps || exit 1
export OMP_NUM_THREADS=1
np=3

# app NAME PROGRAM ARGS...: the two runs and the comparison
app() {
  local name=$1; shift
  # the flavor's "--mca pml ob1" would keep the monitoring PML out
  # each rank writes its E lines to its own file ($name.mon.RANK.prof:
  # any output value but 1 and 2, with a file name): on stdout they pass
  # through the launcher's forwarding, where one rank's line was once cut
  # by another's and a pair went missing
  rm -f $name.mon.*.prof
  timeout 300 $MPIRUN ${MPIRUN_OPTS/--mca pml ob1/--mca pml ob1,monitoring} -np $np --mca pml_monitoring_enable 2 \
    --mca pml_monitoring_enable_output 3 --mca pml_monitoring_filename "$PWD/$name.mon" \
    --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_alltoall_algorithm 2 \
    "$@" >$name.mon.out 2>$name.mon.err || { fail "$name with the monitoring: exit $?"; tail $name.mon.err; return; }
  timeout 300 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o $name.out "$@" >$name.tool.out 2>$name.tool.err \
    || { fail "$name under the tool: exit $?"; tail $name.tool.err; return; }
  python3 - $name $np $name.out/report.json "$(basename "$(readlink -f "$(command -v "$1")")")" <<'PY' || fails=$((fails + 1))
import json, os, re, sys
name, np, rep, prog = sys.argv[1:]
e = {}
missing = []
for rank in range(int(np)):
    mon = f"{name}.mon.{rank}.prof"
    if not os.path.exists(mon):
        missing.append(mon)
        continue
    for line in open(mon):
        m = re.match(r"E\t(\d+)\t(\d+)\t(\d+) bytes\t(\d+) msgs sent", line)
        if m:
            s, r, b, n = map(int, m.groups())
            e[(s, r)] = (n, b)
d = json.load(open(rep))
mat = {(c["sender"], c["receiver"]): (c["messages"], c["bytes"]) for c in d["program_matrix"]["cells"]}
sites = d["call_sites"]["sites"]
sends = {"MPI_Send", "MPI_Isend", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend",
         "MPI_Send_init", "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init", "MPI_Sendrecv", "MPI_Sendrecv_replace"}
recvs = {"MPI_Recv", "MPI_Irecv", "MPI_Recv_init", "MPI_Mrecv", "MPI_Imrecv", "MPI_Sendrecv", "MPI_Sendrecv_replace"}
sent = sum(x["bytes_sent"] for x in sites if x["call"] in sends)
got = sum(x["bytes_received"] for x in sites if x["call"] in recvs)
own = sum(1 for x in sites if x["module"].endswith("/" + prog) or x["module"] == prog)
fails = 0
def check(c, what):
    global fails
    print(("ok: " if c else "FAIL: ") + f"{name}: {what}")
    fails += not c
check(not missing, f"each rank's monitoring file is there" if not missing else f"monitoring files missing: {missing}")
check(len(e) > 0, f"Open MPI's monitoring wrote {len(e)} E lines")
diff = {p: (e.get(p), mat.get(p)) for p in set(e) | set(mat) if e.get(p) != mat.get(p)}
check(not diff, f"the program matrix equals the E lines on all {len(e)} pairs" if not diff
      else f"pairs (E line, matrix) that differ: {sorted(diff.items())[:6]}")
total = sum(b for _, b in mat.values())
check(sent == total == got, f"sites' sent bytes {sent} = the matrix {total} = the sites' received bytes {got}")
check(own > 0, f"{own} of {len(sites)} sites in {prog} itself")
sys.exit(1 if fails else 0)
PY
}

if command -v cp2k.popt >/dev/null && [ -f /usr/share/doc/cp2k/examples/H2O.inp ]; then
  sed 's/STEPS 5/STEPS 1/' /usr/share/doc/cp2k/examples/H2O.inp >H2O.inp
  app cp2k cp2k.popt -i H2O.inp
else
  echo "note: CP2K is not installed (scripts/deps.sh installs cp2k): not tested"
fi

upf=/usr/share/doc/quantum-espresso/examples/atomic/pseudo-LDA-0.5/Si.pz-vbc.UPF.gz
if command -v pw.x >/dev/null && [ -f $upf ]; then
  zcat $upf >Si.pz-vbc.UPF
  cat >si.in <<'EOF'
&control
  calculation = 'scf', prefix = 'si', pseudo_dir = './', outdir = './qe-tmp'
/
&system
  ibrav = 2, celldm(1) = 10.2, nat = 2, ntyp = 1, ecutwfc = 18.0
/
&electrons
  conv_thr = 1.0d-8
/
ATOMIC_SPECIES
 Si 28.086 Si.pz-vbc.UPF
ATOMIC_POSITIONS alat
 Si 0.00 0.00 0.00
 Si 0.25 0.25 0.25
K_POINTS automatic
 4 4 4 1 1 1
EOF
  app qe pw.x -i si.in
else
  echo "note: Quantum ESPRESSO is not installed (scripts/deps.sh installs quantum-espresso): not tested"
fi
command -v cp2k.popt >/dev/null || command -v pw.x >/dev/null || { echo "SKIP neither CP2K nor Quantum ESPRESSO is installed"; exit 77; }
[ $fails = 0 ]
