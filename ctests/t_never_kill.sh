#!/usr/bin/env bash
# Never kill the program: on a release whose own monitoring segfaults in
# MPI_Init (Open MPI 6.0.0~rc2, Debian sid: mca_common_monitoring_add_procs
# once pml_monitoring_enable is set), a known-defect row keeps the
# component from ever switching monitoring on.
# - The control: a plain 4-rank program (ring_app) with the user's
#   OMPI_MCA_pml_monitoring_enable=2 dies in MPI_Init on its own.
# - papi-mpit-report on that program, its communication matrix asked for,
#   exits 0 with its report of 4 ranks; report.json says why there is no
#   matrix, and names BYTES_SENT and COLL_BYTES_SENT among the metrics this
#   MPI does not provide, with the defect as the reason.
# - The same with the user's OMPI_MCA_pml_monitoring_enable=2 in the
#   environment and the monitoring PML admitted, as in the control: the
#   component, asked for monitoring before MPI_Init, switches it off, and
#   the report still comes.
# flavors: openmpi
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
case $FLAVOR in
  sid-openmpi | sid-abi-openmpi) ;;
  *) echo "SKIP $FLAVOR's Open MPI has no monitoring defect (Debian sid's 6.0.0~rc2 has)"; exit 77 ;;
esac
report_tool || exit 1
test_workdir never-kill || exit 1
run() { timeout 120 $MPIRUN $MPIRUN_OPTS "$@"; }
$MPICC -O2 -Wall -Wextra -Werror "$here/ring_app.c" -o ring_app -lpthread || { echo "FAIL: cannot build ring_app"; exit 1; }

# ---- the control: the defect is there (else this test could not fail)
OMPI_MCA_pml_monitoring_enable=2 timeout 120 $MPIRUN ${MPIRUN_OPTS/--mca pml ob1/--mca pml ob1,monitoring} -np 4 ./ring_app >control.out 2>control.err
rc=$?
if [ $rc -ne 0 ]; then
  ok "control: ring_app with pml_monitoring_enable=2 and no tool dies (exit $rc)"
else
  fail "control: ring_app with pml_monitoring_enable=2 ran: the release no longer has the defect; drop its row (known_defects.c)"
fi

# check DIR: a report of 4 ranks that says why there is no matrix and which
# monitoring metrics the defect refuses
check() {
  python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/report.json"))
assert r["matrix"] is None, "a matrix"
note = r.get("matrix_note", "")
assert "segfaults in MPI_Init" in note, "matrix note: %r" % note
why = {m["name"]: m["reason"] for m in r["not_provided"]}
for name in ("mpit:::BYTES_SENT", "mpit:::COLL_BYTES_SENT"):
    assert name in why, name + " not among the metrics not provided: %s" % sorted(why)
    assert "segfaults in MPI_Init (mca_common_monitoring_add_procs)" in why[name], why[name]
ranks = {len(e["values"]) for e in r["events"]}
assert ranks == {4}, "ranks per event: %s" % ranks
print("4 ranks; no matrix: " + note)
PY
}

for user in "" 2; do
  label=report${user:+-user-enable}
  # the user's monitoring as in the control, the monitoring PML admitted
  opts=$MPIRUN_OPTS; [ -n "$user" ] && opts=${MPIRUN_OPTS/--mca pml ob1/--mca pml ob1,monitoring}
  env PAPI_MPIT_REPORT_MATRIX=1 ${user:+OMPI_MCA_pml_monitoring_enable=$user} \
    timeout 120 $MPIRUN $opts -np 4 "$wrap" -q -o "$label" ./ring_app >"$label.out" 2>"$label.err"
  rc=$?
  if [ $rc -eq 0 ] && [ "$(grep -c 'ring_app rank [0-3] done' "$label.out")" = 4 ] && check "$label" >"$label.check" 2>&1; then
    ok "$label: exit 0, 4 ranks done, $(cat "$label.check")"
  else
    fail "$label (exit $rc): $(cat "$label.check" 2>/dev/null)"; tail -15 "$label.err"
  fi
done

[ $fails -eq 0 ] && echo "PASS t_never_kill ($FLAVOR)" || echo "$fails check(s) failed"
[ $fails -eq 0 ]
