#!/usr/bin/env bash
# papi-mpit-report's collection out of memory (report_collect.c): with no
# room for any child's subtree (PAPI_MPIT_REPORT_COLLECT_LIMIT=1, the bytes
# a parent takes), 8 ranks of bench/collection_app.c, records in zero-byte
# messages' tags and in real bytes:
# - the program ends as without the limit (status 0), no rank is killed;
# - each parent names the ranks it left out on stderr, exactly the 7 edges
#   of the collection tree (0: 1, 2-3, 4-7; 2: 3; 4: 5, 6-7; 6: 7);
# - rank 0 writes its report with its own record: "8 ranks, 1 with a
#   record, on 1 host", ranks 1 to 7 named as having no record (never
#   counted as hosts), report.json's hosts null for them, and rank 0's
#   own 160 MPI_Sendrecv calls exactly.
# flavors: openmpi mpich
# timeout: 600
# scope: family (the collection's out-of-memory path, the same code on every MPI)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-collect-oom || exit 1
NP=8
$MPICC -O2 -Wall -Wextra -Werror "$here/../bench/collection_app.c" -o collection_app \
  || { echo "FAIL: cannot build collection_app"; exit 1; }
launch() { if [ "$FAMILY" = mpich ]; then hydra_quiet_stdin "$@"; else "$@"; fi; }
printf '%s\n' "rank 0: the records of ranks 1 to 1" "rank 0: the records of ranks 2 to 3" \
  "rank 0: the records of ranks 4 to 7" "rank 2: the records of ranks 3 to 3" "rank 4: the records of ranks 5 to 5" \
  "rank 4: the records of ranks 6 to 7" "rank 6: the records of ranks 7 to 7" >want.txt

for how in tags bytes; do
  rm -rf out-$how
  PAPI_MPIT_REPORT_COLLECT=$how PAPI_MPIT_REPORT_COLLECT_LIMIT=1 launch timeout 300 $MPIRUN $MPIRUN_OPTS -np $NP \
    "$wrap" -q -o out-$how ./collection_app 1 >$how.out 2>$how.err
  rc=$?
  [ $rc = 0 ] || { fail "$how: status $rc (the program's: 0)"; tail -20 $how.err; continue; }
  sed -n 's/^papi-mpit-report: \(rank [0-9]*: the records of ranks [0-9]* to [0-9]*\) do not fit in memory: left out$/\1/p' \
    $how.err | sort >got-$how.txt
  if cmp -s want.txt got-$how.txt; then
    ok "$how: status 0; the 7 subtrees that did not fit named on stderr"
  else
    fail "$how: the subtrees left out, on stderr: $(tr '\n' ';' <got-$how.txt) (want $(tr '\n' ';' <want.txt))"
    cat $how.err
  fi
  grep -q "^papi-mpit-report: $NP ranks, 1 with a record, on 1 host, " out-$how/report.txt \
    && [ "$(grep -c '^  rank [1-7]: no record (left out of the collection, as said on stderr)$' out-$how/report.txt)" = 7 ] \
    && ok "$how: report.txt: $NP ranks, 1 with a record, on 1 host; ranks 1-7 without a record" \
    || fail "$how: report.txt does not name the ranks left out: $(grep -m1 '^papi-mpit-report:' out-$how/report.txt)"
  python3 - out-$how/report.json <<'PY' && ok "$how: report.json: hosts null for ranks 1-7, rank 0's 160 MPI_Sendrecv calls" || fail "$how: report.json"
import json, sys
r = json.load(open(sys.argv[1]))
hosts = r["hosts"]
assert isinstance(hosts, list) and hosts[0] and hosts[1:] == [None] * 7, hosts
calls = sum(s["calls"] for s in r["call_sites"]["sites"] if s["call"] == "MPI_Sendrecv")
assert calls == 160, calls
PY
done

[ $fails -eq 0 ]
