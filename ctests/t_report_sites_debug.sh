#!/usr/bin/env bash
# papi-mpit-report names the sites of a stripped program from its separate
# debug information (issue 43, item 4), and says which modules had no line
# information.  report_sites_libapp.c (with its library, report_sites_lib.c,
# which keeps -g) is built with -g, its debug information moved out and the
# program stripped of everything (symbols too), three ways:
# - by build id: the debug file at DIR/.build-id/xx/rest.debug, the layout
#   of Debian's debug packages under /usr/lib/debug, named with
#   --debug-dir DIR: every site at its exact line, as unstripped, and no
#   module without lines;
# - by .gnu_debuglink, the debug file next to the program: the same;
# - no debug file: the program's sites are module+offset (no line, no
#   function), and report.json's call_sites.modules_without_lines names the
#   program, and only it; report.txt says so in one line.
# scope: family (the program's debug information, not the MPI)
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/common/test_lib.sh"
report_tool || exit 1
test_workdir report-sites-debug || exit 1
command -v objcopy >/dev/null && command -v readelf >/dev/null \
  || { echo "SKIP binutils (objcopy, readelf) is not installed"; exit 77; }
$MPICC -g -O2 -fPIC -shared -fomit-frame-pointer -fno-optimize-sibling-calls -Wall -Wextra -I"$here" \
  "$here/report_sites_lib.c" -o libsitelib.so || { echo "FAIL: cannot build libsitelib.so"; exit 1; }
$MPICC -g -O0 -Wall -Wextra -Wl,--build-id -I"$here" "$here/report_sites_libapp.c" -L. -lsitelib \
  -Wl,-rpath,"$PWD" -o app_full || { echo "FAIL: cannot build report_sites_libapp"; exit 1; }
id=$(readelf -n app_full | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
[ -n "$id" ] || { echo "FAIL: no build id in app_full"; exit 1; }
mkdir -p dbg/.build-id/${id:0:2}
objcopy --only-keep-debug app_full dbg/.build-id/${id:0:2}/${id:2}.debug || exit 1
cp app_full app_buildid && strip app_buildid || exit 1
cp app_full app_link && objcopy --only-keep-debug app_full app_link.debug && strip app_link \
  && objcopy --add-gnu-debuglink=app_link.debug app_link || exit 1
cp app_buildid app_none || exit 1
np=2
run() { # OUT PROGRAM [OPTIONS...]
  local out=$1 prog=$2; shift 2
  timeout 120 $MPIRUN $MPIRUN_OPTS -np $np "$wrap" -q -o "$out" --site-libs 'libsitelib*' "$@" "./$prog" \
    >"$out.out" 2>"$out.err"
}
check() { # DIR PROGRAM MODE: named | none
  python3 - "$1" "$PWD/$2" "$3" "$here" $np <<'PY'
import json, os, re, sys
out, prog, mode, src, np = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5])
lines = {}
for n, t in enumerate(open(os.path.join(src, "report_sites_libapp.c")), 1):
    m = re.search(r"site:(\w+) \*/", t)
    if m:
        lines[m.group(1)] = n
doc = json.load(open(os.path.join(out, "report.json")))
cs = doc["call_sites"]
got = sorted((s["label"], s["call"], s["calls"]) for s in cs["sites"])
if mode == "named":
    want = sorted([("report_sites_libapp.c:%d" % lines["send_loop"], "MPI_Send", 3),
                   ("report_sites_libapp.c:%d" % lines["send_once"], "MPI_Send", 1),
                   ("report_sites_libapp.c:%d" % lines["vla_send"], "MPI_Send", 2),
                   ("report_sites_libapp.c:%d" % lines["recv"], "MPI_Recv", 6),
                   ("report_sites_libapp.c:%d" % lines["bcast"], "MPI_Bcast", 3 * np),
                   ("report_sites_libapp.c:%d" % lines["bcast2"], "MPI_Bcast", 3 * np)])
    assert got == want, (got, want)
    assert cs["modules_without_lines"] == [], cs["modules_without_lines"]
else:
    base = os.path.basename(prog)
    assert all(s["line"] == 0 and s["file"] == "" and s["function"] == "" and s["label"].startswith(base + "+0x")
               for s in cs["sites"]), got
    assert sorted((s["call"], s["calls"]) for s in cs["sites"]) == sorted(
        [("MPI_Send", 3), ("MPI_Send", 1), ("MPI_Send", 2), ("MPI_Recv", 6), ("MPI_Bcast", 3 * np),
         ("MPI_Bcast", 3 * np)]), got
    assert cs["modules_without_lines"] == [prog], cs["modules_without_lines"]
    txt = open(os.path.join(out, "report.txt")).read()
    assert "no line information for %s" % prog in txt, "report.txt says nothing of it"
print(got)
PY
}
run buildid app_buildid --debug-dir "$PWD/dbg" && check buildid app_buildid named >buildid.check 2>&1 \
  && ok "build id (--debug-dir): every site at its line, no module without lines" \
  || { fail "build id"; cat buildid.check; tail -5 buildid.err; }
run link app_link && check link app_link named >link.check 2>&1 \
  && ok ".gnu_debuglink: every site at its line" || { fail ".gnu_debuglink"; cat link.check; tail -5 link.err; }
run none app_none && check none app_none none >none.check 2>&1 \
  && ok "no debug file: module+offset, the program named as without line information" \
  || { fail "no debug file"; cat none.check; tail -5 none.err; }
[ $fails = 0 ]
