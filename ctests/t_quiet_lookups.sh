#!/usr/bin/env bash
# Names that are not the mpit component's are refused in silence
# (components/mpit/mpit_claims.h), on every machine:
#  - every native name of PAPI's own preset table (papi_events.csv, all
#    CPUs) and the names a CPU libpfm4 knows makes PAPI ask about
#    (LLC_REFERENCES, CYCLES, ...), looked up with PAPI_event_name_to_code
#    and PAPI_query_named_event, unprefixed, in a process without MPI and in
#    MPI ranks before and after MPI_Init: stderr stays empty and mpit owns
#    none of them;
#  - PAPI's preset loading itself, where PAPI knows the CPU: a preset table
#    (PAPI_CSV_EVENT_FILE) for this machine's PMUs whose presets use such
#    names leaves stderr without a "papi-mpit:" line, and the component
#    still counts its events in papi_component_avail;
#  - names the user addresses to the component or that are its own keep
#    their diagnostic: mpit:::LLC_REFERENCES, UNEXPECTED_MSGX (did you mean
#    UNEXPECTED_MSGS?).
#
# Run by ctests/run.sh (environment: FLAVOR MPICC MPIRUN MPIRUN_OPTS
# FLAVOR_EXEC BIN PAPI_INC PAPI_LIB PAPI_UTILS), in $BIN.
# scope: family (PAPI's preset names and libpfm4, not the MPI)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
test_workdir quiet-lookups || exit 1
unset PAPI_MPIT_QUIET PAPI_MPIT_LIBMPI PAPI_CSV_EVENT_FILE

csv=$PAPI_INC/papi_events.csv
[ -f "$csv" ] || { echo "FAIL: no papi_events.csv in $PAPI_INC"; exit 1; }
# the native names of every preset (the fields after the derivation that
# are names, not formulas or notes), and the ones seen asked about
python3 - "$csv" >names.txt <<'PY'
import re, sys
names = set()
for line in open(sys.argv[1], errors="replace"):
    if not line.startswith(("PRESET,", "DERIVED,")):
        continue
    for field in line.strip().split(",")[3:]:
        field = field.strip()
        if re.fullmatch(r"[A-Za-z_][\w:.=\-]*", field) and not field.startswith("PAPI_") and field != "N":
            names.add(field)
names.update(["LLC_REFERENCES", "LLC_MISSES", "DTLB_LOAD_MISSES", "CYCLES", "INSTRUCTIONS",
              "BRANCHES", "UNHALTED_CORE_CYCLES", "INSTRUCTION_RETIRED", "PAPI_L3_TCM", "PAPI_TOT_CYC"])
print("\n".join(sorted(names)))
PY
echo "$(wc -l <names.txt) names"

cc -Wall -Wextra -Werror -I"$PAPI_INC" "$here/quiet_app.c" -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o quiet_plain \
  || { echo "FAIL: quiet_app does not build with cc"; exit 1; }
$MPICC -Wall -Wextra -Werror -DWITH_MPI -I"$PAPI_INC" "$here/quiet_app.c" -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o quiet_mpi \
  || { echo "FAIL: quiet_app does not build with $MPICC"; exit 1; }

# silent LABEL COMMAND...: exit 0, stderr empty, no name found in mpit
silent() {
  local label=$1; shift
  "$@" >"$label.out" 2>"$label.err"
  local rc=$?
  [ $rc -eq 0 ] || { fail "$label: exit $rc"; head -5 "$label.err"; return; }
  grep -q '^looked up [1-9]' "$label.out" || { fail "$label: no lookups made"; return; }
  if [ -s "$label.err" ]; then fail "$label: stderr not empty: $(head -3 "$label.err" | tr '\n' '|')"
  else ok "$label: $(sed -n 's/^looked up //p' "$label.out" | head -1), stderr empty"; fi
  if grep -q ' in mpit$' "$label.out"; then fail "$label: mpit claims $(grep ' in mpit$' "$label.out" | head -3 | tr '\n' '|')"; fi
}
silent plain $FLAVOR_EXEC ./quiet_plain names.txt
silent mpi-2-ranks $MPIRUN $MPIRUN_OPTS -np 2 ./quiet_mpi names.txt

# PAPI's preset loading where it knows the CPU: the same names in a preset
# table for this machine's PMUs
$FLAVOR_EXEC ./quiet_plain names.txt pmus >pmus.txt 2>pmus.err
pmus=$(grep -v '^perf' pmus.txt | grep -v '^$' || true)
if [ -z "$pmus" ]; then
  ok "preset loading: libpfm4 knows no core PMU on this machine, PAPI loads no preset table (the lookups above stand for it)"
else
  { for p in $pmus; do echo "CPU,$p"; done
    echo "PRESET,PAPI_L3_TCR,NOT_DERIVED,LLC_REFERENCES"
    echo "PRESET,PAPI_L3_TCM,NOT_DERIVED,LLC_MISSES"
    echo "PRESET,PAPI_TLB_DM,NOT_DERIVED,DTLB_LOAD_MISSES"
    echo "PRESET,PAPI_TOT_CYC,NOT_DERIVED,MPIT_TEST_NO_SUCH_EVENT"; } >presets.csv
  for label in plain mpi; do
    if [ $label = plain ]; then cmd=($FLAVOR_EXEC env PAPI_CSV_EVENT_FILE=$PWD/presets.csv ./quiet_plain names.txt)
    else cmd=($MPIRUN $MPIRUN_OPTS -np 2 env PAPI_CSV_EVENT_FILE=$PWD/presets.csv ./quiet_mpi names.txt); fi
    "${cmd[@]}" >presets-$label.out 2>presets-$label.err
    if grep -q 'papi-mpit:' presets-$label.err; then fail "preset loading ($label): $(grep 'papi-mpit:' presets-$label.err | head -2 | tr '\n' '|')"
    else ok "preset loading for PMU $(echo $pmus | tr ' ' ,) ($label): no papi-mpit line"; fi
  done
  $FLAVOR_EXEC env PAPI_CSV_EVENT_FILE=$PWD/presets.csv "$(util papi_component_avail)" >component_avail.log 2>&1
  native=$(grep -A1 '^Name: *mpit ' component_avail.log | sed -n 's/^ *Native: *\([0-9]*\),.*/\1/p' | head -1)
  grep -q 'papi-mpit:' component_avail.log && fail "papi_component_avail prints: $(grep 'papi-mpit:' component_avail.log | head -1)"
  case $FAMILY in
    openmpi*) [ "${native:-0}" -gt 0 ] && ok "papi_component_avail counts $native mpit events" \
                || fail "papi_component_avail counts ${native:-no} mpit events with the preset table" ;;
  esac
fi

# what the user addresses to the component is still explained
printf '%s\n' mpit:::LLC_REFERENCES UNEXPECTED_MSGX >asked.txt
$MPIRUN $MPIRUN_OPTS -np 1 ./quiet_mpi asked.txt >asked.out 2>asked.err
grep -q '^papi-mpit: UNEXPECTED_MSGX: .*did you mean UNEXPECTED_MSGS' asked.err \
  && ok "a near miss of a metric keeps its suggestion" || fail "UNEXPECTED_MSGX: no suggestion ($(head -2 asked.err | tr '\n' '|'))"
if grep -q '^papi-mpit: LLC_REFERENCES: ' asked.err; then ok "mpit:::LLC_REFERENCES is explained"
elif ! nm "$PAPI_LIB"/libpapi.so* 2>/dev/null | grep -q _papi_hwi_name_as_given; then
  ok "mpit:::LLC_REFERENCES: this PAPI does not say which names are addressed (no patch papi-name-as-given), refused in silence"
else fail "mpit:::LLC_REFERENCES: no diagnostic ($(head -2 asked.err | tr '\n' '|'))"; fi
[ $fails -eq 0 ] || exit 1
exit 0
