#!/usr/bin/env bash
# The PMPI rule, statically: the backend module of this flavor's MPI family
# imports no MPI_ function (only PMPI_ / PMPI_T_ names, which no tool wraps),
# and libpapi names no MPI_ function as a string of its own (what a dlsym
# lookup by name would need).  t_pmpi checks the same at run time with
# wrappers; this one also catches a function that test does not wrap.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
family=$FAMILY
backend=$PAPI_MPIT_BACKEND_DIR/mpit_backend_$family.so
lib=$PAPI_LIB/libpapi.so
[ -f "$backend" ] || { echo "FAIL: no backend module $backend"; exit 1; }
[ -f "$lib" ] || { echo "FAIL: no $lib"; exit 1; }

imports=$(nm -D --undefined-only "$backend" | awk '{ print $NF }')
pmpi=$(grep -c '^PMPI_' <<<"$imports")
[ "$pmpi" -gt 0 ] && ok "$backend imports $pmpi PMPI_ functions" || fail "$backend imports no PMPI_ function at all"
bad=$(grep -E '^MPI_' <<<"$imports")
[ -z "$bad" ] && ok "no MPI_ import" || fail "$backend imports by MPI_ names: $(echo $bad)"

# a dlsym lookup needs the bare name as a string of its own
named=$(strings -a "$lib" | grep -xE 'P?MPI_[A-Za-z_]+')
grep -qx 'PMPI_Get_library_version' <<<"$named" && ok "libpapi looks up PMPI_Get_library_version" \
  || fail "libpapi does not look up PMPI_Get_library_version"
bad=$(grep -E '^MPI_' <<<"$named")
[ -z "$bad" ] && ok "libpapi looks up no MPI_ name" || fail "libpapi names MPI_ functions: $(echo $bad)"
bad=$(nm -D --undefined-only "$lib" | awk '{ print $NF }' | grep -E '^P?MPI_')
[ -z "$bad" ] && ok "libpapi links no MPI symbol" || fail "libpapi imports $(echo $bad)"

# The report tool's interposer imports none of Open MPI's predefined handles
# (MPI_COMM_SELF, MPI_WIN_NULL, ... are objects in libmpi): preloaded into a
# program that loads its MPI later and privately (mpi4py), it would fail to
# load ("undefined symbol: ompi_mpi_comm_self"); report_handles.h looks them up
interposer=$MPIT_BUILDDIR/.libs/libpapi-mpit-report-$family.so
if [ "$family" = openmpi ] && [ -f "$interposer" ]; then
  bad=$(nm -D --undefined-only "$interposer" | awk '{ print $NF }' | grep -E '^(ompi|opal|orte)_')
  [ -z "$bad" ] && ok "the interposer imports no Open MPI object" \
    || fail "the interposer imports Open MPI's objects (report_handles.h is not included where they are used): $(echo $bad)"
fi
[ $fails -eq 0 ]
