#!/usr/bin/env bash
# papi-mpit-report on a Fortran run that never reaches MPI_Finalize:
# report_hang_f.f90 (use mpi) and report_hang_f08.f90 (use mpi_f08), at 3
# ranks: ranks 0 and 1 wait in an MPI_Allreduce on a duplicate of
# MPI_COMM_WORLD made in Fortran, rank 2 waits for a message from rank 0.
# Under `timeout -s TERM`, sent once every rank's watchdog state is there:
# each rank's call in progress is the program's (MPI_Allreduce on the
# duplicate, known by its members: the communicator constructors have
# Fortran entry points too, as Open MPI's Fortran layer and MPICH's mpi_f08
# call PMPI_; MPI_Recv from rank 0, tag 5, on MPI_COMM_WORLD), and --merge
# says that rank 2 never entered the allreduce, at the .f90 lines.
# scope: release (each release's Fortran bindings, and its launcher's SIGTERM)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/hang.sh"
report_tool || exit 1
test_workdir report-hang-fortran || exit 1
mpi_fortran || { echo "SKIP $FLAVOR: $fc_why"; exit 77; }
np=3
for p in report_hang_f report_hang_f08; do
  "$fc" -g -O0 "$here/$p.f90" -o $p 2>>build.err || { fail "$fc cannot build $p.f90"; cat build.err; continue; }
  at() { echo "$p.f90:$(grep -n "site:$1\$" "$here/$p.f90" | cut -d: -f1)"; }
  d=$PWD/$p.term
  mkdir -p "$d"
  timeout -s TERM 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$d" --watchdog 300 ./$p </dev/null >"$d.out" 2>"$d.err" &
  tpid=$!
  if ! await "$d" $np watchdog; then
    kill -TERM $tpid; wait $tpid
    fail "$p: the watchdog wrote $(nsnap "$d" watchdog) of $np states"; cat "$d.err"; continue
  fi
  kill -TERM $tpid
  wait $tpid
  for r in $(seq 0 $((np - 1))); do
    f=$d/snapshot.$r.txt
    [ $r = $((np - 1)) ] && want="MPI_Recv 0 5 world" || want="MPI_Allreduce -1 - dup"
    got="$(field "$f" A 3) $(field "$f" A 8) $(field "$f" A 9)"
    case $(field "$f" A 12) in world) got="$got world" ;; ?*.[0-9]*) got="$got dup" ;; *) got="$got $(field "$f" A 12)" ;; esac
    [ "$got" = "$want" ] && ok "$p rank $r: in $want" || fail "$p rank $r: call in progress '$got', the program's is '$want'"
  done
  "$wrap" --merge "$d" >"$d.merge.out" 2>"$d.merge.err" || { fail "$p: --merge failed"; cat "$d.merge.err"; continue; }
  says="MPI_Allreduce on a communicator of ranks 0-2 (at $(at allreduce)): entered by ranks 0-1, not by rank 2, which waits in MPI_Recv from rank 0, tag 5, at $(at recv5)"
  grep -qF "$says" "$d/report.txt" && ok "$p: --merge: $says" || { fail "$p: report.txt does not say: $says"; sed -n 1,6p "$d/report.txt"; }
done
[ $fails = 0 ]
