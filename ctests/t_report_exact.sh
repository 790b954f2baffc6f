#!/usr/bin/env bash
# papi-mpit-report measures the program, not itself.
# - openmpi-spc: on a 4-rank program with traffic between every pair
#   (report_pairs) and on NPmpi (netpipe-openmpi, 2 ranks), every rank's
#   mpit:::BYTES_SENT / BYTES_RECEIVED equal Open MPI's own SPC dump at
#   MPI_Finalize exactly, the tool's start-up and collection move no user
#   bytes, and the dump's unexpected messages are the report's plus exactly
#   what the tool's self-check saw before counting started and after it
#   stopped (report_spc_compare.py).
# - openmpi-spc and mpich-events: in the early ring (rank r sends r+1
#   messages to rank r+1 mod 4, which receives after they are queued, plus one
#   probed token that is always unexpected) UNEXPECTED_MSGS per rank is
#   exactly 5/2/3/4, in 4 runs; at 16 ranks (report_flood -k 3) exactly
#   3r + 1 on rank r, and the collection tree adds no unexpected message (and
#   no byte, with SPCs) on any rank (the tool's self-check).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
case $KIND in
  openmpi-spc|mpich-events) ;;
  *) echo "SKIP exact counts need SPCs (openmpi-spc) or MPI_T events (mpich-events)"; exit 77 ;;
esac
test_workdir report-exact || exit 1
$MPICC -O2 -Wall -Wextra -Werror "$here/report_pairs.c" -o report_pairs || { echo "FAIL: cannot build report_pairs"; exit 1; }
run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }
[ "$KIND" = openmpi-spc ] && export OMPI_MCA_mpi_spc_attach=all

# ---- the early ring: the arranged pattern, every run
want="5 2 3 4"
for i in 1 2 3 4; do
  run -np 4 "$wrap" -q -o ring$i -e mpit:::UNEXPECTED_MSGS ./report_pairs -r >ring$i.out 2>ring$i.err
  rc=$?
  got=$(python3 -c 'import json,sys
ev = {e["name"]: e["values"] for e in json.load(open(sys.argv[1]))["events"]}
print(" ".join(str(v) for v in ev["mpit:::UNEXPECTED_MSGS"]))' ring$i/report.json 2>/dev/null)
  [ $rc = 0 ] && [ "$got" = "$want" ] && ok "early ring run $i: UNEXPECTED_MSGS per rank $got" \
    || { fail "early ring run $i (exit $rc): UNEXPECTED_MSGS per rank '$got', arranged $want"; cat ring$i.err; }
done

# ---- against Open MPI's own SPC dump
if [ "$KIND" = openmpi-spc ]; then
  dump=(--mca mpi_spc_dump_enabled true)
  for i in 1 2; do
    PAPI_MPIT_REPORT_SELFCHECK=1 run "${dump[@]}" -np 4 "$wrap" -q -o pairs$i ./report_pairs >pairs$i.out 2>pairs$i.err
    rc=$?
    [ $rc = 0 ] && python3 "$here/report_spc_compare.py" pairs$i/report.json pairs$i.err 4 \
      && ok "all pairs run $i: report = SPC dump on every rank" \
      || { fail "all pairs run $i (exit $rc): report and SPC dump differ"; grep -v OMPI_SPC pairs$i.err | head -20; }
  done
  np_bin=$(dpkg -L netpipe-openmpi 2>/dev/null | grep -E '/NP(mpi|openmpi)$' | head -1)
  if [ -n "$np_bin" ] && [ -x "$np_bin" ] && ! libmpi40_fits; then
    echo "note: NPmpi is linked against libmpi.so.40, which $FLAVOR's Open MPI does not have: not compared"
  elif [ -n "$np_bin" ] && [ -x "$np_bin" ]; then
    spc_lib=$(cd "$(dirname "$MPICC")/../lib" && pwd)
    PAPI_MPIT_REPORT_SELFCHECK=1 run "${dump[@]}" -x LD_LIBRARY_PATH="$spc_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
      -np 2 "$wrap" -q -o np "$np_bin" -n 3 -u 1024 -p 0 -o np.out >np.stdout 2>np.err
    rc=$?
    [ $rc = 0 ] && python3 "$here/report_spc_compare.py" np/report.json np.err 2 \
      && ok "NPmpi: report = SPC dump on both ranks" \
      || { fail "NPmpi (exit $rc): report and SPC dump differ"; grep -v OMPI_SPC np.err | head -20; }
  else
    echo "note: netpipe-openmpi not installed: NPmpi not compared"
  fi
fi

# ---- mpich-events: the collection adds no unexpected message either (the
# start-up's, before counting starts, are not in the report, whatever they are)
if [ "$KIND" = mpich-events ]; then
  PAPI_MPIT_REPORT_SELFCHECK=1 run -np 4 "$wrap" -q -o sc -e mpit:::UNEXPECTED_MSGS ./report_pairs -r >sc.out 2>sc.err
  n=$(grep -c "self-check rank [0-9] collection: mpit:::UNEXPECTED_MSGS=0$" sc.err)
  [ "$n" = 4 ] && [ "$(grep -c 'self-check rank [0-9] start-up:' sc.err)" = 4 ] \
    && ok "self-check: the collection adds no unexpected message on any rank" \
    || { fail "self-check: $n of 4 collection lines say 0"; grep self-check sc.err; }
fi

# ---- a deeper collection tree (16 ranks, 4 levels): report_flood -k 3 gives
# rank r exactly 3r + 1 unexpected messages, and on every rank the
# collection adds no unexpected message and no byte
$MPICC -O2 -Wall -Wextra -Werror "$here/report_flood.c" -o report_flood || { echo "FAIL: cannot build report_flood"; exit 1; }
PAPI_MPIT_REPORT_SELFCHECK=1 run -np 16 "$wrap" -q -o tree -e mpit:::UNEXPECTED_MSGS ./report_flood -k 3 >tree.out 2>tree.err
rc=$?
got=$(python3 -c 'import json, sys
v = {e["name"]: e["values"] for e in json.load(open(sys.argv[1]))["events"]}["mpit:::UNEXPECTED_MSGS"]
print(sum(x != 3 * r + 1 for r, x in enumerate(v)), len(v))' tree/report.json 2>/dev/null)
zero=$(grep -c "self-check rank [0-9]* collection: mpit:::UNEXPECTED_MSGS=0\( mpit:::BYTES_SENT=0 mpit:::BYTES_RECEIVED=0\)\?$" tree.err)
[ $rc = 0 ] && [ "$got" = "0 16" ] && [ "$zero" = 16 ] \
  && ok "16 ranks: UNEXPECTED_MSGS 3r + 1 on every rank; the collection tree adds nothing on any of them" \
  || { fail "16 ranks (exit $rc): '$got' wrong of 16, $zero of 16 collection self-checks at 0"; grep self-check tree.err; }

[ $fails -eq 0 ] && echo "PASS t_report_exact ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
