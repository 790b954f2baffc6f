#!/usr/bin/env bash
# papi-mpit-merge's cycles of waits, without MPI (run by ctests/run.sh as
# unit/report-cycle): a cycle is a deadlock only once every wait in it has
# lasted 0.5 s (hang/hang_cycles.c).  The states are written here as a
# rank's snapshot text (R, I, H, A and B lines, report_hang.h): ranks in a
# ring of MPI_Sendrecv, each receiving from its left neighbour, its tag
# one above the neighbour's (the neighbour is ahead: it already sent what
# the rank waits for), as a job killed in the middle of the exchange, or
# merged while it runs, leaves them.  Asserted exactly, report.txt's line 2
# and report.json's first finding:
# - 4 ranks, every wait 0.001 s old: the cycle of waits, not a deadlock;
# - one of them (rank 2, not the first named) 0.001 s, the others 2 s: the
#   same, its age the youngest's;
# - all 0.5 s (the threshold) and all 2 s: "Deadlock: ...";
# - 12 ranks (said by its length and its ends), 0.001 s and 2 s: the same.
#   report_cycle_settled.sh BUILDDIR WORKDIR
set -u
build=$1 work=$2
wrap=$build/utils/papi-mpit-report
[ -x "$wrap" ] || { echo "FAIL: $wrap not built"; exit 1; }
for v in $(compgen -e); do
  case $v in PAPI_MPIT_REPORT_*) unset "$v" ;; esac
done
export PAPI_MPIT_REPORT_LIBDIR=$build/.libs
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# states DIR N AGES...: rank r's state in DIR, waiting AGES[r] seconds (the
# last age for the ranks after) in MPI_Sendrecv from rank r-1, tag 530+r
states() {
  local d=$1 n=$2 r age
  shift 2
  mkdir -p "$d"
  for r in $(seq 0 $((n - 1))); do
    [ $# -gt 1 ] && { age=$1; shift; } || age=$1
    printf 'R\t%d\t%d\tmapped\t0\t1795893335.000000000\t4\t3.000000\t%d\n' $r $n $((4000 + r)) >"$d/snapshot.$r.txt"
    printf 'I\t2026-11-28T19:15:34+0000\tsynthetic\t./ring\n' >>"$d/snapshot.$r.txt"
    printf 'H\tnode0\t3.000000\n' >>"$d/snapshot.$r.txt"
    printf 'A\t%d\tMPI_Sendrecv\tsendrecv\t/nonexistent/ring\t1332\t%s\t%d\t%d\t0\t0\tworld\t0-%d\n' \
      $((4000 + r)) "$age" $(((r + n - 1) % n)) $((530 + r)) $((n - 1)) >>"$d/snapshot.$r.txt"
    printf 'B\tworld\t%d\t0-%d\n' $n $((n - 1)) >>"$d/snapshot.$r.txt"
  done
}

# listed N: the cycle of N (up to 8) ranks as it is said, from rank 0 along its waits
listed() {
  local n=$1 k s
  s="rank 0 waits in MPI_Sendrecv from rank $((n - 1)), tag 530, at ring+0x1332"
  for k in $(seq $((n - 1)) -1 1); do
    s="$s; rank $k waits in MPI_Sendrecv from rank $((k - 1)), tag $((530 + k)), at ring+0x1332"
  done
  echo "$s: a cycle of $n ranks"
}
waits="which may still have been exchanging messages (a deadlock is said once every wait in the cycle is 0.5 s old)"
big() { # the cycle of 12 ranks by its length and its ends, then its states
  echo "a cycle of 12 ranks, $1: rank 0 waits for rank 11, rank 11 for rank 10, and so on through 8 more ranks to rank 1, which waits for rank 0. Rank 0 waits in MPI_Sendrecv from rank 11, tag 530, at ring+0x1332; rank 1 waits in MPI_Sendrecv from rank 0, tag 531, at ring+0x1332; rank 2 waits in MPI_Sendrecv from rank 1, tag 532, at ring+0x1332; rank 3 waits in MPI_Sendrecv from rank 2, tag 533, at ring+0x1332; rank 4 waits in MPI_Sendrecv from rank 3, tag 534, at ring+0x1332; rank 5 waits in MPI_Sendrecv from rank 4, tag 535, at ring+0x1332; and 6 more ranks in 6 other states."
}

# check NAME N WANT AGES...: --merge of those states says WANT first
check() {
  local name=$1 n=$2 want=$3 d got
  shift 3
  d=$PWD/$name
  states "$d" "$n" "$@"
  "$wrap" --merge "$d" >"$d.out" 2>"$d.err" || { fail "$name: --merge failed: $(cat "$d.err")"; return; }
  got=$(sed -n 2p "$d/report.txt")
  [ "$got" = "  $want" ] || { fail "$name: report.txt's line 2: '$got', expected '  $want'"; return; }
  python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["hang"]; assert h["findings"][0] == sys.argv[2], h["findings"]' \
    "$d/report.json" "$want" || { fail "$name: report.json's first finding is not report.txt's"; return; }
  echo "ok $name: $want"
}

check moment 4 "Waits in a cycle, the shortest 0.001 s old when the states were taken: $(listed 4), $waits." 0.001
check one-young 4 "Waits in a cycle, the shortest 0.001 s old when the states were taken: $(listed 4), $waits." 2 2 0.001 2
check threshold 4 "Deadlock: $(listed 4), none of which can go on." 0.5
check settled 4 "Deadlock: $(listed 4), none of which can go on." 2
check big-moment 12 "Waits in a cycle, the shortest 0.001 s old when the states were taken: $(big "$waits")" 0.001
check big-settled 12 "Deadlock: $(big "none of which can go on")" 2
grep -l "Deadlock" moment/report.* one-young/report.* big-moment/report.* && fail "a cycle of moments called a deadlock in the files above"
[ $fails = 0 ]
