#!/usr/bin/env bash
# papi-mpit-report's sampled queue maxima, exactly.  report_flood (4 ranks)
# fills rank r's unexpected queue to K*r + 1 messages at once (K = 100: a
# ring of floods plus a probed token) and drains it long before
# MPI_Finalize, holding the peak (no sleep, no MPI call) until the tool's
# sampler has read it.
# - Open MPI (ob1 publishes only the current length; the maximum is the
#   largest seen when read): with sampling, at the default period and at
#   --sample-period 1, UNEXPECTED_QUEUE_MAX per rank is exactly 1/101/201/301
#   in every run, and report.json, report.txt and report.html say that it is
#   sampled and at what period; with --sample-period 0 it is exactly 0 on
#   every rank (both reads see an empty queue) and the report says sampling
#   is off.
# - MPICH with MPI_T events: the maximum comes from the queue events, is
#   exact (1/101/201/301) and is not among the sampled maxima.
# - Open MPI 4.1 with SPC (the tool names its events before MPI_Init, so the
#   SPC watermark is attached): the watermark mended by ob1's length sees the
#   peak between the tool's two reads, exact with sampling off, not sampled.
# flavors: openmpi openmpi-spc mpich-events
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-sampled || exit 1
$MPICC -O2 -Wall -Wextra -Werror "$here/report_flood.c" -o report_flood || { echo "FAIL: cannot build report_flood"; exit 1; }
run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }
K=100
want="1 $((K + 1)) $((2 * K + 1)) $((3 * K + 1))"
Q=mpit:::UNEXPECTED_QUEUE_MAX

# facts DIR: "values|period_ms|sampled events|event's sampled flag" from report.json
facts() {
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
ev = {e["name"]: e for e in r["events"]}
e = ev[sys.argv[2]]
s = r["sampling"] or {}
print("%s|%s|%s|%s" % (" ".join(str(v) for v in e["values"]), s.get("period_ms"), ",".join(s.get("events", [])),
                       e.get("sampled", False)))' "$1" "$Q" 2>/dev/null
}

# sampled_run NAME PERIOD|"" : a run, its maxima, and what the files say
sampled_run() {
  local name=$1 period=$2 opts=() rc got shown
  [ -n "$period" ] && opts=(--sample-period "$period")
  run -np 4 "$wrap" -q -o "$name" "${opts[@]}" -e "$Q,mpit:::POSTED_QUEUE_MAX" ./report_flood -k $K \
    >"$name.out" 2>"$name.err"
  rc=$?
  got=$(facts "$name")
  shown=${period:-10}
  if [ $rc = 0 ] && [ "$got" = "$want|$shown|$Q,mpit:::POSTED_QUEUE_MAX|True" ]; then
    ok "$name: $Q per rank $want, sampled every $shown ms"
  else
    fail "$name (exit $rc): '$got', expected '$want|$shown|...|True'"
    cat "$name.err"
  fi
  grep -q "^  maxima: .*$Q.* every $shown ms" "$name/report.txt" && grep -q "^$Q .*(sampled)$" "$name/report.txt" \
    && ok "$name: report.txt says sampled every $shown ms" || fail "$name: report.txt does not say sampled"
  grep -q "id=\"sample-period\" data-v=\"$shown\">sampled every $shown ms" "$name/report.html" \
    && grep -q 'id="sampling"' "$name/report.html" \
    && ok "$name: report.html says sampled every $shown ms" || fail "$name: report.html does not say sampled"
}

case $FAMILY in
  openmpi)
    if [ "$FLAVOR" = openmpi-spc ]; then
      run -np 4 "$wrap" -q -o mended --sample-period 0 -e "$Q" ./report_flood -k $K >mended.out 2>mended.err
      rc=$?
      got=$(facts mended)
      [ $rc = 0 ] && [ "${got%%|*}" = "$want" ] && [ "${got##*|}" = False ] \
        && ok "Open MPI 4.1 SPC: $Q per rank $want with sampling off (the mended watermark), not sampled" \
        || { fail "Open MPI 4.1 SPC (exit $rc): '$got', expected '$want|...|False'"; cat mended.err; }
      [ $fails -eq 0 ] && echo "PASS t_report_sampled ($FLAVOR)" || echo "$fails check(s) failed"
      [ $fails -eq 0 ]
      exit
    fi
    for i in 1 2 3; do sampled_run default$i ""; done
    sampled_run fast 1
    # --sample-period=MS works too, and 0 is off: both reads see empty queues
    run -np 4 "$wrap" -q -o off --sample-period=0 -e "$Q" ./report_flood -k $K >off.out 2>off.err
    rc=$?
    got=$(facts off)
    [ $rc = 0 ] && [ "$got" = "0 0 0 0|0|$Q|True" ] \
      && ok "sampling off: $Q 0 on every rank, the report says so" \
      || { fail "sampling off (exit $rc): '$got', expected '0 0 0 0|0|$Q|True'"; cat off.err; }
    grep -q "^  maxima: .*start and end reads only (sampling off)" off/report.txt \
      && grep -q 'data-v="0">not sampled' off/report.html \
      && ok "sampling off: report.txt and report.html say so" || fail "sampling off: not said"
    # no sample: the values are a lower bound, not a maximum, and say so
    lb() { python3 -c 'import json,sys
e = [e for e in json.load(open(sys.argv[1] + "/report.json"))["events"] if e["name"] == sys.argv[2]][0]
print(e.get("lower_bound", False))' "$1" "$Q" 2>/dev/null; }
    [ "$(lb off)" = True ] && grep -q "^$Q .*(start and end only: a lower bound)$" off/report.txt \
      && [ "$(lb fast)" = False ] \
      && ok "sampling off: $Q marked a lower bound in report.json and report.txt; sampled at 1 ms: not" \
      || fail "lower bound: off '$(lb off)', 1 ms '$(lb fast)'"
    ;;
  mpich)
    run -np 4 "$wrap" -q -o events -e "$Q" ./report_flood -k $K >events.out 2>events.err
    rc=$?
    got=$(facts events)
    [ $rc = 0 ] && [ "$got" = "$want|None||False" ] \
      && ok "MPI_T events: $Q per rank $want, from the events, not sampled" \
      || { fail "MPI_T events (exit $rc): '$got', expected '$want|None||False'"; cat events.err; }
    ;;
esac

[ $fails -eq 0 ] && echo "PASS t_report_sampled ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
