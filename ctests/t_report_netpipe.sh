#!/usr/bin/env bash
# papi-mpit-report on a real MPI program nobody here wrote: NetPIPE's NPmpi
# from the distribution package netpipe-openmpi (built against the
# distribution's Open MPI), a short run (3 repetitions, sizes up to 1 KiB,
# no perturbations) on 2 ranks.  The report appears with both ranks, NPmpi
# exits 0 and writes its own output file.  On the SPC flavor the program runs
# on the SPC build's libmpi.so.40 (same ABI) with every SPC attached, and the
# user bytes sent summed over ranks equal the bytes received.
# Open MPI flavors only (NPmpi is an Open MPI program).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1

[ "$FAMILY" = openmpi ] || { echo "SKIP NPmpi (netpipe-openmpi) is an Open MPI program"; exit 77; }
np_bin=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
[ -n "$np_bin" ] && [ -x "$np_bin" ] || { echo "SKIP netpipe-openmpi is not installed"; exit 77; }
libmpi40_fits || { echo "SKIP NPmpi is linked against libmpi.so.40, which $FLAVOR's Open MPI does not have"; exit 77; }

test_workdir report-netpipe || exit 1
checks=(--measured perf::TASK-CLOCK)
events=default
extra=()
if [ "$KIND" = openmpi-spc ]; then
  # run the distribution's binary on the SPC build's library
  spc_lib=$(cd "$(dirname "$MPICC")/../lib" && pwd)
  extra=(-x LD_LIBRARY_PATH="$spc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
  export OMPI_MCA_mpi_spc_attach=all
  sent=mpit:::runtime_spc_OMPI_SPC_BYTES_SENT_USER recv=mpit:::runtime_spc_OMPI_SPC_BYTES_RECEIVED_USER
  events=default,$sent,$recv
  checks+=(--measured $sent --measured $recv --equal-sums $sent $recv)
fi

echo "NPmpi: $np_bin"
timeout 180 $MPIRUN $MPIRUN_OPTS "${extra[@]}" -np 2 "$wrap" -o out -e "$events" \
  "$np_bin" -n 3 -u 1024 -p 0 -o np.out >np.stdout 2>np.stderr
rc=$?
cat np.stdout np.stderr
fails=0
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; fails=$((fails + 1)); }
[ -s np.out ] || { echo "FAIL: NPmpi wrote no np.out"; fails=$((fails + 1)); }
n=$(grep -c '^papi-mpit-report: 2 ranks on' np.stderr)
[ "$n" = 1 ] || { echo "FAIL: $n report headers"; fails=$((fails + 1)); }
python3 "$here/report_check.py" out 2 "${checks[@]}" || fails=$((fails + 1))
rsvg-convert out/chart.svg -o out/chart.png && [ -s out/chart.png ] || { echo "FAIL: chart"; fails=$((fails + 1)); }
[ $fails -eq 0 ] && echo "PASS t_report_netpipe ($FLAVOR)"
[ $fails -eq 0 ]
