#!/usr/bin/env bash
# papi-mpit-report --merge at 4096 ranks (issue 41 items 2, 3, 5), from a
# real run's snapshots: ctests/hang_ring.c at 4 ranks (5 messages of 8 B to
# the right neighbour, then every rank receives from its left one first: a
# cycle of all ranks; rank 0 at a site and tag of its own) under -o and
# --watchdog, ended once every rank wrote its state; then
# common/synth_snapshots.py makes 4096 ranks of it (64 a host, a ring
# still) and --merge reads them.  Asserted exactly:
# - report.txt opens with one deadlock sentence: a cycle of 4096 ranks named
#   by its first members and its last, and its ranks grouped by state
#   (4095 ranks at site:ring waiting for their left neighbour, rank 0 at
#   site:ring0); then exactly two lines of where each rank was (the same
#   two groups, with when and why the states were taken), nothing else;
# - report.json keeps every rank: the hang member's states and calls as
#   columns of 4096 entries (rank r waits for r-1, tag 3; rank 0 for 4095,
#   tag 4), no rank missing, the same sentences as report.txt;
# - the totals: 20480 calls at each of the three sites of the first round
#   (5 per rank), 20480 messages and 163840 B sent by site:isend and
#   received by site:recv2, the program's matrix a ring of 4096 cells of 5
#   messages and 40 B, 4096 ranks on 64 hosts.
# The merge runs under bounds of CPU time and address space a few times
# what it needs (bench/report_merge_scale.sh measures it).
# scope: family (the merge of synthetic ranks runs no MPI; only its 4-rank seed does)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
. "$here/common/hang.sh"
report_tool || exit 1
test_workdir report-merge-scale || exit 1
$MPICC -g -O0 -Wall -Wextra -Werror "$here/hang_ring.c" -o hang_ring || { echo "FAIL: cannot build hang_ring"; exit 1; }
ring_line() { grep -n "site:$1 " "$here/hang_ring.c" | cut -d: -f1; }
ring=$(ring_line ring) ring0=$(ring_line ring0) isend=$(ring_line isend) recv2=$(ring_line recv2)
N=4096
# the merge's bounds: CPU seconds and address space (MiB), a few times what
# it takes at 4096 ranks (/usr/bin/time -v, user + system: 0.3 s on a quiet
# machine, 0.7 to 0.8 s at a load of 17 on 2 cores; 43 MiB resident at
# most; under ulimit -v it runs in 50 MiB, not in 40); below 128 MiB, so
# that a table of N x N doubles fails even when held only for a moment
MERGE_CPU_S=${MERGE_CPU_S:-4} MERGE_VMEM_MIB=${MERGE_VMEM_MIB:-120}

# ---- a real ring deadlock at 4 ranks, every rank's state written (the
# watchdog's at 600 ms: past the 0.5 s every wait of a cycle must last for
# --merge to call it a deadlock)
d=$PWD/real
mkdir -p "$d"
timeout -s TERM 120 $MPIRUN $MPIRUN_OPTS -np 4 "$wrap" -q -o "$d" --watchdog 600 ./hang_ring </dev/null >"$d.out" 2>"$d.err" &
tpid=$!
if await "$d" 4 watchdog; then
  kill -TERM $tpid
  wait $tpid
else
  kill -TERM $tpid; wait $tpid
  fail "the watchdog wrote $(nsnap "$d" watchdog) of 4 states"; cat "$d.err"; exit 1
fi
[ "$(ls "$d"/snapshot.*.txt | wc -l)" = 4 ] || { fail "$(ls "$d"/snapshot.*.txt | wc -l) of 4 states"; exit 1; }

# ---- 4096 ranks of it, merged
big=$PWD/big
python3 "$here/common/synth_snapshots.py" "$d" $N "$big" || { fail "cannot make $N ranks' snapshots"; exit 1; }
# under those bounds: a merge quadratic in the ranks, or an N x N table
# (128 MiB at 4096 ranks), fails here, named by the bound it hit
(ulimit -v $((MERGE_VMEM_MIB * 1024)) -t $MERGE_CPU_S && exec "$wrap" --merge "$big") >"$big.out" 2>"$big.err"
rc=$?
if [ $rc != 0 ]; then
  # past the soft CPU limit the kernel sends SIGXCPU (status 152), past the
  # hard one SIGKILL (137); past the address space, an allocation fails and
  # the merge says so (its own "out of memory" or strerror(ENOMEM))
  if [ $rc = 152 ] || [ $rc = 137 ]; then
    bound="its CPU-time bound, $MERGE_CPU_S s (status $rc)"
  elif grep -q 'out of memory\|Cannot allocate memory' "$big.err"; then
    bound="its address-space bound, $MERGE_VMEM_MIB MiB (status $rc)"
  else
    bound="neither bound (status $rc)"
  fi
  fail "--merge of $N ranks: stopped by $bound"; cat "$big.err"; exit 1
fi
for f in report.txt report.json report.html; do [ -s "$big/$f" ] || fail "--merge wrote no $f"; done

cycle="  Deadlock: a cycle of $N ranks, none of which can go on: rank 0 waits for rank $((N - 1)), rank $((N - 1)) for rank $((N - 2)), and so on through $((N - 4)) more ranks to rank 1, which waits for rank 0. $((N - 1)) ranks (1-$((N - 1))) wait in MPI_Recv from their left neighbour, tag 3, at hang_ring.c:$ring; rank 0 waits in MPI_Recv from rank $((N - 1)), tag 4, at hang_ring.c:$ring0."
[ "$(sed -n 1p "$big/report.txt")" = "Why the run did not end" ] || fail "report.txt does not open with why the run did not end"
[ "$(sed -n 2p "$big/report.txt")" = "$cycle" ] || fail "the deadlock sentence: '$(sed -n 2p "$big/report.txt")', expected '$cycle'"
[ "$(sed -n 3p "$big/report.txt")" = "Where each rank was" ] || fail "not one finding: '$(sed -n 3p "$big/report.txt")'"
num='[0-9][0-9.e+-]*' stamp='[0-9]\{4\}-[0-9-]* [0-9:.]*' why='\(on signal 15 (SIGTERM)\|by the watchdog (no MPI call returned)\|for several reasons\)'
sed -n 4p "$big/report.txt" | grep -q "^  $((N - 1)) ranks (1-$((N - 1))) wait in MPI_Recv from their left neighbour, tag 3, at hang_ring\.c:$ring, for $num\( to $num\)\? s (states taken $why, $stamp\( to $stamp\)\?)\.\$" \
  || fail "the grouped state: '$(sed -n 4p "$big/report.txt")'"
sed -n 5p "$big/report.txt" | grep -q "^  Rank 0 waits in MPI_Recv from rank $((N - 1)), tag 4, at hang_ring\.c:$ring0, for $num s (state taken \(on signal 15 (SIGTERM)\|by the watchdog (no MPI call returned)\), $stamp)\.\$" \
  || fail "rank 0's state: '$(sed -n 5p "$big/report.txt")'"
[ -z "$(sed -n 6p "$big/report.txt")" ] || fail "more than two states: '$(sed -n 6p "$big/report.txt")'"
grep -q "^papi-mpit-report: $N ranks on 64 hosts, " "$big/report.txt" || fail "not $N ranks on 64 hosts: $(grep '^papi-mpit-report:' "$big/report.txt")"

python3 - "$big/report.json" "$big/report.txt" $N "$ring" "$ring0" "$isend" "$recv2" <<'PY' || fail "report.json"
import json, sys
path, txt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
ring, ring0, isend, recv2 = (int(x) for x in sys.argv[4:8])
j = json.load(open(path))
lines = [l[2:] for l in open(txt).read().split("\n")[:6]]
h = j["hang"]
assert h["ranks_missing"] == [], h["ranks_missing"]
assert h["findings"] == [lines[1]], h["findings"]
assert h["where"] == [lines[3], lines[4]], h["where"]
assert h["states"]["rank"] == list(range(n)), "states"
assert all(len(v) == n for v in h["states"].values()), "states' columns"
c = h["calls"]
assert all(len(v) == n for v in c.values()), "calls' columns"
assert c["rank"] == list(range(n)), "calls by rank"
assert c["peer"] == [(r - 1) % n for r in range(n)], "peers"
assert c["tag"] == [4] + [3] * (n - 1), "tags"
assert set(c["call"]) == {"MPI_Recv"} and set(c["comm"]) == {"world"}, "calls"
assert [h["sites"][s] for s in c["site"]] == ["hang_ring.c:%d" % ring0] + ["hang_ring.c:%d" % ring] * (n - 1), "sites"
assert j["ranks"] == n and j["hosts"] == ["node%04d" % (r // 64) for r in range(n)], "hosts"
sites = {(s["call"], s["line"]): s for s in j["call_sites"]["sites"]}
assert sorted(sites) == sorted([("MPI_Isend", isend), ("MPI_Recv", recv2), ("MPI_Wait", recv2 + 1)]), sorted(sites)
for s in sites.values():
    assert s["calls"] == 5 * n, (s["call"], s["calls"])
s = sites[("MPI_Isend", isend)]
assert (s["messages_sent"], s["bytes_sent"], s["messages_received"]) == (5 * n, 40 * n, 0), s
s = sites[("MPI_Recv", recv2)]
assert (s["messages_received"], s["bytes_received"], s["messages_sent"]) == (5 * n, 40 * n, 0), s
cells = j["program_matrix"]["cells"]
assert sorted((x["sender"], x["receiver"], x["messages"], x["bytes"]) for x in cells) == [(r, (r + 1) % n, 5, 40) for r in range(n)], "matrix"
print("report.json: %d ranks' states and calls, %d sites of %d calls each, a ring of %d cells" % (n, len(sites), 5 * n, len(cells)))
PY
[ $fails = 0 ] && ok "$N ranks from a real 4-rank ring deadlock: one cycle of $N ranks, two states, exact totals"
[ $fails = 0 ]
