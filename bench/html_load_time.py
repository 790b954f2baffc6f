#!/usr/bin/env python3
"""How long headless Chromium takes to open a report.html (helper of
bench/report_merge_scale.sh): navigation start to the load event, and to
the first paint after it, in ms, best of ROUNDS (the browser started once).

  html_load_time.py FILE [ROUNDS]

Uses the DevTools pipe of ctests/report_html_check.py.
"""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ctests"))
from report_html_check import Browser  # noqa: E402

TIMES = r"""
(function(){
  var t = performance.timing;
  return JSON.stringify({load: t.loadEventEnd - t.navigationStart,
                         dom: t.domContentLoadedEventEnd - t.navigationStart});
})()
"""


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    path, rounds = os.path.abspath(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        sys.exit("chromium is not installed")
    b = Browser(exe)
    best = None
    try:
        target = b.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = b.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        b.send("Page.enable", session=s)
        for _ in range(rounds):
            b.send("Page.navigate", {"url": "about:blank"}, session=s)
            b.wait_for("Page.loadEventFired")
            b.send("Page.navigate", {"url": "file://" + path}, session=s)
            b.wait_for("Page.loadEventFired")
            b.send("Runtime.evaluate", {"expression": "new Promise(r => requestAnimationFrame(() => r(1)))",
                                        "awaitPromise": True}, session=s)
            t = json.loads(b.send("Runtime.evaluate", {"expression": TIMES, "returnByValue": True},
                                  session=s)["result"]["value"])
            if best is None or t["load"] < best["load"]:
                best = t
    finally:
        b.close()
    print("%s: %d B, DOMContentLoaded %d ms, load %d ms (best of %d)"
          % (path, os.path.getsize(path), best["dom"], best["load"], rounds))


if __name__ == "__main__":
    main()
