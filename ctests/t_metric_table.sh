#!/usr/bin/env bash
# doc/events.md's table of portable metrics by flavor says what the component does:
# this flavor's column equals what the component reports on a 1-rank run
# (scripts/metric-table.sh, which also rewrites the table).
# Run by ctests/run.sh (environment: FLAVOR MPICC MPIRUN MPIRUN_OPTS BIN
# PAPI_INC PAPI_LIB PAPI_MPIT_BACKEND_DIR), in $BIN.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
test_workdir metric_table || exit 1
fails=0
bash "$here/../scripts/metric-table.sh" column "$FLAVOR" > live.txt || { echo "FAIL: the metric lister did not run"; exit 1; }
bash "$here/../scripts/metric-table.sh" doc "$FLAVOR" > doc.txt || { echo "FAIL: doc/events.md has no column for $FLAVOR"; exit 1; }
cat live.txt
[ -s live.txt ] || fail "the lister printed no metric"
if diff doc.txt live.txt > diff.txt; then
  ok "doc/events.md's column for $FLAVOR matches the component ($(wc -l < live.txt) metrics)"
else
  fail "doc/events.md's column for $FLAVOR differs from the component (< doc/events.md, > component); run scripts/metric-table.sh write"
  cat diff.txt
fi
[ $fails -eq 0 ] && echo "PASS t_metric_table ($FLAVOR)"
[ $fails -eq 0 ]
