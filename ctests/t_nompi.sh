#!/usr/bin/env bash
# A process without MPI keeps a working PAPI (component README, "Enabling"):
#  - libpapi does not link an MPI library;
#  - nompi_app.c, built with plain cc (no MPI), initialises PAPI; with this
#    flavor's MPI library as the listing default (PAPI_MPIT_LIBMPI), and with
#    the configured default, it can list mpit events but every add fails
#    with PAPI_ECMP, a "papi-mpit:" reason on stderr and the component info
#    saying why; with PAPI_MPIT_LIBMPI=none, or a library that does not
#    load, the component is disabled with a reason; no crash in any case;
#  - the PAPI utility papi_avail runs as usual.
#
# Run by ctests/run.sh (environment: FLAVOR MPICC FLAVOR_EXEC BIN PAPI_INC
# PAPI_LIB PAPI_UTILS PAPI_MPIT_BACKEND_DIR), in $BIN; nompi_app and the
# utilities run where the flavor's programs run ($FLAVOR_EXEC).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
test_workdir nompi || exit 1
unset PAPI_MPIT_QUIET PAPI_MPIT_LIBMPI

libpapi=$(ls "$PAPI_LIB"/libpapi.so* 2>/dev/null | head -1)
[ -n "$libpapi" ] || { echo "FAIL: no libpapi.so in $PAPI_LIB"; exit 1; }
if ldd "$libpapi" | grep -Eq 'libmpi|libmpich'; then fail "libpapi links an MPI library: $(ldd "$libpapi" | grep -E 'libmpi|libmpich')"
else ok "libpapi links no MPI library"; fi

cc -Wall -Wextra -Werror -I"$PAPI_INC" "$here/nompi_app.c" -L"$PAPI_LIB" -lpapi -Wl,-rpath,"$PAPI_LIB" -o nompi_app \
  || { echo "FAIL: nompi_app does not build with plain cc"; exit 1; }
if ldd ./nompi_app | grep -Eq 'libmpi|libmpich'; then fail "nompi_app pulled in an MPI library"; fi

. "$(dirname "$0")/flavors.sh"
libmpi=$(flavor_libmpi) || exit 1
echo "flavor $FLAVOR: $libmpi"

# run LABEL MODE [env...]: nompi_app under the given environment
run() {
  local label=$1 mode=$2; shift 2
  $FLAVOR_EXEC env "$@" timeout 120 ./nompi_app "$mode" >"$label.out" 2>"$label.err"
  local rc=$?
  cat "$label.out" "$label.err" | sed "s/^/[$label] /"
  if [ $rc -ne 0 ]; then fail "$label: nompi_app exited with $rc"; return 1; fi
  # a disabled component is not asked about names (PAPI skips it): its
  # reason is in the component info, which nompi_app checks
  if [ "$mode" = list ] && ! grep -q "^papi-mpit: " "$label.err"; then
    fail "$label: no 'papi-mpit:' reason on stderr"; return 1
  fi
  ok "$label"
}
run flavor-lib list PAPI_MPIT_LIBMPI="$libmpi"
case $KIND in
  openmpi*) grep -q "events listed without MPI: [1-9]" flavor-lib.out || fail "nothing listed from $libmpi" ;;
esac
run default list
run none none PAPI_MPIT_LIBMPI=none
grep -q "disabled=[^0]" none.out || fail "PAPI_MPIT_LIBMPI=none: component not reported disabled"
run bad-lib none PAPI_MPIT_LIBMPI=/nonexistent/libmpi.so.40
grep -q "reason='.*/nonexistent/libmpi.so.40" bad-lib.out || fail "the reason does not name the library that failed to load"

# papi_avail, plain and with this flavor's MPI as the listing default
for env_libmpi in "" "$libmpi"; do
  label=papi_avail${env_libmpi:+-flavor-lib}
  $FLAVOR_EXEC env ${env_libmpi:+PAPI_MPIT_LIBMPI=$env_libmpi} timeout 120 "$(util papi_avail)" >"$label.out" 2>"$label.err"
  rc=$?
  if [ $rc -ne 0 ]; then fail "$label exited with $rc"; tail -5 "$label.err"
  elif ! grep -q "PAPI version" "$label.out"; then fail "$label printed no PAPI version"
  else ok "$label"; fi
done

# papi_component_avail says "listing only" where PAPI has a place for it
# (PAPI 7.2's partially-disabled state)
timeout 120 "$(util papi_component_avail)" >component_avail.out 2>&1
version=$(grep '^#define PAPI_VERSION[^_]' "$PAPI_INC/papi.h" | sed 's/.*NUMBER(\([0-9]*\),\([0-9]*\),.*/\1.\2/')
case $version in
  7.0|7.1) ok "PAPI $version: no partially-disabled state to report" ;;
  *) grep -A1 '^Name: *mpit ' component_avail.out | grep -q 'Partially disabled: listing only' \
       && ok "PAPI $version: papi_component_avail shows mpit partially disabled (listing only)" \
       || fail "PAPI $version: papi_component_avail does not say listing only: $(grep -A1 '^Name: *mpit ' component_avail.out)" ;;
esac

[ $fails -eq 0 ] || exit 1
echo "PASS nompi"
