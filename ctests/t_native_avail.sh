#!/usr/bin/env bash
# PAPI's own utilities, run as plain commands (no mpirun, no MPI program):
#  - papi_native_avail lists the mpit component's events, each with a
#    description and a "Units:" line; with this flavor's MPI library as the
#    listing default (PAPI_MPIT_LIBMPI) on the Open MPI flavors it lists
#    mpit:::pml_ob1_unexpected_msgq_length with its description and
#    "Units: messages", and -e shows that event with its qualifiers
#    :comm=self and :elem=0 (PAPI_NTV_ENUM_UMASKS), each with a text, and
#    the full listing shows them in that event's block; on MPICH (nothing to list
#    before MPI_Init) it lists nothing and does not crash; with the
#    configured default MPI it lists too;
#  - papi_component_avail shows the mpit component, active.
#
# Run by ctests/run.sh (environment: FLAVOR FAMILY MPICC FLAVOR_EXEC BIN
# PAPI_UTILS PAPI_MPIT_BACKEND_DIR), in $BIN; the utilities run where the
# flavor's programs run ($FLAVOR_EXEC: a distribution flavor's chroot).
set -u
. "$(dirname "$0")/common/test_lib.sh"
test_workdir native_avail || exit 1
unset PAPI_MPIT_QUIET PAPI_MPIT_LIBMPI
command -v python3 >/dev/null || { echo "FAIL: python3 is needed to read the listing"; exit 1; }

. "$(dirname "$0")/flavors.sh"
libmpi=$(flavor_libmpi) || exit 1
echo "flavor $FLAVOR: $libmpi"

# check_listing FILE MIN_EVENTS [EVENT UNITS]: the mpit section of a
# papi_native_avail listing: at least MIN_EVENTS events, each with a
# description and a Units: line; EVENT, if given, listed with UNITS.
check_listing() {
  python3 - "$@" <<'EOF'
import re, sys
path, min_events = sys.argv[1], int(sys.argv[2])
want = sys.argv[3] if len(sys.argv) > 3 else None
want_units = sys.argv[4] if len(sys.argv) > 4 else None
text = open(path).read()
m = re.search(r"^ Native Events in Component: mpit\n=+\n(.*?)^(?:=+\n Native Events in Component:|Total events reported)",
              text, re.S | re.M)
if not m:
    print("FAIL: %s has no mpit section" % path); sys.exit(1)
# events are separated by lines of dashes; each starts with "| mpit:::"
blocks = [b for b in re.split(r"\n-{20,}\n?", m.group(1)) if b.strip()]
fails = 0
events = {}
for b in blocks:
    lines = [l.strip().strip("|").rstrip() for l in b.strip().splitlines()]
    name = lines[0].strip()
    if not name.startswith("mpit:::"):
        print("FAIL: block does not start with an mpit event: %r" % lines[0]); fails += 1; continue
    units = [l.split("Units:", 1)[1].strip() for l in lines if l.strip().startswith("Units:")]
    # the event's own lines end where its first qualifier (":key=value") begins
    own = []
    for l in lines[1:]:
        if l.strip().startswith(":"): break
        own.append(l)
    descr = " ".join(l.strip() for l in own if not l.strip().startswith("Units:")).strip()
    if not descr:
        print("FAIL: %s has no description" % name); fails += 1
    if len(units) != 1 or not units[0]:
        print("FAIL: %s has no Units: line" % name); fails += 1
    events[name] = (descr, units[0] if units else "")
print("%s: %d mpit events" % (path, len(events)))
if len(events) < min_events:
    print("FAIL: %d mpit events listed, expected at least %d" % (len(events), min_events)); fails += 1
if want:
    if want not in events:
        print("FAIL: %s not listed" % want); fails += 1
    else:
        print("ok: %s: %s [Units: %s]" % (want, events[want][0], events[want][1]))
        if events[want][1] != want_units:
            print("FAIL: %s has units %r, expected %r" % (want, events[want][1], want_units)); fails += 1
sys.exit(1 if fails else 0)
EOF
}

case $FAMILY in
  openmpi) min=1; want="mpit:::pml_ob1_unexpected_msgq_length messages" ;;
  *)       min=0; want="" ;;
esac

# ---- papi_native_avail with this flavor's library, then with the default
$FLAVOR_EXEC env PAPI_MPIT_LIBMPI="$libmpi" timeout 120 "$(util papi_native_avail)" >flavor.out 2>flavor.err
rc=$?
if [ $rc -ne 0 ]; then fail "papi_native_avail (PAPI_MPIT_LIBMPI=$libmpi) exited with $rc"; tail -5 flavor.err
else check_listing flavor.out $min $want && ok "papi_native_avail with $libmpi" || fail "listing with $libmpi"; fi

$FLAVOR_EXEC timeout 120 "$(util papi_native_avail)" >default.out 2>default.err
rc=$?
if [ $rc -ne 0 ]; then fail "papi_native_avail (default MPI) exited with $rc"; tail -5 default.err
else check_listing default.out 0 && ok "papi_native_avail with the configured default MPI" || fail "default listing"; fi

if [ -n "$want" ]; then
  ev=${want%% *}
  $FLAVOR_EXEC env PAPI_MPIT_LIBMPI="$libmpi" timeout 120 "$(util papi_native_avail)" -e "$ev" >one.out 2>one.err
  rc=$?
  if [ $rc -ne 0 ]; then fail "papi_native_avail -e $ev exited with $rc"
  elif ! grep -q "^Event name: *$ev\$" one.out || ! grep -q "^Description: *[A-Za-z]" one.out; then
    fail "papi_native_avail -e $ev does not show the event and its description"; cat one.out
  elif ! grep -q "^ *Info: *:comm=self -- bound to MPI_COMM_SELF" one.out ||
       ! grep -q "^ *Info: *:elem=0 -- element 0" one.out; then
    fail "papi_native_avail -e $ev does not show the qualifiers :comm=self and :elem=0"; cat one.out
  else ok "papi_native_avail -e $ev, with its qualifiers"; fi
  # in the full listing, the qualifiers are lines of the event's own block
  if sed -n "/^| $ev /,/^----/p" flavor.out | grep -q '^|     :comm=self  *|$'; then
    ok "the listing shows $ev:comm=self under $ev"
  else fail "the listing does not show :comm=self under $ev"; fi
fi

# ---- papi_component_avail
$FLAVOR_EXEC env PAPI_MPIT_LIBMPI="$libmpi" timeout 120 "$(util papi_component_avail)" >comp.out 2>comp.err
rc=$?
if [ $rc -ne 0 ]; then fail "papi_component_avail exited with $rc"
elif ! grep -q "^Name: *mpit " comp.out; then fail "papi_component_avail does not show mpit"; cat comp.out
elif ! sed -n '/^Active components:/,$p' comp.out | grep -q "^Name: *mpit "; then fail "mpit is not among the active components"; cat comp.out
else ok "papi_component_avail shows mpit, active"; fi

[ $fails -eq 0 ] || exit 1
echo "PASS native_avail"
