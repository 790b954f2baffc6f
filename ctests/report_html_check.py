#!/usr/bin/env python3
"""Opens papi-mpit-report's report.html in headless Chromium and checks it
against report.json, written from the same data:

  report_html_check.py DIR SCREENSHOT.png [--expect-senders] [--drawn EVENT]...

- the page loads with no script error (exceptions and console errors);
- the overview heatmap has a row per event that is not 0 everywhere, most
  uneven (max/mean) first, and a cell per rank (per group of ranks beyond
  256, as the page says), whose data-v is the rank's value in report.json
  (the group's largest); the all-zero events are named below, not drawn;
- the summary table's min, mean, max, their ranks and max/mean equal
  report.json, and clicking "max/mean" sorts the table by it;
- every skipped event is listed with its reason; the sender table's totals
  are the matrix rows' sums, and the sentence at the top names the receiver
  with the most unexpected messages and its largest sender; the run's facts
  name the ranks; each --drawn EVENT is a row of the heatmap;
- a screenshot of the top of the page (1280 px wide) goes to SCREENSHOT.

Talks to Chromium over its DevTools pipe (--remote-debugging-pipe: fd 3 in,
fd 4 out, JSON messages ending in a NUL), with the standard library only.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import base64
import fcntl

PROBE = r"""
(function(){
  var ov = document.querySelector('svg.overview');
  var rows = [].map.call(ov ? ov.querySelectorAll('g.row') : [], function(g){
    return {name: g.getAttribute('data-name'),
            cells: [].map.call(g.querySelectorAll('rect.cell'), function(c){
              return [c.getAttribute('data-r'), c.getAttribute('data-v')]; })}; });
  var zeros = [].map.call(ov ? ov.querySelectorAll('.zeros tspan.name') : [], function(t){ return t.textContent; });
  function table(id){
    var t = document.getElementById(id); if (!t) return null;
    return [].map.call(t.tBodies[0].rows, function(r){
      return [].map.call(r.cells, function(c){
        return c.hasAttribute('data-v') ? ['v', c.getAttribute('data-v'), c.textContent, c.getAttribute('title')] : ['t', c.textContent]; }); });
  }
  return JSON.stringify({rows: rows, zeros: zeros, summary: table('summary-table'),
    skipped: table('skipped-table'), senders: table('senders-table'),
    groups_np: [].map.call(document.querySelectorAll('#not-provided-groups li'), function(li){
      return [li.getAttribute('data-names'), li.textContent]; }),
    pointer: (document.getElementById('not-provided')||{}).textContent,
    groups: !!(ov && ov.querySelector('.groups')), ranks: (document.getElementById('ranks')||{}).textContent,
    glance: (document.getElementById('glance')||{}).textContent,
    senders_svg: document.querySelectorAll('#senders ~ svg rect').length,
    panels: [].map.call(document.querySelectorAll('svg.panel'), function(s){ return s.getAttribute('data-name'); })});
})()
"""

LAYOUT = r"""
(() => {
  const top = id => { const e = document.getElementById(id); return e ? e.getBoundingClientRect().top + window.scrollY : null; };
  const ids = ["findings", "sites", "p2p-heatmap", "counters", "skipped", "run"];
  const cells = [...document.querySelectorAll("#p2p-heatmap rect.cell")].map(c => c.querySelector("title").textContent);
  const nav = [...document.querySelectorAll("nav a")].map(a => a.getAttribute("href").slice(1));
  const folded = !!document.querySelector("#skipped + details") || !document.getElementById("skipped");
  return JSON.stringify({tops: Object.fromEntries(ids.map(i => [i, top(i)])), cells, nav, folded,
                         navtops: nav.map(top),
                         screen: window.innerHeight});
})()
"""

SORT = r"""
(function(){
  var t = document.getElementById('summary-table');
  var th = [].filter.call(t.tHead.rows[0].cells, function(h){ return h.textContent.indexOf('max/mean') == 0; })[0];
  var col = [].indexOf.call(t.tHead.rows[0].cells, th);
  th.click(); th.click();  /* ascending, then descending */
  return JSON.stringify([].map.call(t.tBodies[0].rows, function(r){
    var c = r.cells[col]; return c.hasAttribute('data-v') ? parseFloat(c.getAttribute('data-v')) : null; }));
})()
"""

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


class Browser:
    def __init__(self, exe):
        self.profile = tempfile.mkdtemp(prefix="report-html-")
        r_in, self.w = os.pipe()   # we write, Chromium reads fd 3
        self.r, w_out = os.pipe()  # Chromium writes fd 4, we read

        def fds():  # in the child: the pipe's ends as fds 3 and 4, whatever their numbers were
            a, b = fcntl.fcntl(r_in, fcntl.F_DUPFD, 10), fcntl.fcntl(w_out, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--user-data-dir=" + self.profile, "--no-first-run", "--hide-scrollbars",
             "--allow-file-access-from-files", "about:blank"],
            pass_fds=(3, 4), preexec_fn=fds, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(r_in)
        os.close(w_out)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.r, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe: " + self.proc.stderr.read().decode()[-2000:])
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=None):
        self.next_id += 1
        m = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            m["sessionId"] = session
        os.write(self.w, json.dumps(m).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method):
        for i, e in enumerate(self.events):
            if e.get("method") == method:
                return self.events.pop(i)
        while True:
            e = self._read()
            if e.get("method") == method:
                return e
            self.events.append(e)

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def num(s):
    return None if s is None else float(s)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, shot = sys.argv[1], sys.argv[2]
    expect_senders = "--expect-senders" in sys.argv[3:]
    must_draw = [sys.argv[i + 1] for i in range(3, len(sys.argv) - 1) if sys.argv[i] == "--drawn"]
    rep = json.load(open(os.path.join(d, "report.json")))
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("SKIP chromium is not installed (scripts/deps.sh installs it)")
        sys.exit(77)
    b = Browser(exe)
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for dom in ("Page", "Runtime", "Log"):
            b.send(dom + ".enable", session=s)
        b.send("Emulation.setDeviceMetricsOverride",
               {"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": False}, session=s)
        b.send("Page.navigate", {"url": "file://" + os.path.abspath(os.path.join(d, "report.html"))}, session=s)
        b.wait_for("Page.loadEventFired")
        got = json.loads(b.send("Runtime.evaluate", {"expression": PROBE, "returnByValue": True},
                                session=s)["result"]["value"])
        layout = json.loads(b.send("Runtime.evaluate", {"expression": LAYOUT, "returnByValue": True},
                                   session=s)["result"]["value"])
        order = json.loads(b.send("Runtime.evaluate", {"expression": SORT, "returnByValue": True},
                                  session=s)["result"]["value"])
        b.send("Runtime.evaluate", {"expression": "window.scrollTo(0,0)"}, session=s)
        png = b.send("Page.captureScreenshot", {"format": "png"}, session=s)["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        b.send("Runtime.evaluate", {"expression": "1"}, session=s)  # let late messages arrive
        errors = []
        for e in b.events:
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                errors.append(p["exceptionDetails"].get("exception", {}).get("description")
                              or p["exceptionDetails"].get("text"))
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console: %r" % [a.get("value") for a in p.get("args", [])])
            elif m == "Log.entryAdded" and p["entry"].get("level") == "error":
                errors.append("log: " + p["entry"].get("text", ""))
    finally:
        b.close()

    if errors:
        fail("script errors: %s" % errors)
    else:
        print("ok: no script error")

    # the page in the order of what the run shows: findings, call sites and
    # the program's matrix as a heatmap within the first two screens, the
    # MPI's own counters, then what was not measured, folded; the nav in
    # the page's order; a heatmap cell per pair of report.json's program_matrix
    tops = layout["tops"]
    has_sites = bool((rep.get("call_sites") or {}).get("sites"))
    lead = ["findings", "sites", "p2p-heatmap"] if has_sites else []
    seq = [i for i in ["findings", "sites", "p2p-heatmap", "counters", "skipped", "run"] if tops[i] is not None]
    if [i for i in sorted(seq, key=lambda i: tops[i])] != seq or seq[:len(lead)] != lead:
        fail("sections out of order: %s" % tops)
    elif has_sites and tops["p2p-heatmap"] > 2 * layout["screen"]:
        fail("the program's matrix starts at %d px, beyond two screens of %d" % (tops["p2p-heatmap"], layout["screen"]))
    elif has_sites:
        print("ok: findings, call sites, the program's matrix (at %d px), counters, not measured" % tops["p2p-heatmap"])
    else:
        print("ok: no call sites: the counters, then not measured")
    navtops = [(i, y) for i, y in zip(layout["nav"], layout["navtops"]) if y is not None]
    if [y for _, y in navtops] != sorted(y for _, y in navtops):
        fail("the nav does not follow the page: %s" % navtops)
    if not layout["folded"]:
        fail("Not measured is not folded")
    pm = (rep.get("program_matrix") or {}).get("cells") or []
    want_cells = sorted("%d to %d: %d message%s, %d byte%s" % (c["sender"], c["receiver"], c["messages"],
                        "" if c["messages"] == 1 else "s", c["bytes"], "" if c["bytes"] == 1 else "s")
                        for c in pm) if rep["ranks"] <= 128 else None
    if want_cells is not None and sorted(layout["cells"]) != want_cells:
        fail("program matrix heatmap cells %s, report.json %s" % (layout["cells"][:4], want_cells[:4]))
    else:
        print("ok: the program's matrix heatmap: %d cells" % len(layout["cells"]))

    n = rep["ranks"]
    events = {e["name"]: e for e in rep["events"]}
    drawn = [e for e in rep["events"] if e["measured_ranks"] and not (e["min"] == 0 and e["max"] == 0)]
    zeros = [e["name"] for e in rep["events"] if e["measured_ranks"] and e["min"] == 0 and e["max"] == 0]
    g = 1 if n <= 256 else -(-n // 256)
    ncols = -(-n // g)
    # rows: the drawn events, by max/mean descending (stable)
    want = [e["name"] for e in sorted(drawn, key=lambda e: -(e["imbalance"] or 0))]
    if [r["name"] for r in got["rows"]] != want:
        fail("heatmap rows %s, expected %s" % ([r["name"] for r in got["rows"]], want))
    cells = 0
    for row in got["rows"]:
        e = events.get(row["name"])
        if e is None or len(row["cells"]) != ncols:
            fail("row %s: %d cells, expected %d" % (row["name"], len(row["cells"]), ncols))
            continue
        for c, (rr, v) in enumerate(row["cells"]):
            lo, hi = c * g, min(n, (c + 1) * g) - 1
            label = str(lo) if g == 1 else "%d-%d" % (lo, hi)
            vals = [x for x in e["values"][lo:hi + 1] if x is not None]
            expect = max(vals) if vals else None
            if rr != label or num(v) != expect:
                fail("%s cell %d: rank %s value %s, report.json %s %s" % (row["name"], c, rr, v, label, expect))
                break
            cells += 1
    print("ok: heatmap %d rows x %d columns (%s), %d cells equal report.json"
          % (len(got["rows"]), ncols, "a column per rank" if g == 1 else "groups of %d ranks" % g, cells))
    for name in must_draw:
        if name not in [r["name"] for r in got["rows"]]:
            fail("%s is not drawn in the heatmap (report.json: %s)" % (name, events.get(name)))
    if got["groups"] != (g > 1):
        fail("the page %s rank groups" % ("does not say it uses" if g > 1 else "speaks of"))
    if sorted(got["zeros"]) != sorted(zeros):
        fail("all-zero events named %s, report.json has %s" % (got["zeros"], zeros))
    else:
        print("ok: all-zero events on one line: %s" % (", ".join(zeros) or "(none)"))

    # summary table: name units min rank mean max rank max/mean measured
    seen = set()
    for row in got["summary"]:
        name = row[0][1]
        seen.add(name)
        e = events.get(name)
        if e is None:
            fail("summary row %s not in report.json" % name)
            continue
        if not e["measured_ranks"]:
            continue
        pairs = [("min", 2), ("min_rank", 3), ("mean", 4), ("max", 5), ("max_rank", 6)]
        for key, col in pairs:
            if row[col][0] != "v" or num(row[col][1]) != e[key]:
                fail("summary %s %s: %s, report.json %s" % (name, key, row[col], e[key]))
        imb = row[7][1] if row[7][0] == "v" else None
        if num(imb) != e.get("imbalance"):
            fail("summary %s max/mean: %s, report.json %s" % (name, imb, e.get("imbalance")))
        # bytes and times for people (KiB, ms), the exact value in the tooltip; counts exact
        if e["units"] in ("bytes", "ns", "us", "s"):
            if row[5][3] != "%s %s" % (row[5][1], e["units"]):
                fail("summary %s: max's tooltip %r, exact %s %s" % (name, row[5][3], row[5][1], e["units"]))
        elif e["type"] == "integer" and row[5][2] != "%d" % e["max"]:
            fail("summary %s: max shown as %s, report.json %s" % (name, row[5][2], e["max"]))
    if seen != set(events):
        fail("summary rows %s, report.json events %s" % (sorted(seen), sorted(events)))
    else:
        print("ok: summary table of %d events equals report.json" % len(seen))
    vals = [v for v in order if v is not None]
    if vals != sorted(vals, reverse=True) or order[len(vals):] != [None] * (len(order) - len(vals)):
        fail("sorting by max/mean: %s" % order)
    else:
        print("ok: the table sorts by max/mean")

    # the default metrics this MPI cannot give: once, in a line per reason
    # (the reason without its leading "NAME is not available ...: "); the
    # other skipped events in the table with their own reason
    listed = {r[0][1]: r[1][1] for r in (got["skipped"] or [])}
    groups = got["groups_np"] or []
    for sk in rep["skipped"]:
        if sk.get("default"):
            short = sk["name"].split(":::")[-1]
            cause = sk["reason"]
            if cause.startswith(short + " ") and ": " in cause:
                cause = cause.split(": ", 1)[1]
            if cause.startswith("it needs "):
                cause = cause[len("it "):]
            lines = [t for names, t in groups if sk["name"] in names.split()]
            if len(lines) != 1 or cause.split(" ", 1)[-1] not in lines[0] or sk["name"] in listed:
                fail("default %s: lines %r, reason %r" % (sk["name"], lines, sk["reason"]))
        elif listed.get(sk["name"]) != sk["reason"]:
            fail("skipped %s: page says %r, report.json %r" % (sk["name"], listed.get(sk["name"]), sk["reason"]))
    ndef = sum(1 for sk in rep["skipped"] if sk.get("default"))
    if ndef and "cannot give %d of the default metrics" % ndef not in (got["pointer"] or ""):
        fail("no pointer at the top for %d default metrics: %r" % (ndef, got["pointer"]))
    print("ok: %d skipped events with their reasons (%d default metrics in %d lines)" % (len(rep["skipped"]), ndef, len(groups)))
    others = [sk for sk in rep["skipped"] if not sk.get("default")]
    if "Not measured" in (got["glance"] or "") and others and others[0]["name"] not in got["glance"]:
        fail("the summary sentence does not name the skipped events")

    sd = rep.get("senders")
    if expect_senders and not sd:
        fail("no sender matrix in report.json")
    if sd:
        totals = {int(r[0][1]): int(r[1][1]) for r in (got["senders"] or [])}
        for r, row in enumerate(sd["matrix"]):
            if row is None:
                continue
            t = sum(row) + sd["other"][r]
            if t and totals.get(r) != t:
                fail("senders: receiver %d total %s on the page, %d in report.json" % (r, totals.get(r), t))
        best = None
        for r, row in enumerate(sd["matrix"]):
            if row is not None and (best is None or sum(row) + sd["other"][r] > best[1]):
                best = (r, sum(row) + sd["other"][r], row)
        if sd["kind"] == "count" and best and best[1] > 0:
            top = max(range(len(best[2])), key=lambda c: (best[2][c], -c))
            say = "Most unexpected messages: rank %d (%d in all), most of them from rank %d (%d)" % (
                best[0], best[1], top, best[2][top])
            if say not in got["glance"]:
                fail("the page does not say %r: %r" % (say, got["glance"]))
            else:
                print("ok: the page says: %s" % say)
        if got["senders_svg"] == 0:
            fail("no sender heatmap on the page")
        print("ok: sender table of %d receivers equals report.json" % len(totals))
    if (got["ranks"] or "").strip() != str(n):
        fail("the run's facts say %r ranks" % got["ranks"])
    print("ok: %d per-rank charts (events that vary)" % len(got["panels"]))
    print("screenshot: %s (%d bytes)" % (shot, os.path.getsize(shot)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
