#!/usr/bin/env python3
"""Checks the call sites of report_sites_libapp.c, whose MPI calls are made by
report_sites_lib.c (t_report_sites_lib.sh), in papi-mpit-report's report.json
and sites.csv.

    report_sites_lib_check.py SRCDIR DIR NPROCS MODE

MODE is what the run asked for:
  behind   the library named by --site-libs, the default depth: every call
           the library makes is charged to the program's line that called
           the library (its "site:" marker), with the library's line (its
           "lib:" marker) as the site's detail ("via"); the broadcasts that
           lib_bcast and lib_bcast2 make from one library line, in turn,
           stay apart by program line (a path learnt for one must not be
           taken for the other), and lib_vla_send's frame, whose size
           varies, still reaches the program
  depth2   the same with --site-depth 2: the broadcasts are two library
           frames deep, so its site stays the library's line, marked
           not_found; lib_send's (one frame) still reaches the program
  depth1   --site-depth 1: every library call stays at the library's line
           (not_found)
  own      no --site-libs: the library lies outside the system's library
           directories, so it is the program's own code and its lines are
           the sites ("own")
Everything is exact: the set of sites, each one's call, calls, messages
and bytes, how its program line was found and its detail.  Prints "ok:"
and "FAIL:" lines; exits 1 on any failure.
"""
import csv
import json
import os
import re
import sys

srcdir, outdir, nprocs, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
fails = 0


def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        fails += 1


def markers(name, tag):
    out = {}
    for n, t in enumerate(open(os.path.join(srcdir, name), encoding="utf-8"), 1):
        m = re.search(tag + r":(\w+) \*/", t)
        if m:
            out[m.group(1)] = n
    return out


APP, LIB = "report_sites_libapp.c", "report_sites_lib.c"
app, lib = markers(APP, "site"), markers(LIB, "lib")

# (file, line) -> (call, calls, msgs sent, bytes sent, msgs received, bytes received, program_line, via)
recv = {(APP, app["recv"]): ("MPI_Recv", 6, 0, 0, 6, 60, "own", None)}
B = 3 * nprocs  # broadcasts per program line; 4 bytes each at the root
behind_sends = {
    (APP, app["send_loop"]): ("MPI_Send", 3, 3, 30, 0, 0, "behind_library", (LIB, lib["send"])),
    (APP, app["send_once"]): ("MPI_Send", 1, 1, 20, 0, 0, "behind_library", (LIB, lib["send"])),
    (APP, app["vla_send"]): ("MPI_Send", 2, 2, 10, 0, 0, "behind_library", (LIB, lib["vla_send"])),
}
if mode == "behind":
    want = dict(behind_sends)
    want[(APP, app["bcast"])] = ("MPI_Bcast", B, 0, 12, 0, 0, "behind_library", (LIB, lib["bcast"]))
    want[(APP, app["bcast2"])] = ("MPI_Bcast", B, 0, 12, 0, 0, "behind_library", (LIB, lib["bcast"]))
elif mode == "depth2":
    want = dict(behind_sends)
    want[(LIB, lib["bcast"])] = ("MPI_Bcast", 2 * B, 0, 24, 0, 0, "not_found", None)
else:
    how = "not_found" if mode == "depth1" else "own"
    want = {
        (LIB, lib["send"]): ("MPI_Send", 4, 4, 50, 0, 0, how, None),
        (LIB, lib["vla_send"]): ("MPI_Send", 2, 2, 10, 0, 0, how, None),
        (LIB, lib["bcast"]): ("MPI_Bcast", 2 * B, 0, 24, 0, 0, how, None),
    }
want.update(recv)

doc = json.load(open(os.path.join(outdir, "report.json"), encoding="utf-8"))
sites = doc["call_sites"]["sites"]
got = {}
for s in sites:
    via = None
    if s["via"] is not None:
        via = (os.path.basename(s["via"]["file"]), s["via"]["line"])
    got[(os.path.basename(s["file"]), s["line"])] = (
        s["call"], s["calls"], s["messages_sent"], s["bytes_sent"], s["messages_received"],
        s["bytes_received"], s["program_line"], via)
check(len(got) == len(sites), f"{len(sites)} sites, each at its own line")
for k, v in sorted(want.items()):
    check(got.get(k) == v, f"{k[0]}:{k[1]}: {got.get(k)}, want {v}")
check(set(got) == set(want), f"the sites are {sorted(want)}; got {sorted(got)}")
check(doc["call_sites"]["depth"] == {"depth1": 1, "depth2": 2}.get(mode, 8),
      f"report.json's depth {doc['call_sites']['depth']}")

# sites.csv: the same sites, the library's line in "via" where the site is behind it
with open(os.path.join(outdir, "sites.csv"), newline="") as f:
    rows = list(csv.DictReader(f))
vias = sorted((os.path.basename(r["file"]), int(r["line"]), r["via"]) for r in rows)
want_vias = sorted((k[0], k[1], f"{v[7][0]}:{v[7][1]}" if v[7] else "") for k, v in want.items())
check(vias == want_vias, f"sites.csv (file, line, via) {vias}, want {want_vias}")
sys.exit(1 if fails else 0)
