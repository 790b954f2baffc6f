#!/usr/bin/env bash
# The call-site wrappers allocate nothing after a first use (site_table.h):
# report_alloc_app.c under MPI_THREAD_MULTIPLE, 2 ranks of 2 threads, 200
# communicators, Waitalls of 128 requests, under the tool with
# report_alloc_count.c preloaded (it counts the malloc, calloc and realloc
# calls made directly from the tool's interposer).  After the first round
# (each communicator's translation to world ranks, each thread's arrays for
# large Waitalls), five more rounds by the same threads: exactly 0
# allocations on each rank.  A first version of the program made new
# threads each round and counted 30 a rank (3 arrays a new thread): the
# counter sees the tool's allocations.
# Not on sid's Open MPI 6.0.0~rc2 (flavors.sh, FLAVOR_SKIPS): there the
# program hangs without the tool and without the counter, both threads of
# each rank in MPI_Waitall (ompi_sync_wait_mt) for good.  Its rounds alone
# (no counter, no tool, 6 to 12 of them) hang so on sid-openmpi and
# sid-abi-openmpi over the sm BTL, after 20,000 to 80,000 messages; they
# end with 1 thread a rank, or over the tcp BTL, or on Open MPI 5.0.7
# (Debian 13), 4.1.4 or MPICH 5.0.2 (sid): Open MPI 6.0.0~rc2's sm BTL
# under MPI_THREAD_MULTIPLE, not the program or the tool: this test, with
# MPIRUN_OPTS' "--mca btl self,tcp" there, passes (0 allocations a rank).
# scope: family (the tool's own allocations)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-alloc || exit 1
cc -O2 -Wall -Wextra -Werror -shared -fPIC "$here/report_alloc_count.c" -o libcount.so || { echo "FAIL: cannot build the counter"; exit 1; }
# -Wno-stringop-overflow: GCC 12 takes MPICH's MPI_STATUSES_IGNORE for an array of size 0
$MPICC -O2 -Wall -Wextra -Werror -Wno-stringop-overflow "$here/report_alloc_app.c" -o report_alloc_app -lpthread -ldl || { echo "FAIL: cannot build report_alloc_app"; exit 1; }
# the counter in the ranks only (env after the launcher): the launcher's
# allocations are none of the tool's
timeout 180 $MPIRUN $MPIRUN_OPTS -np 2 env LD_PRELOAD="$PWD/libcount.so" "$wrap" -q ./report_alloc_app >run.out 2>run.err
rc=$?
[ $rc = 0 ] || { fail "the run: status $rc"; cat run.err; exit 1; }
if grep -q '^SKIP' run.out; then grep '^SKIP' run.out | head -1; exit 77; fi
for r in 0 1; do
  grep -qx "rank $r: allocations 0" run.out || fail "rank $r: $(grep "^rank $r:" run.out), want 0 allocations after the first round"
done
[ $fails -eq 0 ] && ok "no allocation by the wrappers after the first round (200 communicators, MPI_THREAD_MULTIPLE)" || { cat run.out; exit 1; }
exit 0
