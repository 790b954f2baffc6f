#!/usr/bin/env python3
"""Loads a timeline.json of papi-mpit-report --merge into Chromium's own
trace viewer, headless, and checks that what it parsed is the file's events:

  trace_chromium_check.py TIMELINE.json [SCREENSHOT.png]

Chromium has no chrome://tracing any more (the page answers ERR_FAILED); its
trace viewer is the DevTools Performance panel, bundled in the browser as
devtools://devtools/bundled/trace_app.html.  In that page the checker runs
(trace_chromium_probe.js):

- the panel's trace model (models/trace: TraceModel.Model with all its
  handlers) on the file's events, and reads back every process and thread
  with its slices (name, begin, duration, args), the process and thread
  names, the trace's bounds and the threads the panel makes a track of;
- the Performance panel itself, loading the same events, and reads back its
  flame chart: the track names and every slice drawn (title, begin, width,
  and the event it stands for).

Both must hold exactly the file's calls: per rank (pid) and thread (tid) the
same number of slices, names, begins and durations (the model's
microseconds equal to the file's; the flame chart's milliseconds to the
nanosecond), args unchanged; the call in progress (a "B" with no "E") a
slice of duration 0 at its begin, with in_progress in its args; the tracks
named by the file's process_name and thread_name, one a thread with calls,
the ranks in the order of their process_sort_index; the trace's bounds the
earliest begin and the latest end in the file.  The file itself must name
every process and thread with calls and have no negative duration.  Prints
what the viewer parsed, per rank and thread.  Exit 0 when all agree, 1 on
a difference or when Chromium fails, 77 when Chromium is not installed.

Talks to Chromium over its DevTools pipe (report_html_check.Browser).
"""
import base64
import json
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_html_check import Browser  # noqa: E402

VIEWER = "devtools://devtools/bundled/trace_app.html"
PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "trace_chromium_probe.js")

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def expected(doc):
    """The slices a trace viewer must make of the file: per (pid, tid) the
    complete events, and each begin matched with the next end of its thread
    (an unmatched begin: a slice of duration 0, the Performance panel's
    reading of a call that has not ended), in order of begin; and what is
    wrong with the file whatever the viewer makes of it (a thread or process
    with no name, a negative duration)."""
    threads, stacks, pnames, tnames, order, problems = {}, {}, {}, {}, {}, []
    for e in doc["traceEvents"]:
        ph, key = e.get("ph"), (e.get("pid"), e.get("tid"))
        if ph == "M" and e.get("name") == "process_name":
            pnames[e["pid"]] = e["args"]["name"]
        elif ph == "M" and e.get("name") == "process_sort_index":
            order[e["pid"]] = e["args"]["sort_index"]
        elif ph == "M" and e.get("name") == "thread_name":
            tnames[key] = e["args"]["name"]
        elif ph == "X":
            threads.setdefault(key, []).append([e["name"], e["ts"], e["dur"], e.get("args", {})])
        elif ph == "B":
            s = [e["name"], e["ts"], 0, e.get("args", {})]
            threads.setdefault(key, []).append(s)
            stacks.setdefault(key, []).append(s)
        elif ph == "E" and stacks.get(key):
            s = stacks[key].pop()
            s[2] = e["ts"] - s[1]
    for sl in threads.values():
        sl.sort(key=lambda s: (s[1], -s[2]))
    for key, sl in threads.items():  # what the viewer shows as given, the file must get right
        if key[0] not in pnames:
            problems.append("pid %s has slices and no process_name" % key[0])
        if key not in tnames:
            problems.append("pid %s tid %s has slices and no thread_name" % key)
        problems += ["pid %s tid %s: %s at %s lasts %s µs" % (key + (s[0], s[1], s[2])) for s in sl if s[2] < 0]
    ends = [s[1] + s[2] for sl in threads.values() for s in sl]
    begins = [s[1] for sl in threads.values() for s in sl]
    bounds = (min(begins), max(ends)) if begins else None
    return threads, pnames, tnames, order, bounds, problems


def show(s):
    return "%s@%.3f+%s" % (s[0], s[1], ("%.3f" % s[2]) if not s[3].get("in_progress") else "(in progress)")


def run_viewer(exe, path):
    with open(PROBE) as f:
        probe = f.read()
    with open(path) as f:
        text = f.read()
    b = Browser(exe)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Page.enable", session=s)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": False}, session=s)
        nav = b.send("Page.navigate", {"url": VIEWER}, session=s)
        if nav.get("errorText"):
            raise RuntimeError("Chromium cannot open %s: %s" % (VIEWER, nav["errorText"]))
        b.wait_for("Page.loadEventFired")
        r = b.send("Runtime.evaluate", {"expression": "(%s)(%s)" % (probe.strip().rstrip(";"), json.dumps(text)),
                                        "returnByValue": True, "awaitPromise": True}, session=s)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise RuntimeError("the viewer threw: %s" % (d.get("exception", {}).get("description") or d.get("text")))
        got = json.loads(r["result"]["value"])
        png = b.send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
    finally:
        b.close()
    return got, base64.b64decode(png)


def check_model(got, threads, pnames, tnames, bounds):
    model = {(t["pid"], t["tid"]): t for t in got["model"]}
    want_keys, got_keys = set(threads), {k for k, t in model.items() if t["slices"]}
    if got_keys != want_keys:
        fail("the model's threads with slices %s, the file's %s" % (sorted(got_keys), sorted(want_keys)))
    for key in sorted(want_keys & got_keys, key=str):
        pid, tid = key
        t, want = model[key], threads[key]
        have = [[s["name"], s["ts"], s["dur"], s["args"]] for s in t["slices"]]
        label = "rank pid %s thread tid %s" % (pid, tid)
        if len(have) != len(want):
            fail("%s: the model has %d slices, the file %d" % (label, len(have), len(want)))
        for i, (h, w) in enumerate(zip(have, want)):
            if h != w:
                fail("%s slice %d: the model has %s %s, the file %s %s" % (label, i, show(h), h[3], show(w), w[3]))
        if [s["ph"] for s in t["slices"]] != ["X"] * len(have):
            fail("%s: slices of phases %s, not all complete" % (label, [s["ph"] for s in t["slices"]]))
        if got["processNames"].get(str(pid)) != pnames.get(pid):
            fail("%s: process name %r, the file's %r" % (label, got["processNames"].get(str(pid)), pnames.get(pid)))
        if t["name"] != tnames.get(key):
            fail("%s: thread name %r, the file's %r" % (label, t["name"], tnames.get(key)))
        print("model: %s [pid %s] / %s [tid %s]: %d slices: %s" % (
            got["processNames"].get(str(pid)), pid, t["name"], tid, len(have), " ".join(show(h) for h in have)))
    tracks = {(t["pid"], t["tid"]) for t in got["tracks"]}
    if not want_keys <= tracks:
        fail("the panel makes no track of %s (its tracks: %s)" % (sorted(want_keys - tracks, key=str), got["tracks"]))
    b = got["bounds"]
    if bounds and (b["min"], b["max"]) != bounds:
        fail("the trace's bounds in the model %s..%s µs, the file's events %s..%s µs%s" % (
            b["min"], b["max"], bounds[0], bounds[1],
            " (the model leaves events at ts 0 out of the bounds: the viewer cuts what begins at 0)"
            if bounds[0] == 0 else ""))
    else:
        print("model: the trace spans %s..%s µs" % (b["min"], b["max"]))


def check_panel(got, threads, pnames, tnames, order):
    panel = got["panel"]
    if panel.get("error"):
        fail("the Performance panel: " + panel["error"])
        return
    names = [g["name"] for g in panel["groups"]]
    wanted = [pnames[pid] for pid in sorted({k[0] for k in threads}) if pid in pnames]
    wanted += [tnames[key] for key in sorted(threads, key=str) if key in tnames]
    for name in wanted:  # the panel adds " (pid)" or " (tid)" to a name
        if not any(n.startswith(name) for n in names):
            fail("the panel has no track named %r (its tracks: %s)" % (name, names))
    ranks = sorted({k[0] for k in threads if k[0] in pnames}, key=lambda pid: (order.get(pid, pid), pid))
    at = [next((i for i, n in enumerate(names) if n.startswith(pnames[pid] + " (")), -1) for pid in ranks]
    if at != sorted(at):
        fail("the panel's process tracks are not in the file's process_sort_index order: %s" % names)
    drawn = {}
    for e in panel["entries"]:
        drawn.setdefault((e["pid"], e["tid"]), []).append(e)
    for key in sorted(threads, key=str):
        want, have = threads[key], drawn.get(key, [])
        label = "rank pid %s thread tid %s" % key
        if len(have) != len(want):
            fail("%s: the panel draws %d slices, the file has %d" % (label, len(have), len(want)))
            continue
        for i, (h, w) in enumerate(zip(have, want)):
            ok = (h["title"] == w[0] and math.isclose(h["start"] * 1e3, w[1], abs_tol=1e-3)
                  and (math.isclose(h["width"] * 1e3, w[2], abs_tol=1e-3) or w[3].get("in_progress")))
            if not ok:
                fail("%s slice %d: the panel draws %s at %.6f ms, %.6f ms wide; the file has %s" % (
                    label, i, h["title"], h["start"], h["width"], show(w)))
        open_ = [h for h, w in zip(have, want) if w[3].get("in_progress")]
        print("panel: %s: %d slices drawn%s" % (
            label, len(have), "".join(", %s in progress at %.6f ms, %.6f ms wide" % (h["title"], h["start"], h["width"])
                                      for h in open_)))
    print("panel: tracks %s" % names)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    path = sys.argv[1]
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("SKIP chromium is not installed (scripts/deps.sh installs it)")
        sys.exit(77)
    try:
        with open(path) as f:
            doc = json.load(f)
        threads, pnames, tnames, order, bounds, problems = expected(doc)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("FAIL: %s is not a trace this checker reads: %s: %s" % (path, type(e).__name__, e))
        sys.exit(1)
    for p in problems:
        fail("%s: %s" % (path, p))
    try:
        got, png = run_viewer(exe, path)
    except (RuntimeError, OSError, ValueError, KeyError) as e:
        print("FAIL: Chromium's trace viewer: %s" % e)
        sys.exit(1)
    if got.get("error"):
        print("FAIL: Chromium's trace viewer: " + got["error"])
        sys.exit(1)
    if len(sys.argv) == 3:
        with open(sys.argv[2], "wb") as f:
            f.write(png)
    check_model(got, threads, pnames, tnames, bounds)
    check_panel(got, threads, pnames, tnames, order)
    if failures:
        print("%d difference(s) between %s and what Chromium's trace viewer made of it" % (len(failures), path))
        sys.exit(1)
    print("ok: Chromium's trace viewer holds %s's %d slices on %d threads of %d ranks, as written" % (
        path, sum(len(v) for v in threads.values()), len(threads), len({k[0] for k in threads})))


if __name__ == "__main__":
    main()
