#!/usr/bin/env bash
# components/mpit/ copied unchanged into each pristine PAPI source tree there
# is in the cache (7.0.0, bookworm's source package; 7.2.0, sid's upstream tarball)
# builds with PAPI's own ./configure --with-components=mpit && make && make
# install (components/mpit/README.md, "Enabling the MPIT Component"), with no
# help from papi-mpit's build: libpapi has mpit inside; the backend modules,
# built by Rules.mpit against each MPI family's mpi.h (found by pkg-config),
# sit in lib/papi-mpit; papi_component_avail shows mpit active and
# papi_native_avail lists its events, with Debian's Open MPI as the MPI a
# process without MPI loads for the listing, and MPICH's backend loads too.
#
# Builds each PAPI once (about 1-2 minutes each on 2 cores), on the Debian
# Open MPI flavor only: the tree does not depend on the flavor.
# flavors: openmpi
# timeout: 1500
#
# Run by ctests/run.sh (environment: MPIT_SRCDIR BIN), in $BIN.
# scope: family (PAPI's own build of the component, on this machine: the same for every flavor)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
# the "flavors:" line names a kind: the distributions' Open MPIs in the
# chroots are of it too, yet nothing here runs in their chroot
[ "$FLAVOR" = openmpi ] || { echo "SKIP $FLAVOR: the trees are built and run on this machine, the same for every flavor (run on flavor openmpi)"; exit 77; }
src=${MPIT_SRCDIR:-$(dirname "$here")}
cache=$(sh "$src/scripts/cache-dir.sh")
# the pristine trees: tarball and the directory it unpacks to
trees=()
[ -f "$cache/src/papi/papi_7.0.0.orig.tar.gz" ] && trees+=("$cache/src/papi/papi_7.0.0.orig.tar.gz:papi-7.0.0")
t72=$cache/src/papi-7.2.0/papi_7.2.0.orig.tar.gz
[ -f "$t72" ] && trees+=("$t72:$(tar -tzf "$t72" | head -1 | cut -d/ -f1)")
[ ${#trees[@]} -gt 0 ] || { echo "SKIP no pristine PAPI source in $cache/src (scripts/deps.sh sources, papi72-source)"; exit 77; }
for pc in ompi-c mpich; do
  pkg-config --exists $pc || { echo "SKIP pkg-config knows no $pc (libopenmpi-dev, libmpich-dev)"; exit 77; }
done
test_workdir papi_tree || exit 1
top_work=$work

# Nothing of papi-mpit's build may leak in: its libpapi, backends, default MPI.
unset LD_LIBRARY_PATH PAPI_MPIT_BACKEND_DIR PAPI_MPIT_LIBMPI PKG_CONFIG_PATH MAKEFLAGS

check_tree() { # check_tree TARBALL DIR: the component in that PAPI's own tree
local tarball=$1
work=$top_work/$2
mkdir -p "$work" && cd "$work" || exit 1
echo "---- $2"
tar -xzf "$tarball" || { echo "FAIL: cannot unpack $tarball"; exit 1; }
tree=$work/$2/src
prefix=$work/prefix
cp -R "$src/components/mpit" "$tree/components/"
diff -r "$src/components/mpit" "$tree/components/mpit" >/dev/null && ok "component copied unchanged" \
  || fail "the copy of components/mpit differs from the source"

start=$SECONDS
step() { # step NAME COMMAND...: runs in the tree, log in $work/NAME.log
  local name=$1; shift
  if (cd "$tree" && "$@") >"$work/$name.log" 2>&1; then ok "$name"
  else echo "FAIL: $name (log $work/$name.log)"; tail -20 "$work/$name.log"; exit 1; fi
}
# PAPI's own tests (ctests, ftests, mpitests) are not built: they do not
# touch the component and took most of the time; the components' tests
# (comp_tests), the mpit component's unit tests among them, are
step configure ./configure --prefix="$prefix" --with-components=mpit --with-tests=comp_tests
step make make -j2
step install make install
echo "PAPI tree built and installed in $((SECONDS - start)) s"
for t in test_names test_engine; do
  [ -x "$tree/components/mpit/tests/$t" ] && ok "PAPI's comp_tests built the component's $t" \
    || fail "PAPI's comp_tests did not build components/mpit/tests/$t"
done

# every component source in libpapi, each backend against its own family's mpi.h
for c in "$tree"/components/mpit/*.c; do
  grep -q "components/mpit/$(basename "$c")" "$work/make.log" || fail "$(basename "$c") not compiled into libpapi"
done
for pair in openmpi:ompi-c mpich:mpich; do
  abi=${pair%%:*} pc=${pair#*:}
  inc=$(pkg-config --variable=includedir "$pc")
  module=$prefix/lib/papi-mpit/mpit_backend_$abi.so
  line=$(grep -B1 -- "-o mpit_backend_$abi.so" "$work/make.log" | tr "\n" " ")
  case $line in *"-I$inc "*) ok "$abi backend built against $inc" ;;
    *) fail "$abi backend not built with -I$inc: $line" ;; esac
  if [ -f "$module" ]; then ok "installed $module"; else fail "$module not installed"; continue; fi
  # MPI left to the process: no libmpi linked, PMPI_T_ calls undefined
  readelf -d "$module" | grep -q 'NEEDED.*libmpi' && fail "$abi backend links an MPI library"
  nm -D --undefined-only "$module" | grep -q ' PMPI_T_init_thread$' \
    || fail "$abi backend does not call PMPI_T_init_thread"
done

export LD_LIBRARY_PATH=$prefix/lib
# mpit active and listing with the default MPI (Debian's Open MPI)
"$prefix/bin/papi_component_avail" >"$work/component_avail.log" 2>&1 || fail "papi_component_avail failed"
sed -n '/^Active components:/,$p' "$work/component_avail.log" | grep -A1 '^Name: *mpit ' >"$work/mpit_active.txt"
native=$(sed -n 's/^ *Native: *\([0-9]*\),.*/\1/p' "$work/mpit_active.txt")
if [ "${native:-0}" -gt 0 ]; then ok "mpit active with $native native events"
else fail "mpit not active in papi_component_avail (log $work/component_avail.log)"; fi
"$prefix/bin/papi_native_avail" -i mpit >"$work/native_avail.log" 2>&1 || fail "papi_native_avail failed"
# an Open MPI pvar and a portable metric
for ev in mpit:::pml_ob1_unexpected_msgq_length mpit:::UNEXPECTED_QUEUE_LENGTH; do
  grep -q "| $ev  *|" "$work/native_avail.log" && ok "papi_native_avail lists $ev" \
    || fail "papi_native_avail does not list $ev (log $work/native_avail.log)"
done
listed=$(grep -c '| mpit:::' "$work/native_avail.log")
[ "$listed" -eq "$native" ] || fail "papi_native_avail lists $listed mpit events, papi_component_avail counts $native"
# the MPICH backend loads when MPICH is the MPI listed
PAPI_MPIT_LIBMPI=libmpich.so.12 "$prefix/bin/papi_component_avail" >"$work/component_avail_mpich.log" 2>&1
if grep -A1 '^Name: *mpit ' "$work/component_avail_mpich.log" | grep -q 'Disabled'; then
  fail "mpit disabled with MPICH: $(grep -A1 '^Name: *mpit ' "$work/component_avail_mpich.log" | tail -1)"
else ok "mpit enabled with MPICH as the listing MPI"; fi

rm -rf "$work/$2"   # about 600 MB
}

for t in "${trees[@]}"; do
  check_tree "${t%%:*}" "${t#*:}"
done
[ $fails -eq 0 ] || exit 1
rm -rf "$top_work"
exit 0
