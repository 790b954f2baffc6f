# The checks of a run of report_hang.c that never reached MPI_Finalize
# (t_report_hang, t_report_hang_slurm), sourced after test_lib.sh and
# report_tool: $here is ctests/, $wrap the tool, fail() counts.

# flavor_release: how the flavor's launcher ends a job
. "$here/flavors.sh"

# line NAME: the line of report_hang.c marked "site:NAME"
line() { grep -n "site:$1 " "$here/report_hang.c" | cut -d: -f1; }

# nsnap DIR WHY: how many snapshot files of DIR say WHY in their R line
nsnap() { cat "$1"/snapshot.*.txt 2>/dev/null | grep -c "^R	[0-9]*	[0-9]*	$2	"; }
# await DIR N WHY: until N files say WHY (bounded: 60 s)
await() {
  local i
  for i in $(seq 600); do [ "$(nsnap "$1" "$3")" -ge "$2" ] && return 0; sleep 0.1; done
  return 1
}
# field RANKFILE KIND N: field N (1 = the letter) of the first KIND line
field() { awk -F'\t' -v k="$2" -v n="$3" '$1 == k { print $n; exit }' "$1"; }

# check_calls DIR MODE NP: the A lines are the program's calls
check_calls() {
  local d=$1 mode=$2 np=$3 r f want got
  for r in $(seq 0 $((np - 1))); do
    f=$d/snapshot.$r.txt
    [ -f "$f" ] || { fail "$mode: rank $r left no state"; continue; }
    case $mode:$r in
      deadlock:*) want="MPI_Recv $((1 - r)) $((10 + r)) world $(line deadlock)" ;;
      ring:*) want="MPI_Recv $(((r + np - 1) % np)) 20 world $(line ring)" ;;
      mismatch:0) want="MPI_Barrier -1 - world $(line barrier)" ;;
      mismatch:1) want="MPI_Recv 0 8 world $(line recv8)" ;;
      collective:$((np - 1))) want="MPI_Recv 0 5 world $(line recv5)" ;;
      collective:*) want="MPI_Allreduce -1 - dup $(line allreduce)" ;;
    esac
    got="$(field "$f" A 3) $(field "$f" A 8) $(field "$f" A 9)"
    comm=$(field "$f" A 12)
    case $comm in world) got="$got world" ;; ?*.[0-9]*) got="$got dup" ;; *) got="$got $comm" ;; esac
    # the site: the merged report names it; here the program's line is
    # checked through the merge below, the rest here
    [ "$got" = "${want% *}" ] || fail "$mode rank $r: call in progress '$got', the program's is '${want% *}'"
  done
}

# check_merge DIR MODE NP: --merge says why, with the program's lines,
# first in report.txt, report.html and report.json
check_merge() {
  local d=$1 mode=$2 np=$3 txt
  "$wrap" --merge "$d" >"$d.merge.out" 2>"$d.merge.err" || { fail "$mode: --merge failed"; cat "$d.merge.err"; return; }
  for f in report.txt report.json report.html; do [ -s "$d/$f" ] || fail "$mode: --merge wrote no $f"; done
  txt=$(sed -n '2p' "$d/report.txt")
  case $mode in
    ring)
      local want k
      # the cycle is found from rank 0 along its waits: 0, np-1, ..., 1
      want="  Deadlock: rank 0 waits in MPI_Recv from rank $((np - 1)), tag 20, at report_hang.c:$(line ring)"
      for k in $(seq $((np - 1)) -1 1); do
        want="$want; rank $k waits in MPI_Recv from rank $((k - 1)), tag 20, at report_hang.c:$(line ring)"
      done
      [ "$txt" = "$want: a cycle of $np ranks, none of which can go on." ] || fail "ring: report.txt does not open with the cycle: $txt"
      grep -q "^papi-mpit-report: $np ranks on 1 host, " "$d/report.txt" || fail "ring: not '$np ranks on 1 host': $(grep '^papi-mpit-report:' "$d/report.txt")" ;;
    deadlock)
      echo "$txt" | grep -q "^  Deadlock: rank 0 waits in MPI_Recv from rank 1, tag 10, at report_hang.c:$(line deadlock); rank 1 waits in MPI_Recv from rank 0, tag 11, at report_hang.c:$(line deadlock): a cycle of 2 ranks" \
        || fail "deadlock: report.txt does not open with the cycle: $txt" ;;
    mismatch)
      grep -q "Rank 1 waits in MPI_Recv for tag 8 from rank 0 at report_hang.c:$(line recv8), while 3 messages rank 0 sent it have not been received" "$d/report.txt" \
        || fail "mismatch: no tag mismatch with 3 messages in report.txt"
      grep -q "MPI_Barrier on MPI_COMM_WORLD of ranks 0-1 (at report_hang.c:$(line barrier)): entered by rank 0, not by rank 1, which waits in MPI_Recv from rank 0, tag 8," "$d/report.txt" \
        || fail "mismatch: the barrier rank 1 never entered is not said" ;;
    collective)
      local last=$((np - 1))
      grep -q "MPI_Allreduce on a communicator of ranks 0-$last (at report_hang.c:$(line allreduce)): entered by ranks 0$([ $np -gt 2 ] && echo "-$((np - 2))"), not by rank $last, which waits in MPI_Recv from rank 0, tag 5, at report_hang.c:$(line recv5)" "$d/report.txt" \
        || fail "collective: report.txt does not say rank $last never entered the allreduce: $(sed -n 2,3p "$d/report.txt")" ;;
  esac
  grep -q 'id="hang"' "$d/report.html" && [ "$(grep -o '<h2 id="[a-z]*"' "$d/report.html" | head -1)" = '<h2 id="hang"' ] \
    || fail "$mode: report.html does not open with why the run did not end"
  # report.json's first finding: report.txt's (checked above)
  python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["hang"]; assert h["findings"] and not h["ranks_missing"], h
assert h["findings"][0] == sys.argv[2].strip(), (h["findings"][0], sys.argv[2])' "$d/report.json" "$txt" \
    || fail "$mode: report.json's hang member"
}

# forced_limit RUNS: how many of RUNS runs Open MPI's launcher may end by
# SIGKILLing the ranks before any of them saw a signal (a second SIGTERM
# reaching it apart from the first, now and then: 1 run in 20 of 4.1's
# mpirun, 1 in 5 of 5.0.7's prterun on a loaded machine): at most half.
# More is the signal path broken, not the race: broken, every run is one.
# (Open MPI 6.0.0~rc2's prterun does it every time: SKIP with the reason.)
forced_limit() { echo $(($1 / 2)); }
