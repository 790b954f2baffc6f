#!/usr/bin/env bash
# PAPI's high-level API measures mpit events next to a CPU event with no code
# change: hl_app.c marks one region with PAPI_hl_region_begin/end and runs
# under mpirun -np 2 with PAPI_EVENTS="perf::TASK-CLOCK,mpit:::...".  Checked
# in papi_hl_output/rank_00000{0,1}.json (format of PAPI 7.0.0's
# src/high-level/papi_hl.c): both ranks record the region with
# perf::TASK-CLOCK > 0 and each mpit event this flavor has, with its exact
# value (rank 1's unexpected queue grows by 9 in the region; on the SPC
# flavor rank 0 makes 10 MPI_Send calls, rank 1 one; 9 unexpected messages);
# an mpit event this MPI lacks is left out of the output, named by a
# "papi-mpit:" reason on stderr, and the run still succeeds.
#
# Run by ctests/run.sh (environment: FLAVOR MPICC MPIRUN MPIRUN_OPTS BIN
# PAPI_INC PAPI_LIB PAPI_MPIT_BACKEND_DIR), in $BIN.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
test_workdir hl || exit 1
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the JSON output"; exit 1; }

# name=<rank 0 value>,<rank 1 value> for the events this flavor has; one
# event it does not have
case $KIND in
  openmpi)      have="pml_ob1_unexpected_msgq_length=0,9"; lacks=runtime_spc_OMPI_SPC_SEND ;;
  openmpi-spc)  have="pml_ob1_unexpected_msgq_length=0,9 runtime_spc_OMPI_SPC_SEND=10,1 UNEXPECTED_MSGS=0,9"
                lacks=unexpected_recvq_length
                export OMPI_MCA_mpi_spc_attach=all ;;  # PAPI_hl starts after MPI_Init: attach by MCA
  mpich)        have=""; lacks=unexpected_recvq_length ;;
  mpich-events) have="unexpected_recvq_length=0,9 UNEXPECTED_MSGS=0,9"; lacks=pml_ob1_unexpected_msgq_length ;;
  *) echo "SKIP no expectations for flavor $FLAVOR"; exit 77 ;;
esac

$MPICC -Wall -Wextra -Werror -I"$PAPI_INC" "$here/hl_app.c" -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o hl_app \
  || { echo "FAIL: hl_app does not build"; exit 1; }
events="perf::TASK-CLOCK"
for e in $have; do events="$events,mpit:::${e%%=*}"; done
events="$events,mpit:::$lacks"
echo "PAPI_EVENTS=$events"
unset PAPI_OUTPUT_DIRECTORY PAPI_REPORT PAPI_MPIT_QUIET
PAPI_EVENTS=$events timeout 120 $MPIRUN $MPIRUN_OPTS -np 2 ./hl_app >out.log 2>err.log
rc=$?
cat out.log err.log
[ $rc -eq 0 ] || { echo "FAIL: hl_app under mpirun exited with $rc"; exit 1; }

python3 - "$have" "$lacks" <<'EOF'
import json, sys
have = [h.split("=") for h in sys.argv[1].split()]
lacks = sys.argv[2]
fails = 0
def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)
for rank in (0, 1):
    path = "papi_hl_output/rank_%06d.json" % rank
    try:
        doc = json.load(open(path))
    except Exception as e:
        fail("%s: %s" % (path, e))
        continue
    defs = doc.get("event_definitions", {})
    regions = [r for t in doc.get("threads", {}).values() for r in t.get("regions", {}).values()]
    region = [r for r in regions if r.get("name") == "exchange"]
    if len(region) != 1:
        fail("%s: %d regions named exchange" % (path, len(region)))
        continue
    region = region[0]
    def value(name):
        v = region.get(name)
        if isinstance(v, dict):  # with intermediate reads: region_value
            v = v.get("region_value")
        try:
            return int(v)
        except (TypeError, ValueError):
            return None
    clock = value("perf::TASK-CLOCK")
    if defs.get("perf::TASK-CLOCK", {}).get("component") != "perf_event":
        fail("%s: perf::TASK-CLOCK not defined as a perf_event event" % path)
    if clock is None or clock <= 0:
        fail("%s: perf::TASK-CLOCK is %r, expected a positive number" % (path, region.get("perf::TASK-CLOCK")))
    for name, want in have:
        full = "mpit:::" + name
        want = int(want.split(",")[rank])
        if defs.get(full, {}).get("component") != "mpit":
            fail("%s: %s not defined as an mpit event: %r" % (path, full, defs.get(full)))
        got = value(full)
        if got != want:
            fail("%s: %s is %r, expected %d" % (path, full, region.get(full), want))
        else:
            print("ok: rank %d %s = %d" % (rank, full, got))
    if ("mpit:::" + lacks) in defs or ("mpit:::" + lacks) in region:
        fail("%s: mpit:::%s, which this MPI lacks, is in the output" % (path, lacks))
    print("ok: rank %d perf::TASK-CLOCK = %d" % (rank, clock or 0))
sys.exit(1 if fails else 0)
EOF
json_rc=$?

fails=0
grep -q "^papi-mpit: .*$lacks" err.log || { echo "FAIL: no 'papi-mpit:' reason naming $lacks on stderr"; fails=1; }
grep -q "hl_app rank 0 done" out.log && grep -q "hl_app rank 1 done" out.log \
  || { echo "FAIL: a rank did not finish"; fails=1; }
[ $json_rc -eq 0 ] && [ $fails -eq 0 ] || exit 1
echo "PASS hl"
