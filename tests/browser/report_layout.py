#!/usr/bin/python3
"""tests/browser/report_layout.py - checks an HTML report's layout as Chromium
renders it (issue 22.2), through the DevTools protocol over
--remote-debugging-pipe (file descriptors 3 and 4, one JSON message per NUL):
no network, no package beyond python3 and Debian's chromium.

    report_layout.py [--json RUN.json] [--screenshot FIRST.png] REPORT.html

In a 1280 x 800 window (scrollbars as a person has them) it checks:
  - the verdict badge lies within the first screen;
  - every target's estimate (#targets td.est) lies within the first
    screen, one per target of RUN.json's methods.measurements, and one dot
    plot per target;
then opens every fold (<details>) and checks:
  - no numeric cell (td.n, th.n) wraps: its text takes one line (the line
    boxes of its contents all share one top);
  - the page does not scroll sideways (wide tables scroll in their own box).
The report has no script; the measuring runs from this driver
(Runtime.evaluate), not from the page.  --screenshot saves the first
screen, before any fold is opened.  Prints PASS:/FAIL: lines; exits 1 when
a check fails, 2 when Chromium could not be driven.
"""
import argparse
import base64
import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import tempfile

WIDTH, HEIGHT = 1280, 800
CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class Chrome:
    """One headless Chromium, driven over the pipe."""

    def __init__(self, binary, log):
        self.prof = tempfile.mkdtemp(prefix="report-layout.")
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()

        def child_fds():      # Chromium reads commands on fd 3, writes on fd 4
            a, b = os.dup(to_r), os.dup(from_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen([binary] + CHROME_FLAGS + ["--user-data-dir=" + self.prof,
                                     "--remote-debugging-pipe", "about:blank"],
                                     close_fds=False, preexec_fn=child_fds, stdin=subprocess.DEVNULL,
                                     stdout=log, stderr=log)
        os.close(to_r)
        os.close(from_w)
        self.buf, self.next_id = b"", 0

    def _read(self):
        while b"\0" not in self.buf:
            chunk = os.read(self.from_r, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"].get("message")))
                return m["result"]

    def wait_event(self, name):
        while True:
            if self._read().get("method") == name:
                return

    def close(self):
        try:
            self.call("Browser.close")
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.prof, ignore_errors=True)


# Measured in the page by this driver: where the verdict and the estimates
# are, and each numeric cell's line count.
FIRST_SCREEN_JS = """JSON.stringify({
  vw: document.documentElement.clientWidth,
  verdict: (function (e) { if (!e) return null; var r = e.getBoundingClientRect();
                           return {top: r.top, bottom: r.bottom, right: r.right, text: e.textContent}; })
           (document.getElementById("verdict")),
  estimates: Array.prototype.map.call(document.querySelectorAll("#targets td.est"), function (e) {
      var r = e.getBoundingClientRect();
      return {target: e.parentNode.getAttribute("data-target"), top: r.top, bottom: r.bottom, right: r.right,
              text: e.textContent}; }),
  dotplots: Array.prototype.map.call(document.querySelectorAll("svg.dotplot"), function (e) {
      return e.getAttribute("data-target"); })
})"""

OPEN_FOLDS_JS = """(function () { var n = 0;
  document.querySelectorAll("details").forEach(function (d) { d.open = true; n++; }); return n; })()"""

WRAP_JS = """JSON.stringify((function () {
  function lines(cell) {
    var range = document.createRange(), tops = [];
    range.selectNodeContents(cell);
    Array.prototype.forEach.call(range.getClientRects(), function (r) {
      if (r.width > 0 && !tops.some(function (t) { return Math.abs(t - r.top) < 3; })) tops.push(r.top); });
    return tops.length;
  }
  var cells = document.querySelectorAll("td.n, th.n"), wrapped = [];
  cells.forEach(function (c) {
    var n = lines(c);
    if (n > 1) wrapped.push({lines: n, text: c.textContent.slice(0, 60),
                             table: (c.closest("table") || {}).id || "", height: c.getBoundingClientRect().height});
  });
  return {cells: cells.length, wrapped: wrapped, scroll: document.documentElement.scrollWidth,
          vw: document.documentElement.clientWidth, height: document.documentElement.scrollHeight};
})())"""


def targets_of(run):
    """Each target of methods.measurements, in order, once."""
    seen = []
    m = run.get("methods") if isinstance(run, dict) else None
    for e in (m.get("measurements") or []) if isinstance(m, dict) else []:
        if isinstance(e, dict) and e.get("target") not in seen:
            seen.append(e.get("target"))
    return seen


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--json")
    ap.add_argument("--screenshot")
    ap.add_argument("--what", default="")
    ap.add_argument("--folds-only", action="store_true",
                    help="only the checks with every fold open (a page whose lines are long on purpose)")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    a = ap.parse_args()
    what = (a.what + ": ") if a.what else ""
    ok = True

    def check(cond, msg, detail=""):
        nonlocal ok
        print(("PASS: " if cond else "FAIL: ") + what + msg + ("" if cond else " (%s)" % detail))
        ok &= bool(cond)

    signal.alarm(90)            # a hung browser fails the test, never the run
    log = open(os.environ.get("REPORT_LAYOUT_LOG", os.devnull), "ab")
    chrome = Chrome(a.chromium, log)
    try:
        target = chrome.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        s = chrome.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        chrome.call("Page.enable", None, s)
        chrome.call("Emulation.setDeviceMetricsOverride",
                    {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False}, s)
        chrome.call("Page.navigate", {"url": pathlib.Path(a.report).resolve().as_uri()}, s)
        chrome.wait_event("Page.loadEventFired")

        def ev(expr):
            return chrome.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, s)["result"]["value"]

        first = json.loads(ev(FIRST_SCREEN_JS))
        if a.screenshot:
            png = chrome.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
            with open(a.screenshot, "wb") as f:
                f.write(base64.b64decode(png))
        opened = ev(OPEN_FOLDS_JS)
        wrap = json.loads(ev(WRAP_JS))
    except Exception as e:          # noqa: BLE001 - any failure to drive the browser is one line
        print("FAIL: %scould not drive Chromium (%s)" % (what, e))
        chrome.close()
        return 2
    chrome.close()

    if not a.folds_only:
        first_screen(check, first, a)
    check(opened > 0 and wrap["cells"] > 0, "%d folds opened, %d numeric cells measured" % (opened, wrap["cells"]))
    check(not wrap["wrapped"], "no numeric cell wraps at %d px (each takes one line)" % WIDTH, wrap["wrapped"][:4])
    check(wrap["scroll"] <= wrap["vw"], "with every fold open the page does not scroll sideways "
          "(scroll width %d, window %d)" % (wrap["scroll"], wrap["vw"]))
    if a.screenshot:
        check(os.path.getsize(a.screenshot) > 0, "first screen saved as %s" % a.screenshot)
    return 0 if ok else 1


def first_screen(check, first, a):
    """The verdict and every target's estimate without scrolling."""
    v = first["verdict"]
    check(v is not None and 0 <= v["top"] and v["bottom"] <= HEIGHT and v["right"] <= first["vw"],
          "the verdict badge is in the first %dx%d screen (%s)" % (WIDTH, HEIGHT, v and v["text"]), v)
    est = first["estimates"]
    if a.json:
        want = targets_of(json.load(open(a.json)))
        got = [e["target"] for e in est]
        check(got == want, "one estimate per target of the JSON (%d: %s)" % (len(want), ", ".join(map(str, want))),
              "page has %s" % got)
        check(first["dotplots"] == want, "one dot plot per target (%d)" % len(want), first["dotplots"])
    low = [e for e in est if not (0 <= e["top"] and e["bottom"] <= HEIGHT and e["right"] <= first["vw"])]
    check(est and not low, "every target's estimate is in the first screen (%d, the lowest ends at %d px)"
          % (len(est), max([e["bottom"] for e in est] or [0])), low[:3])


if __name__ == "__main__":
    sys.exit(main())
