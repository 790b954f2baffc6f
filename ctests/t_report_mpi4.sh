#!/usr/bin/env bash
# papi-mpit-report's call sites of the calls report_sites_app.c does not
# make, exact (report_mpi4_app.c says what the program does,
# report_mpi4_check.py what the report must say): MPI_Ialltoallw,
# MPI_Ireduce_scatter, the MPI_Ineighbor_* calls, MPI 4.0's persistent
# collectives, MPI_Isendrecv, MPI_Isendrecv_replace and MPI_Comm_disconnect;
# and MPI 4.0's large-count calls (MPI_Send_c ...: mpi-calls.tsv's @c rows)
# where mpi.h declares them (MPICH 4, Open MPI 6; not Open MPI 5.0, whose
# header is MPI 3.1's).  Skipped where the MPI lacks MPI 4.0's calls (Open
# MPI 4.1).
# At 3 and 4 ranks (4 alone on a kind's other flavors: common/test_lib.sh,
# counts).
# scope: library (the wrappers of each release and ABI: a rebuild with SPCs or MPI_T events changes no call)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-mpi4 || exit 1
printf '#include <mpi.h>\nint probe(MPI_Request *r) { return MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, r); }\n' >probe.c
if ! $MPICC -c -Werror=implicit-function-declaration probe.c -o probe.o >probe.log 2>&1; then
  echo "SKIP the MPI has no MPI 4.0 calls ($MPICC: no MPI_Barrier_init)"
  exit 77
fi
# the large-count calls: where the header declares them and the library has them
printf '#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Count n = 0; char b = 0;\n  int rc = MPI_Allreduce_c(MPI_IN_PLACE, &b, n, MPI_CHAR, MPI_SUM, MPI_COMM_WORLD); MPI_Finalize(); return rc; }\n' >probe_c.c
large=yes large_def=-DHAVE_LARGE_COUNT
if ! $MPICC -Werror=implicit-function-declaration probe_c.c -o probe_c >probe_c.log 2>&1; then
  printf '#include <mpi.h>\nMPI_VERSION.MPI_SUBVERSION\n' >version.c
  large="$MPICC's mpi.h declares no MPI_Allreduce_c (MPI $($MPICC -E -P version.c 2>/dev/null | tail -1 | tr -d " "))" large_def=
elif ! timeout 60 $MPIRUN $MPIRUN_OPTS -np 1 ./probe_c >probe_c.out 2>&1; then
  large="the library cannot run MPI_Allreduce_c" large_def=
fi
[ "$large" = yes ] && ok "the large-count calls checked (mpi.h declares them, the library runs them)" || echo "note: the large-count calls not checked: $large"
# -O0: each marked line keeps its own call
$MPICC -g -O0 -Wall -Wextra $large_def "$here/report_mpi4_app.c" -o report_mpi4_app || { echo "FAIL: cannot build report_mpi4_app"; exit 1; }
for np in $(counts 3 4); do
  timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o out$np ./report_mpi4_app >out$np.txt 2>err$np.txt
  rc=$?
  [ $rc = 0 ] && ok "np=$np: exit 0" || { fail "np=$np: exit $rc"; cat err$np.txt; continue; }
  python3 "$here/report_mpi4_check.py" "$here/report_mpi4_app.c" out$np $np "$FAMILY" "$large" || fails=$((fails + 1))
done
[ $fails = 0 ]
