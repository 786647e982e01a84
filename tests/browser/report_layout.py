#!/usr/bin/python3
"""tests/browser/report_layout.py - checks an HTML report's layout as Chromium
renders it (issues 22.2 and 35.3), through the DevTools protocol over
--remote-debugging-pipe (file descriptors 3 and 4, one JSON message per NUL):
no network, no package beyond python3 and Debian's chromium.

    report_layout.py [--json RUN.json] [--screenshot FIRST.png]
                     [--phone-screenshot PHONE.png] REPORT.html

In a 1280 x 800 window (scrollbars as a person has them) and on a 390 x 844
phone (a mobile viewport: the page's width=device-width applies) it checks:
  - the verdict badge lies within the first screen;
  - every target's estimate (#targets td.est) lies within the first
    screen and within the width, one per target of RUN.json's
    methods.measurements, and one dot plot per target;
  - the page does not scroll sideways, folds closed (scroll width <= width);
  - on the phone: the summary's column (.glance-tables) is wider than 300
    px, and the page (folds closed) is less than 4 times as tall as in the
    1280 window: one column, not a column squeezed to nothing;
  - whose timings these are (with --json): a run whose system.hypervisor is
    QEMU's TCG signature has "emulated timings (QEMU TCG)" in the badge's
    visible text and the badge is not green; a run with no hypervisor has
    no such text and no #timings badge;
  - every reason the page gives on hover (a title attribute in the first
    screen's tables) is also visible text of the first screen, and (with
    --json) every target with an estimate is named in the visible list of
    reasons (#whys);
then opens every fold (<details>) and checks:
  - no numeric cell (td.n, th.n) wraps: its text takes one line (the line
    boxes of its contents all share one top);
  - the page does not scroll sideways (wide tables scroll in their own box).
The report has no script; the measuring runs from this driver
(Runtime.evaluate), not from the page.  --screenshot saves the 1280 x 800
first screen, --phone-screenshot the 390 x 844 one, before any fold is
opened.  Prints PASS:/FAIL: lines (with the widths and heights measured);
exits 1 when a check fails, 2 when Chromium could not be driven.
"""
import argparse
import base64
import json
import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import tempfile

WIDTH, HEIGHT = 1280, 800
PHONE_W, PHONE_H = 390, 844
PHONE_TALL = 4          # the phone's page at most this many times the 1280 page's height
SUMMARY_MIN = 300       # px: the phone's summary column at least this wide
# CPUID 0x40000000's signature of QEMU's TCG (QEMU target/i386/cpu.c, "TCGTCGTCGTCG").
TCG = "TCGTCGTCGTCG"
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
      return e.getAttribute("data-target"); }),
  scroll: document.documentElement.scrollWidth,
  height: document.documentElement.scrollHeight,
  column: (function (e) { return e ? e.getBoundingClientRect().width : null; })
          (document.querySelector(".glance-tables")),
  timings: (function (e) { if (!e) return null; var r = e.getBoundingClientRect();
                           return {text: e.innerText, right: r.right, bottom: r.bottom,
                                   bg: getComputedStyle(e).backgroundColor}; })
           (document.getElementById("timings")),
  verdict_bg: (function (e) { return e ? getComputedStyle(e).backgroundColor : null; })
              (document.getElementById("verdict")),
  glance_text: (function (e) { return e ? e.innerText : ""; })(document.getElementById("glance")),
  hovers: Array.prototype.map.call(document.querySelectorAll("#glance table [title]"), function (e) {
      return e.getAttribute("title"); }),
  whys: Array.prototype.map.call(document.querySelectorAll("#whys li"), function (e) {
      var r = e.getBoundingClientRect();
      return {text: e.innerText, shown: r.width > 0 && r.height > 0}; })
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


def measure(chrome, report, width, height, mobile, screenshot):
    """The page in a width x height window: the first screen's figures (and
    its picture), then every fold opened and the cells measured."""
    target = chrome.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    s = chrome.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    chrome.call("Page.enable", None, s)
    chrome.call("Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}, s)
    chrome.call("Page.navigate", {"url": pathlib.Path(report).resolve().as_uri()}, s)
    chrome.wait_event("Page.loadEventFired")

    def ev(expr):
        return chrome.call("Runtime.evaluate", {"expression": expr, "returnByValue": True}, s)["result"]["value"]

    first = json.loads(ev(FIRST_SCREEN_JS))
    if screenshot:
        # The picture without scrollbars: a phone's overlay scrollbar fades
        # in and out after a load, so with it two pictures of one page can
        # differ, and docs/ keeps these pictures compared pixel for pixel.
        chrome.call("Emulation.setScrollbarsHidden", {"hidden": True}, s)
        png = chrome.call("Page.captureScreenshot", {"format": "png"}, s)["data"]
        chrome.call("Emulation.setScrollbarsHidden", {"hidden": False}, s)
        with open(screenshot, "wb") as f:
            f.write(base64.b64decode(png))
    opened = ev(OPEN_FOLDS_JS)
    wrap = json.loads(ev(WRAP_JS))
    chrome.call("Target.closeTarget", {"targetId": target})
    return first, opened, wrap


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--json")
    ap.add_argument("--screenshot")
    ap.add_argument("--phone-screenshot")
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

    signal.alarm(150)           # a hung browser fails the test, never the run
    log = open(os.environ.get("REPORT_LAYOUT_LOG", os.devnull), "ab")
    chrome = Chrome(a.chromium, log)
    sizes = [(WIDTH, HEIGHT, False, a.screenshot), (PHONE_W, PHONE_H, True, a.phone_screenshot)]
    got = {}
    try:
        for w, h, mobile, shot in sizes:
            got[w] = measure(chrome, a.report, w, h, mobile, shot)
    except Exception as e:          # noqa: BLE001 - any failure to drive the browser is one line
        print("FAIL: %scould not drive Chromium (%s)" % (what, e))
        chrome.close()
        return 2
    chrome.close()

    run = json.load(open(a.json)) if a.json else None
    for w, h, mobile, shot in sizes:
        first, opened, wrap = got[w]
        at = "%dx%d" % (w, h)
        if not a.folds_only:
            first_screen(check, first, run, w, h)
            check(first["scroll"] <= first["vw"], "%s: folds closed, the page does not scroll sideways "
                  "(scroll width %d, window %d, page height %d)" % (at, first["scroll"], first["vw"], first["height"]))
            reasons(check, first, run, at)
        check(opened > 0 and wrap["cells"] > 0, "%s: %d folds opened, %d numeric cells measured" % (at, opened, wrap["cells"]))
        check(not wrap["wrapped"], "%s: no numeric cell wraps (each takes one line)" % at, wrap["wrapped"][:4])
        check(wrap["scroll"] <= wrap["vw"], "%s: with every fold open the page does not scroll sideways "
              "(scroll width %d, window %d, page height %d)" % (at, wrap["scroll"], wrap["vw"], wrap["height"]))
        if shot:
            check(os.path.getsize(shot) > 0, "%s: first screen saved as %s" % (at, shot))
    if not a.folds_only:
        phone, desk = got[PHONE_W][0], got[WIDTH][0]
        check(phone["column"] is not None and phone["column"] > SUMMARY_MIN,
              "%dx%d: the summary's column is %s px wide (> %d)" % (PHONE_W, PHONE_H, phone["column"], SUMMARY_MIN),
              phone["column"])
        check(phone["height"] < PHONE_TALL * desk["height"],
              "%dx%d: the page is %d px tall, folds closed (< %d x the %d px at %d wide)"
              % (PHONE_W, PHONE_H, phone["height"], PHONE_TALL, desk["height"], WIDTH), phone["height"])
    return 0 if ok else 1


def first_screen(check, first, run, width, height):
    """The verdict and every target's estimate without scrolling."""
    at = "%dx%d" % (width, height)
    v = first["verdict"]
    check(v is not None and 0 <= v["top"] and v["bottom"] <= height and v["right"] <= first["vw"],
          "%s: the verdict badge is in the first screen (%s)" % (at, v and v["text"]), v)
    est = first["estimates"]
    if run is not None:
        want = targets_of(run)
        got = [e["target"] for e in est]
        check(got == want, "%s: one estimate per target of the JSON (%d: %s)" % (at, len(want), ", ".join(map(str, want))),
              "page has %s" % got)
        check(first["dotplots"] == want, "%s: one dot plot per target (%d)" % (at, len(want)), first["dotplots"])
    low = [e for e in est if not (0 <= e["top"] and e["bottom"] <= height and e["right"] <= first["vw"])]
    check(est and not low, "%s: every target's estimate is in the first screen (%d, the lowest ends at %d px, "
          "the rightmost at %d px)" % (at, len(est), max([e["bottom"] for e in est] or [0]),
                                       max([e["right"] for e in est] or [0])), low[:3])


def reasons(check, first, run, at):
    """Whose timings (the badge) and why each method (visible text)."""
    if run is not None:
        sysm = run.get("system") if isinstance(run.get("system"), dict) else {}
        hv = sysm.get("hypervisor") or ""
        t = first["timings"]
        if hv == TCG:
            check(t is not None and "emulated timings (QEMU TCG)" in t["text"] and t["right"] <= first["vw"],
                  "%s: the badge says \"%s\"" % (at, t and t["text"]), t)
            check(t is not None and t["bg"] != first["verdict_bg"] and t["bg"] != "rgb(26, 127, 55)",
                  "%s: the badge of an emulated run is not green (%s)" % (at, t and t["bg"]), t)
        elif not hv:
            check(t is None and "timings" not in first["verdict"]["text"],
                  "%s: no hypervisor, no timings note in the badge (\"%s\")" % (at, first["verdict"]["text"]), t)
        else:
            check(t is not None and "timings" in t["text"], "%s: the badge says whose timings (%s)"
                  % (at, t and t["text"]), t)
    text = first["glance_text"]
    hidden = sorted(set(h for h in first["hovers"] if h and h not in text))
    check(first["hovers"] and not hidden, "%s: every reason given on hover is visible text too (%d titles, %d "
          "distinct)" % (at, len(first["hovers"]), len(set(first["hovers"]))), hidden[:3])
    if run is not None:
        measured = [e["target"] for e in first["estimates"] if e["text"].strip() != "-"]
        named = [w["text"] for w in first["whys"] if w["shown"]]
        missing = [t for t in measured if not any(re.search(r"(?:for |, )%s(?:, |: )" % re.escape(t), n) for n in named)]
        check(measured and not missing, "%s: every measured target's method has its reason in the visible list "
              "(%d targets, %d lines)" % (at, len(measured), len(first["whys"])), missing)


if __name__ == "__main__":
    sys.exit(main())
