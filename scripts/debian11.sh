#!/usr/bin/env bash
# The flavor "debian11": the project built and tested inside a Debian 11
# (bullseye) chroot, as a user there would build it.  Debian 11 (glibc 2.31,
# libpfm4 4.11, gcc 10, Open MPI 4.1.0, MPICH 3.4.1, Python 3.9) stands in
# for the older systems of HPC sites (RHEL 8/9, SLES 15).  It is older than
# this machine, so nothing built here runs there: unlike the trixie and sid
# flavors (host binaries in a newer chroot), the checkout is copied into the
# chroot and built there with the README's commands (./autogen.sh,
# ./configure, make, make install); then make check runs a subset of the
# tests on the chroot's own MPIs, which are there simply the flavors
# "openmpi" and "mpich".  Ends with "N passed, N failed, N skipped".
#   scripts/debian11.sh [build]   (root; scripts/chroot.sh make bullseye first;
#                                 build: the copy and the build, no test)
# PAPI_MPIT_DEBIAN11_FRESH=yes builds from an empty tree; otherwise the tree
# of the last run is updated in place (make rebuilds what changed), since
# PAPI's own build is most of the time.  MPIT_TESTS replaces the subset.
# The chroot's directory may be given as DEBIAN11_ROOT (a chroot made by hand).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
root=${DEBIAN11_ROOT:-$(bash "$here/chroot.sh" root bullseye)}
t0=$(date +%s)
say() { printf '[debian11 %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
fail() { say "$*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
[ -d "$root/usr" ] || fail "no chroot in $root (scripts/chroot.sh make bullseye)"

# The tests run there (MPIT_TESTS names), and why these:
# - the call sites in C, in a shared library, in Fortran (use mpi) and in
#   mpi4py: the report tool's own stack walk without _dl_find_object (glibc
#   2.31: its table of modules) and its wrappers built against each MPI;
# - unit/report-modules: that table against /proc/self/maps, on glibc 2.31;
# - the component on another ABI generation (MPICH 3.4, Open MPI 4.1.0):
#   events listed and read, paths, lifecycle and error answers.
# Left out: tests whose expectations name Debian 12's releases (flavors.sh
# labels "openmpi" and "mpich" as Open MPI 4.1.4 and MPICH 4.0.2: t_report_hang*,
# t_report_faults, t_hosts, t_object_events), those needing what the chroot
# lacks (Slurm, NetPIPE, hpcc, the site's tools, chromium, clang-format), and
# the rest for time.
tests=${MPIT_TESTS:-"report-modules t_report_sites t_report_sites_lib t_report_sites_fortran t_report_mpi4py
  t_events t_paths t_read_straight t_lifecycle t_errors t_names t_listing t_pmpi"}
tests=$(echo $tests)

# ---- the checkout, copied into the chroot's own filesystem (not bound:
# autogen.sh and an in-tree configure would write into the checkout).  Only
# the files whose content differs from the tree of the last run are copied:
# a clean clone's files are all new, and make would build PAPI again.
tree=$root/build/papi-mpit stage=$root/build/stage
[ "${PAPI_MPIT_DEBIAN11_FRESH:-no}" = yes ] && rm -rf "$tree"
rm -rf "$stage" && mkdir -p "$tree" "$stage" || fail "cannot write in $root/build"
# the checkout's files as git sees them (tracked and new, not ignored)
if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
  (cd "$top" && git ls-files -z --cached --others --exclude-standard | xargs -0 -r ls -d 2>/dev/null \
    | tar -cf - -T -) | tar -C "$stage" -xf - || fail "could not copy the checkout"
else
  tar -C "$top" --exclude=./_build --exclude=./.git -cf - . | tar -C "$stage" -xf - || fail "could not copy the checkout"
fi
# The checkout's file list of the last run (.checkout-files): a file it
# had that the checkout no longer has is removed from the tree (a deleted
# source left there would still be built: PAPI's component rules compile
# every .c).  A tree without that list is started afresh.
(cd "$stage" && find . -type f | LC_ALL=C sort) >"$root/build/checkout-files.new"
if [ ! -f "$tree/.checkout-files" ] && [ -e "$tree/configure.ac" ]; then
  say "no list of the checkout's files in $tree: building afresh"
  rm -rf "$tree" && mkdir -p "$tree"
fi
removed=0
if [ -f "$tree/.checkout-files" ]; then
  while IFS= read -r f; do
    rm -f "$tree/$f" && removed=$((removed + 1))
  done < <(LC_ALL=C comm -23 "$tree/.checkout-files" "$root/build/checkout-files.new")
fi
changed=0
while IFS= read -r -d '' f; do
  cmp -s "$stage/$f" "$tree/$f" && continue
  mkdir -p "$(dirname "$tree/$f")" && cp "$stage/$f" "$tree/$f" && changed=$((changed + 1))
done < <(cd "$stage" && find . -type f -print0)
mv "$root/build/checkout-files.new" "$tree/.checkout-files"
rm -rf "$stage"
say "$changed files of the checkout new or changed in $tree, $removed gone from it removed"

# MPICH 3.4's ch3 looks its host's name up (gethostbyname): debootstrap
# leaves no /etc/hosts, so the machine's, each run (CI's hostname varies)
cp /etc/hosts "$root/etc/hosts" 2>/dev/null || true

# in_chroot CMD: CMD in the chroot's tree, with a plain environment (nothing
# of this machine's PATH or build variables)
in_chroot() {
  bash "$here/chroot.sh" run "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
    bash -c "cd /build/papi-mpit && $1"
}

# ---- the README's commands ("Installing"), logs in the tree
say "building in $root/build/papi-mpit: ./autogen.sh, ./configure, make, make install"
tb=$(date +%s)
in_chroot '{ [ -x configure ] || ./autogen.sh; } >autogen.log 2>&1 || { tail -20 autogen.log; exit 1; }
  if [ ! -f Makefile ]; then ./configure --prefix=/opt/papi-mpit >configure.log 2>&1 || { tail -20 configure.log; exit 1; }; fi
  grep "^configure: " configure.log 2>/dev/null | tail -4
  make -j2 >make.log 2>&1 || { grep -m5 -B2 "error" make.log; tail -15 make.log; exit 1; }
  make install >install.log 2>&1 || { tail -15 install.log; exit 1; }' \
  || fail "the build in the chroot failed (logs: $tree/*.log)"
tt=$(date +%s)
say "built in $((tt - tb)) s"
# "scripts/debian11.sh build": the build alone (scripts/test.sh runs it in
# the background once the chroot is made, beside the other flavors' tests)
[ "${1:-}" = build ] && exit 0

# ---- the tests, on the chroot's Open MPI 4.1.0 and MPICH 3.4.1
say "make check: MPIT_FLAVORS=\"openmpi mpich\" MPIT_TESTS=\"$tests\""
in_chroot "MPIT_FLAVORS='openmpi mpich' MPIT_TESTS='$tests' make check >check.log 2>&1"
# each failure with the end of its log, as scripts/test.sh shows them
awk '/^(PASS|SKIP)/ { print; next } /^FAIL/ { print; tail = 1; n = 0; next }
     tail && /^    / && n < 15 { print; n++; next } { tail = 0 }' "$tree/check.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tree/check.log" | tail -1)
te=$(date +%s)
say "times: build $((tt - tb)) s, tests $((te - tt)) s, all $((te - t0)) s (log: $tree/check.log)"
echo "${line:-0 passed, 1 failed, 0 skipped}"
[ -n "$line" ] && grep -q ' 0 failed' <<<"$line"
