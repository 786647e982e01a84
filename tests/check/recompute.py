#!/usr/bin/python3
"""tests/check/recompute.py - the summary's figures, recomputed from the raw
samples of the results JSON, sharing nothing with baremark's code.

usage: recompute.py RUN.json SUMMARY.txt [SUMMARY2.txt ...] [--html REPORT.html]
                    [--grouped PREFIX FILE]

SUMMARY is the block between the summary's two marker lines as serial
prints it (a whole serial log is fine: the last block is taken) or what
`baremark show RUN.json` prints.  With several, each is checked on its own
and must also be the same text as the first.  --html checks the report's
first screen (tools/host report: the badge, the summary's lines, the
targets and pairs tables) the same way.

Every figure a row states is recomputed from the JSON by the definitions of
docs/statistics.md (the issue's D1 target estimate, D2 A/B pair, D3 counter
step) with numpy/scipy and printed as one line:
    PASS|FAIL  WHERE ROW: WHAT: printed TEXT, recomputed VALUE [how]
then "N checked: P passed, F failed".  --grouped writes to FILE one test
line per row kind ("PASS: PREFIX show.txt clock: 5 figures ..." or "FAIL:
... k of N wrong (the first ones)"), the form tests/run.sh counts.  Exit 0 when all pass, 1 when any
fails, 2 when the input is unusable (JSON unreadable, no summary block).

A row (or a part of one) that no rule here understands is a FAIL: a new
row cannot slip past unchecked.  Each row kind is one full regular
expression; every number it captures is checked.

Printed precision.  A printed number matches the recomputed value when
  (a) the recomputed value, formatted the way the printing side formats
      (4 significant digits like C's %.4g, or %.1f from 1e5 up; %.3f for the
      TSC's MHz; the p forms), gives the same text ("exact"), or
  (b) the printed number is the recomputed value correctly rounded to the
      printed digits, whatever the spelling: |printed - value| <= half a
      unit in the last printed digit, plus 1e-9 of the value for a double's
      last bits at a rounding edge ("rounds to").  The unit: 4.312 -> 0.001,
      1.235e+04 -> 10, 123456.7 -> 0.1, the report's 1005 -> 1, and for
      4-significant-digit output a trimmed "0.5" still counts 0.0001.
  Counts (CPUs, warnings, "k of m") must be equal.  "n/a" (or "-" in the
  report) matches only a value the definition leaves undefined.
Half a unit, not one: a whole unit would pass an interval end that is off
by exactly one step (1004 printed as 1005), the kind of error this exists
to catch.
"""
import html.parser
import json
import math
import os
import re
import statistics
import sys

import numpy as np
from scipy import stats

Z95 = float(stats.norm.ppf(0.975))          # 1.959963984540054

RESULTS = []
GROUPS = {}


def record(ok, where, line):
    RESULTS.append(ok)
    GROUPS.setdefault(" ".join(where.split()[:2]), []).append((ok, line))
    print(line)


def out(ok, where, what, printed, value, how=""):
    record(ok, where, "%s  %s: %s: printed %s, recomputed %s%s" % ("PASS" if ok else "FAIL", where, what, printed,
                                                                   value, (" [%s]" % how) if how else ""))


def note(ok, where, what):
    record(ok, where, "%s  %s: %s" % ("PASS" if ok else "FAIL", where, what))


def grouped(prefix, stream):
    """One test line per row kind: "PASS: PREFIX GROUP: N figures" or its first failures."""
    for g, items in GROUPS.items():
        bad = [line for ok, line in items if not ok]
        if bad:
            stream.write("FAIL: %s %s: %d of %d wrong (%s)\n" % (prefix, g, len(bad), len(items),
                                                               " | ".join(b[6:] for b in bad[:3])))
        else:
            stream.write("PASS: %s %s: %d checks against the JSON pass\n" % (prefix, g, len(items)))


# ---- number formats ---------------------------------------------------------------

def fmt_g4(v):
    """4 significant digits; from 1e5 up one decimal, '.0' dropped."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if 1e5 <= abs(v) < 1e15:
        s = "%.1f" % v
        return s[:-2] if s.endswith(".0") else s
    return "%.4g" % v


def fmt_report(v):
    """The report's cells: whole numbers from 1000, else 4 significant digits."""
    if v is None or not math.isfinite(v):
        return "-"
    return "%.0f" % v if abs(v) >= 1000 else "%.4g" % v


def fmt_p(p):
    if p is None or math.isnan(p):
        return "p n/a"
    if p < 1e-300:
        return "p < 1e-300"
    if p < 0.001:
        return "p = %.1e" % p
    return "p = %.3f" % p


def undefined(v):
    return v is None or (isinstance(v, float) and not math.isfinite(v))


def last_digit_unit(text):
    """The value of one unit in the last printed digit of a number's text."""
    m = re.fullmatch(r"[-+]?(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?", text)
    if not m:
        return None
    dec = len(m.group(2) or "")
    exp = int(m.group(3) or 0)
    return 10.0 ** (exp - dec)


def unit_of(text, kind):
    v = float(text)
    if kind == "g4":
        if v == 0:
            return 0.0
        if 1e5 <= abs(v) < 1e15 and "e" not in text:
            return 0.1                       # %.1f, maybe with ".0" dropped
        return 10.0 ** (math.floor(math.log10(abs(v))) - 3)
    if kind == "report":
        if abs(v) >= 1000 and "e" not in text and "." not in text:
            return 1.0
        return unit_of(text, "g4")
    if kind == "int":                        # counts: exact
        return 0.0
    if kind == "g2":                         # %.2g
        if v == 0:
            return 0.0
        return 10.0 ** (math.floor(math.log10(abs(v))) - 1)
    return last_digit_unit(text)             # fixed decimals: %.3f, %.1f, integers


FORMATTERS = {"g4": fmt_g4, "report": fmt_report, "g2": lambda v: "%.2g" % v,
              "f3": lambda v: "%.3f" % v, "f2": lambda v: "%.2f" % v, "f1": lambda v: "%.1f" % v,
              "int": lambda v: "%d" % round(v)}


def same_number(printed, value, kind):
    """(ok, how) for a printed number against the recomputed value."""
    printed = printed.strip()
    if printed in ("n/a", "-", ""):
        return (undefined(value), "undefined" if undefined(value) else "printed as undefined")
    if undefined(value):
        return (False, "the definition leaves it undefined")
    try:
        pv = float(printed)
    except ValueError:
        return (False, "not a number")
    if FORMATTERS[kind](value) == printed:
        return (True, "exact")
    u = unit_of(printed, kind)
    if u is not None and abs(value - pv) <= u / 2 + 1e-9 * abs(value):
        return (True, "rounds to it (unit %g)" % u)
    return (False, "off by %.3g" % (pv - value))


def check_num(where, what, printed, value, kind="g4"):
    ok, how = same_number(printed, value, kind)
    out(ok, where, what, printed, "n/a" if undefined(value) else "%.10g" % value, how)
    return ok


def within_noise(where, c, r, noise_text, apart_text):
    """'within the N% noise (medians X% apart)': p below 0.05 but the medians
    of the raw samples no further apart than the run's noise threshold
    (docs/results-schema.md, "verdict")."""
    noise = c.get("noise", float("nan"))
    check_num(where, "noise threshold % (the run's setting)", noise_text, 100 * noise)
    ma = statistics.median((c.get("a") or {}).get("samples") or [float("nan")])
    mb = statistics.median((c.get("b") or {}).get("samples") or [float("nan")])
    rel = abs(ma - mb) / mb * 100 if mb else float("nan")
    check_num(where, "medians apart % (|median A - median B| / median B of the raw samples)", apart_text, rel, "f2")
    note(r["p"] < 0.05 and rel <= 100 * noise, where,
         "'within the noise': p < 0.05 (recomputed %.3g) and the medians %.3g%% apart, not more than the noise"
         % (r["p"], rel))


def check_p(where, what, printed, p):
    """figures_format_p's text ("p = 0.412", "p = 3.1e-05", "p < 1e-300", "p n/a")."""
    want = fmt_p(p)
    if printed == want:
        return out(True, where, what, printed, "%.6g" % p, "exact")
    m = re.fullmatch(r"p = (\S+)", printed)
    if m and not undefined(p):
        u = last_digit_unit(m.group(1))
        if u is not None and abs(float(m.group(1)) - p) <= u / 2 + 1e-9 * p:
            return out(True, where, what, printed, "%.6g" % p, "rounds to it (unit %g)" % u)
    if printed == "p < 1e-300" and not undefined(p) and p < 1e-300:
        return out(True, where, what, printed, "%.6g" % p, "below 1e-300")
    out(False, where, what, printed, "n/a" if undefined(p) else "%.6g (%s)" % (p, want))


def check_eq(where, what, printed, want):
    out(printed == want, where, what, repr(printed), repr(want))


def parse_interval(text):
    """'[lo, hi]' or 'lo-hi' (the older spelling): (lo, hi) texts, or None."""
    text = text.strip()
    m = re.fullmatch(r"\[(\S+), (\S+)\]", text)
    if m:
        return m.group(1), m.group(2)
    num = r"-?(?:\d+\.?\d*|\.\d+)(?:e[-+]\d+)?|n/a"
    m = re.fullmatch(r"(%s)(?:-|\u2013)(%s)" % (num, num), text)
    if m:
        return m.group(1), m.group(2)
    return None


def check_interval(where, what, text, lo, hi, kind="g4"):
    iv = parse_interval(text)
    if iv is None:
        return note(False, where, "%s: %r is not an interval" % (what, text))
    if not text.startswith("["):
        note(False, where, "%s: %r is not written [lo, hi] (figures_format_interval)" % (what, text))
    check_num(where, what + " low end", iv[0], lo, kind)
    check_num(where, what + " high end", iv[1], hi, kind)


# ---- the definitions ------------------------------------------------------------------

def median(x):
    return float(np.median(np.asarray(x, dtype=float)))


def order_ci(xs):
    """1-based ranks j = floor(n/2 - z sqrt(n)/2), k = ceil(n/2 + z sqrt(n)/2), clamped."""
    n = len(xs)
    half = Z95 * math.sqrt(n) / 2
    j = max(1, math.floor(n / 2 - half))
    k = min(n, math.ceil(n / 2 + half))
    return float(xs[j - 1]), float(xs[k - 1])


USABLE = ("ok", "too_short", "inconclusive")


def d1_estimate(m, hz):
    """D1 for one measurement: a dict of ticks and ns figures, or None."""
    if m.get("status") not in USABLE or not m.get("samples"):
        return None
    n_iter = m["iterations"]
    net = np.sort((np.asarray(m["samples"], dtype=float) - m["placeholder_median"]) / n_iter)
    est = median(net)
    lo, hi = order_ci(net)
    step = m.get("counter_step_ticks")
    r = (step or 0) / n_iter
    wlo = max(0.0, min(lo, est - r))
    whi = max(hi, est + r)
    e = {"method": m["method"], "ticks": est, "lo": lo, "hi": hi, "wlo": wlo, "whi": whi, "r": r,
         "step_known": step is not None, "resolved": m["status"] != "too_short" and est >= r,
         "widened": est - r < lo or est + r > hi,
         "below_x": max(hi, r)}
    for k in ("ticks", "wlo", "whi", "below_x"):
        e[k + "_ns"] = e[k] * 1e9 / hz
    return e


def d1_targets(d):
    meth = d.get("methods") or {}
    hz = meth.get("tick_hz")
    targets = {}
    for m in meth.get("measurements") or []:
        e = d1_estimate(m, hz) if hz else None
        if e:
            targets.setdefault(m["target"], []).append(e)
    run_method = (d.get("comparisons") or {}).get("method", "sdm-recommended")
    res = {}
    for name, ests in targets.items():
        chosen = next((e for e in ests if e["method"] == run_method), ests[0])
        resolved = [e for e in ests if e["resolved"]]
        agree = sum(1 for e in resolved if e["wlo"] <= chosen["whi"] and chosen["wlo"] <= e["whi"])
        res[name] = {"chosen": chosen, "agree": agree, "of": len(resolved), "ests": ests,
                     "chosen_why": "the comparisons' method" if chosen["method"] == run_method else "first measured"}
    return res


def d2_pair(c):
    """D2: ratio slower/faster (Hodges-Lehmann on the logs), Bauer interval, p, sides."""
    nan = float("nan")
    sa, sb = c.get("a") or {}, c.get("b") or {}
    r = {"a": sa.get("name", "A"), "b": sb.get("name", "B"), "ratio": nan, "lo": nan, "hi": nan, "p": nan,
         "tie": False, "faster": None, "slower": None, "measured": bool(sa.get("samples") and sb.get("samples"))}
    if not r["measured"]:
        return r
    a = np.asarray(sa["samples"], dtype=float)
    b = np.asarray(sb["samples"], dtype=float)
    # the faster side by the ranks (docs/statistics.md): A when Mann-Whitney's U of A
    # (pairs with a_i > b_j, ties counting one half) is below m n / 2, B when above
    mw = stats.mannwhitneyu(a, b, alternative="two-sided", use_continuity=True, method="asymptotic")
    u_a, half = float(mw.statistic), len(a) * len(b) / 2
    r["tie"] = u_a == half
    a_faster = u_a <= half                   # neither: B's time over A's
    r["faster"], r["slower"] = (r["a"], r["b"]) if a_faster else (r["b"], r["a"])
    slow, fast = (b, a) if a_faster else (a, b)
    r["p"] = float(mw.pvalue)
    if len(a) and len(b) and len(a) * len(b) <= 1 << 22 and (slow > 0).all() and (fast > 0).all():
        d = np.sort((np.log(slow)[:, None] - np.log(fast)[None, :]).ravel())
        mn = len(a) * len(b)
        cc = max(0, math.floor(mn / 2 - Z95 * math.sqrt(mn * (len(a) + len(b) + 1) / 12)))
        r["ratio"] = math.exp(float(np.median(d)))
        r["lo"], r["hi"] = math.exp(d[cc]), math.exp(d[mn - 1 - cc])
    return r


def pair_check(c):
    """What a pair is (docs/statistics.md): its "check"; an older file without one: one
    routine in ABAB order = order check, one routine = A/A control when it expects no
    difference, an identical copy = placement check, else a/b."""
    if c.get("check"):
        return c["check"]
    kind = c.get("kind") or ""
    same = (c.get("a") or {}).get("name") == (c.get("b") or {}).get("name")
    if kind.startswith("order check") or (same and c.get("order") == "alternate"):
        return "order check"
    if kind.startswith("placement check") or "identical copy" in kind:
        return "placement check"
    if same and c.get("expect") == "no difference":
        return "a/a control"
    return "a/b"


def d3_step(d):
    """The clock's counter step in ticks (clock.counter_step: a number, or an object with one)."""
    s = (d.get("clock") or {}).get("counter_step")
    if isinstance(s, (int, float)) and not isinstance(s, bool):
        return float(s)
    if isinstance(s, dict):
        for k in ("ticks", "step_ticks", "effective_ticks", "step", "value"):
            if isinstance(s.get(k), (int, float)) and not isinstance(s.get(k), bool):
                return float(s[k])
    return None


# BYTEmark's original indexes (nbench0.c: the geometric mean over the
# Pentium 90 ratios, with its own exponents 0.142857 and 0.33333).
BM_INT = ("numsort", "strsort", "bitfield", "emfloat", "assign", "idea", "huffman")
BM_FP = ("fourier", "nnet", "lu")


def bytemark_indexes(bm):
    t = {x["key"]: x for x in bm.get("tests") or []}

    def idx(keys, expo):
        prod = 1.0
        for k in keys:
            x = t.get(k)
            if not x or x.get("status") != "ok" or not x.get("scores"):
                return float("nan")
            prod *= float(np.mean(x["scores"])) / x["base_p90"]
        return prod ** expo
    return idx(BM_INT, 0.142857), idx(BM_FP, 0.33333)


def bytemark_certain(x):
    """95% Student t half-width of the mean within 5% of the mean (n >= 2)."""
    s = np.asarray(x.get("scores") or [], dtype=float)
    if len(s) < 2:
        return False
    half = stats.t.ppf(0.975, len(s) - 1) * s.std(ddof=1) / math.sqrt(len(s))
    return half / s.mean() <= 0.05


def verdict_of(d):
    st = d.get("status")
    if st == "interrupted" or d.get("ended") is False:
        return "interrupted"
    return {0: "completed", 3: "failed"}.get(st, "completed with warnings")


MEMBER = {"compare": "comparisons"}


def interrupted_in(d):
    """The run's own word for where it stopped, else the first section asked for with no member."""
    for k in ("stage", "interrupted_in", "last_section", "section"):
        if isinstance(d.get(k), str) and d[k]:
            return d[k]
    for sec in (d.get("settings") or {}).get("sections") or []:
        if d.get(MEMBER.get(sec, sec)) is None:
            return sec
    return None


def escaped(s):
    return "".join(ch if 0x20 <= ord(ch) < 0x7f else "\\x%02x" % ord(ch) for ch in s)


def profile_of(d):
    """The run's profile: the top-level "profile" (decided once for the run);
    an older file's methods section carried its own copy
    (docs/results-schema.md); none else (settings.profile is as asked)."""
    if isinstance(d.get("profile"), str) and d["profile"]:
        return d["profile"]
    for sec in ("methods",):
        p = (d.get(sec) or {}).get("profile")
        if isinstance(p, str) and p:
            return p
    return None


def tick_hz(d):
    khz = (d.get("clock") or {}).get("chosen_khz")
    return khz * 1e3 if khz else (d.get("methods") or {}).get("tick_hz")


# ---- the summary block -------------------------------------------------------------------

OPEN = re.compile(r"^={20} baremark summary: (.*) ={20}$")


def read_block(path):
    lines = [l.rstrip("\r\n") for l in open(path, encoding="utf-8", errors="replace")]
    starts = [i for i, l in enumerate(lines) if OPEN.match(l)]
    if not starts:
        return None
    i = starts[-1]
    for j in range(i + 1, len(lines)):
        if re.fullmatch(r"={40,}", lines[j]):
            return lines[i:j + 1]
    return None


def split_row(line):
    if len(line) >= 10 and line[9] == " ":
        return line[:10].strip(), line[10:]
    m = re.match(r"(\S+) ?(.*)$", line)          # a label of 10 characters or more
    return (m.group(1), m.group(2)) if m else ("", line)


class Checker:
    def __init__(self, d):
        self.d = d
        self.targets = d1_targets(d)
        self.pairs = [d2_pair(c) for c in (d.get("comparisons") or {}).get("comparisons") or []]

    # -- one summary text ------------------------------------------------------------
    def summary(self, tag, block):
        d = self.d
        m = OPEN.match(block[0])
        check_eq(tag + " marker", "run name", m.group(1), d.get("name") or "(unnamed run)")
        note(len(block[-1]) == len(block[0]), tag + " marker", "closing rule as long as the opening line")
        groups = []
        for line in block[1:-1]:
            label, text = split_row(line)
            if label or not groups:
                groups.append([label, []])
            groups[-1][1].append(text)
        seen = set()
        for label, texts in groups:
            seen.add(label)
            where = "%s %s" % (tag, label or "(no label)")
            fn = getattr(self, "row_" + re.sub(r"\W", "_", label), None)
            if fn is None:
                for t in texts:
                    note(False, where, "row not understood: %r" % t)
                continue
            try:
                fn(where, texts)
            except (KeyError, TypeError, ValueError, ZeroDivisionError, IndexError) as e:
                note(False, where, "the JSON lacks what the row needs (%s: %s): %r" % (type(e).__name__, e, texts))
        # rows the JSON calls for must be there
        want = {"verdict": True, "clock": bool(d.get("clock")), "targets": bool(self.targets),
                "A/B": bool(self.pairs), "BYTEmark": bool(d.get("bytemark")), "cores": bool((d.get("cores") or {}).get("tsc", {}).get("cpus")),
                "memory": bool(d.get("memory")), "files": bool(d.get("name"))}
        for label, need in want.items():
            if need:
                note(label in seen, tag + " rows", "the %s row is there (the JSON has its figures)" % label)
        return groups

    def row_verdict(self, where, texts):
        d = self.d
        m = re.fullmatch(r"(completed with warnings|completed|failed|interrupted)(?: during (an unknown section|\S+))?, "
                         r"(\d+) warnings?(?:; profile (\S+))?(?:; hosted under (\S+))?"
                         r"(?:; (run took|last saved) (\S+) s(?: into the run)?)?", texts[0])
        if not m:
            return note(False, where, "row not understood: %r" % texts[0])
        check_eq(where, "verdict", m.group(1), verdict_of(d))
        errors = d.get("errors") or []
        check_num(where, "warnings (len errors)", m.group(3), len(errors), "int")
        check_eq(where, "profile", m.group(4), profile_of(d))
        if m.group(1) == "interrupted" or verdict_of(d) == "interrupted":
            check_eq(where, "interrupted during", m.group(2), interrupted_in(d) or "an unknown section")
        else:
            check_eq(where, "no section named", m.group(2), None)
        plat = (d.get("methods") or {}).get("platform") or (d.get("bytemark") or {}).get("platform")
        check_eq(where, "hosted under (methods.platform when not uefi)", m.group(5), plat if plat and plat != "uefi" else None)
        dur = d.get("duration_ms")
        if m.group(7) or dur is not None:
            check_num(where, "duration s (duration_ms / 1000)", m.group(7) or "n/a",
                      dur / 1000 if isinstance(dur, (int, float)) else None, "f1")
        shown = 0
        for t in texts[1:]:
            w = re.fullmatch(r"warning: (.*)", t)
            more = re.fullmatch(r"\((\d+) more warnings in the results\)", t)
            if w:
                check_eq(where, "warning %d" % (shown + 1), w.group(1),
                         escaped(errors[shown])[:140] if shown < len(errors) else None)
                shown += 1
            elif more:
                check_num(where, "warnings not listed", more.group(1), len(errors) - shown, "int")
                shown = len(errors)
            else:
                note(False, where, "row not understood: %r" % t)
        note(shown == len(errors), where, "every warning listed or counted (%d of %d)" % (shown, len(errors)))

    def row_machine(self, where, texts):
        s = self.d.get("system") or self.d.get("host") or {}
        m = re.fullmatch(r"(.+), (\d+) CPUs?(?:, (\S+) MiB)?(?:, firmware (.+))?", texts[0])
        if not m:
            return note(False, where, "row not understood: %r" % texts[0])
        check_eq(where, "CPU", m.group(1), s.get("cpu_brand") or "unknown CPU")
        check_num(where, "logical CPUs", m.group(2), s.get("logical_cpus"), "int")
        check_num(where, "memory MiB", m.group(3) or "n/a", s.get("memory_mib"))
        check_eq(where, "firmware", m.group(4), s.get("firmware_vendor") or None)
        for t in texts[1:]:
            h = re.fullmatch(r"under a hypervisor \((.*)\): timings are the emulation's, not a machine's", t)
            if h:
                check_eq(where, "hypervisor", h.group(1), s.get("hypervisor"))
            else:
                note(False, where, "row not understood: %r" % t)

    def row_boot(self, where, texts):
        sb = (self.d.get("system") or {}).get("secure_boot") or {}
        m = re.fullmatch(r"Secure Boot (on|off)(, started through shim)?; image (signed|not signed)(?:, SHA-256 (\w+))?",
                         texts[0])
        if not m or len(texts) > 1:
            return note(False, where, "row not understood: %r" % texts)
        check_eq(where, "Secure Boot", m.group(1) == "on", bool(sb.get("enabled")))
        check_eq(where, "shim", bool(m.group(2)), bool(sb.get("shim")))
        check_eq(where, "signed", m.group(3) == "signed", bool(sb.get("image_signed")))
        check_eq(where, "SHA-256", m.group(4), sb.get("image_sha256") or None)

    def row_clock(self, where, texts):
        c = self.d["clock"]
        m = re.fullmatch(r"TSC (\S+) MHz \+/- (\S+) ppm from the (\S+); (\d+) references? agree within (\S+) ppm(?:; (.*))?",
                         texts[0])
        if not m:
            return note(False, where, "row not understood: %r" % texts[0])
        check_num(where, "TSC MHz (chosen_khz / 1000)", m.group(1), c["chosen_khz"] / 1000, "f3")
        check_eq(where, "source", m.group(3), c.get("source"))
        src = [r for r in c.get("references") or [] if r.get("name") == c.get("source")]
        check_num(where, "the source's ppm", m.group(2), src[0].get("ppm") if src else None)
        meas = [r for r in c.get("references") or [] if r.get("kind", "measured") == "measured" and r.get("khz")]
        check_num(where, "measured references", m.group(4), len(meas), "int")
        agree = max((abs(x["khz"] / y["khz"] - 1) * 1e6 for x in meas for y in meas if x is not y), default=None)
        # the JSON keeps each pair's ppm to 3 decimals (clock.agreement.pairs); printing
        # that rounding is allowed, any other value is not
        if agree is not None and same_number(m.group(5), round(agree, 3), "g4")[0] and not same_number(m.group(5), agree, "g4")[0]:
            out(True, where, "agreement ppm (max |khz_a / khz_b - 1|, as the JSON rounds it: 3 decimals)", m.group(5),
                "%.10g" % agree, "rounds to %.3f" % agree)
        else:
            check_num(where, "agreement ppm (max |khz_a / khz_b - 1| of measured references)", m.group(5), agree)
        for t in ([m.group(6)] if m.group(6) else []) + texts[1:]:
            self.step_phrase(where, t)

    def step_phrase(self, where, t):
        """D3: "TSC steps 24 ticks (9.231 ns)": clock.counter_step's ticks, and in ns
        at the chosen rate (from the step as found, grid_ticks, or as recorded, ticks)."""
        m = re.fullmatch(r"(?:TSC |counter |the counter's )?steps? (\S+) (ticks?|ns)(?: \((\S+) ns\))?", t.strip())
        if not m:
            return note(False, where, "not understood: %r" % t)
        step = d3_step(self.d)
        hz = tick_hz(self.d)
        if m.group(2) == "ns":
            return check_num(where, "counter step ns (clock.counter_step.ticks * 1e9 / hz, D3)", m.group(1),
                             step * 1e9 / hz if step is not None else None)
        check_num(where, "counter step ticks (clock.counter_step.ticks, D3)", m.group(1), step)
        if m.group(3):
            cs = (self.d.get("clock") or {}).get("counter_step") or {}
            grid = cs.get("grid_ticks") if isinstance(cs, dict) else None
            want = [x * 1e9 / hz for x in (step, grid) if isinstance(x, (int, float))]
            ok = [v for v in want if same_number(m.group(3), v, "g4")[0]]
            out(bool(ok), where, "counter step ns (ticks or grid_ticks * 1e9 / hz)", m.group(3),
                " or ".join("%.10g" % v for v in want) or "n/a", same_number(m.group(3), ok[0], "g4")[1] if ok else "")

    def row_quiet(self, where, texts):
        c = self.d["clock"]
        q, ph = c.get("quiet") or {}, c.get("quiet_check_phase") or {}
        m = re.fullmatch(r"largest gap (\S+) (us|ms) in (\S+) ms; (\S+) gaps over 1 us; NMI (\S+), "
                         r"SMI (n/a \(no counter\)|\S+)", texts[0])
        if not m or len(texts) > 1:
            return note(False, where, "row not understood: %r" % texts)
        gap = q["max_gap_ticks"] * 1e6 / q["tick_hz"] if q.get("tick_hz") else None
        # the unit is the one a person reads best: us under a millisecond, ms from one up
        if gap is not None:
            note((m.group(2) == "ms") == (gap >= 1000.0), where, "largest gap's unit %s for %.6g us" % (m.group(2), gap))
            if m.group(2) == "ms":
                gap /= 1000.0
        check_num(where, "largest gap (max_gap_ticks * 1e6 / tick_hz, in the row's unit)", m.group(1), gap)
        check_num(where, "quiet ms", m.group(3), q.get("ms"))
        check_num(where, "gaps over 1 us", m.group(4), q.get("gaps_over_1us"))
        check_num(where, "NMIs", m.group(5), ph.get("nmis"))
        check_num(where, "SMIs", "n/a" if m.group(6).startswith("n/a") else m.group(6), ph.get("smis"))

    def row_targets(self, where, texts):
        hdr = texts[0]
        note(re.fullmatch(r"name\s+ns/iter\s+95% (CI|interval) \(ns\)\s+ticks/iter\s+method\s+(methods )?agree", hdr.strip())
             is not None, where, "header %r" % hdr.strip())
        listed = set()
        self.starred = 0
        legends = {"star": 0, "below": 0}
        for t in texts[1:]:
            if re.fullmatch(r"\* interval widened to 1 step \(the counter's step / N\): smaller differences are not seen", t):
                legends["star"] += 1
                continue
            if re.fullmatch(r"below 1 step: not told from the placeholder, or under 1 step; not counted in agree", t):
                legends["below"] += 1
                continue
            more = re.fullmatch(r"\.\.\. and (\d+) more targets \(the report lists them\)", t)
            if more:
                check_num(where, "targets not listed", more.group(1), len(self.targets) - len(listed), "int")
                listed = set(self.targets)
                continue
            name = t.split()[0] if t.split() else ""
            full = [k for k in self.targets if k == name or k[:16] == name]
            if len(full) != 1:
                note(False, where, "row not understood (no target %r in the JSON): %r" % (name, t))
                continue
            listed.add(full[0])
            self.target_row("%s %s" % (where, full[0]), self.targets[full[0]], t[len(name):].strip())
        note(listed == set(self.targets), where, "every target listed or counted (%d of %d)" % (len(listed), len(self.targets)))
        shown = [self.targets[k]["chosen"] for k in listed]
        if legends["star"]:
            note(legends["star"] == 1 and self.starred > 0, where, "the '*' legend once, and a row has a '*' (%d rows, %d legends)"
                 % (self.starred, legends["star"]))
        unresolved = sum(1 for e in shown if not e["resolved"])
        if legends["below"]:
            note(legends["below"] == 1 and unresolved > 0, where, "the 'below 1 step' legend once, and a row is unresolved "
                 "(%d rows, %d legends)" % (unresolved, legends["below"]))

    def target_row(self, where, tg, rest):
        e = tg["chosen"]
        if not e["step_known"]:
            print("NOTE  %s: measurement %s has no counter_step_ticks (an older file): D1's floor taken as 0"
                  % (where, e["method"]))
        iv = r"(\[\S+, \S+\]|\S+?)(\s*\*)?"
        m = re.fullmatch(r"(\S+)\s+%s\s+(\S+)\s+(\S+)\s+(\d+) of (\d+)" % iv, rest)
        u = re.fullmatch(r"below 1 step, < (\S+) ns\s*(.*?)\s*(\S+)\s+(\d+) of (\d+)", rest)
        if u and u.group(2) in ("", "-", "n/a"):
            note(not e["resolved"], where, "shown unresolved ('below 1 step'): %s" %
                 ("D1 agrees" if not e["resolved"] else "but D1 resolves it (estimate %.4g ticks >= r %.4g)" % (e["ticks"], e["r"])))
            check_num(where, "below X ns (max(hi, r))", u.group(1), e["below_x_ns"])
            method, k, n = u.group(3), u.group(4), u.group(5)
        elif m:
            if not e["resolved"]:
                note(False, where, "printed as an estimate, but D1 leaves it unresolved (%s, estimate %.4g ticks, r %.4g): "
                     "'below 1 step, < %s ns'" % (self.status(e), e["ticks"], e["r"], fmt_g4(e["below_x_ns"])))
            check_num(where, "ns/iter (median net * 1e9 / tick_hz)", m.group(1), e["ticks_ns"])
            check_interval(where, "95% interval ns (order statistics, widened by r, >= 0)", m.group(2), e["wlo_ns"], e["whi_ns"])
            if m.group(3) or e["widened"]:
                check_eq(where, "'*': the interval was widened to the step (estimate -+ r reaches past the order statistics)",
                         bool(m.group(3)), e["widened"])
            self.starred += bool(m.group(3))
            check_num(where, "ticks/iter (median net)", m.group(4), e["ticks"])
            method, k, n = m.group(5), m.group(6), m.group(7)
        else:
            return note(False, where, "row not understood: %r" % rest)
        check_eq(where, "method (%s)" % tg["chosen_why"], method, e["method"][:19])
        check_num(where, "methods agree k", k, tg["agree"], "int")
        check_num(where, "methods agree of m (resolved estimates)", n, tg["of"], "int")

    def status(self, e):
        return "estimate below r" if e["ticks"] < e["r"] else "too_short"

    def row_A_B(self, where, texts):
        comps = (self.d.get("comparisons") or {}).get("comparisons") or []
        if len(texts) != len(comps):
            note(False, where, "%d rows for %d comparisons" % (len(texts), len(comps)))
        for i, t in enumerate(texts[:len(comps)]):
            self.ab_row("%s #%d %s" % (where, i + 1, comps[i].get("name")), comps[i], self.pairs[i], t)
        for t in texts[len(comps):]:
            note(False, where, "row not understood: %r" % t)

    def ab_row(self, where, c, r, t):
        p = r"(p = \S+|p < 1e-300|p n/a)"
        notes = r"( \((?:A/A control|order check, ABAB|placement check|ABAB order|not what the run expected)" \
                r"(?:, as expected|: NOT as expected|, NOT as expected)?\))?"
        iv = r"(?: \(?(\[[^\]]*\]|[^()\s]+)\)?)?"
        with_ratio = re.fullmatch(r"(.+?) is (\S+)x%s faster than (.+?), %s%s" % (iv, p, notes), t)
        no_ratio = re.fullmatch(r"(.+?) is faster than (.+?), %s%s" % (p, notes), t)
        none = re.fullmatch(r"(.+?): no difference detected, %s%s" % (p, notes), t)
        within = re.fullmatch(r"(.+?): within the (\S+)%% noise \(medians (\S+)%% apart\), %s%s" % (p, notes), t)
        unmeasured = re.fullmatch(r"(.+?): not measured \((\S+)\)", t)
        if unmeasured:
            check_eq(where, "name", unmeasured.group(1), c.get("name"))
            check_eq(where, "why not measured (status)", unmeasured.group(2), c.get("status"))
            return note(not r["measured"], where, "says 'not measured' of a pair with samples")
        detected = bool(c.get("verdict")) and c.get("verdict") != "no difference"
        if with_ratio:
            fast, slow, pt, nt = with_ratio.group(1), with_ratio.group(4), with_ratio.group(5), with_ratio.group(6)
            check_num(where, "ratio slower/faster (Hodges-Lehmann, D2)", with_ratio.group(2), r["ratio"])
            if with_ratio.group(3):
                check_interval(where, "ratio 95% interval (Bauer)", with_ratio.group(3), r["lo"], r["hi"])
            else:
                note(False, where, "no interval printed with the ratio")
        elif no_ratio:
            fast, slow, pt, nt = no_ratio.group(1), no_ratio.group(2), no_ratio.group(3), no_ratio.group(4)
            note(undefined(r["ratio"]), where, "no ratio printed: D2's ratio is %s" % fmt_g4(r["ratio"]))
        elif within:
            # p below 0.05 but the medians closer than the run's noise threshold
            # (docs/results-schema.md, "verdict"): the medians of the raw samples.
            fast = slow = None
            pt, nt = within.group(4), within.group(5)
            check_eq(where, "name", within.group(1), c.get("name"))
            within_noise(where, c, r, within.group(2), within.group(3))
        elif none:
            fast = slow = None
            pt, nt = none.group(2), none.group(3)
            note(not (r["p"] < 0.05 and r["measured"] and c.get("noise") is not None), where,
                 "'no difference detected' with p < 0.05 (recomputed %.3g): the row must say the medians are within the noise"
                 % r["p"])
            check_eq(where, "name", none.group(1), c.get("name"))
            if not r["measured"]:
                note(False, where, "says 'no difference detected' of a pair that was not measured (status %r: %s)"
                     % (c.get("status"), c.get("why", "no samples")))
        else:
            return note(False, where, "row not understood: %r" % t)
        check_eq(where, "a difference detected (the run's verdict %r)" % c.get("verdict"), fast is not None, detected)
        if fast is not None:
            ok = (fast, slow) == (r["faster"][:40], r["slower"][:40])
            out(ok, where, "faster side (by the ranks: A when U of A < m n / 2)", "%s faster than %s" % (fast, slow),
                "%s faster than %s" % (r["faster"], r["slower"]) if not r["tie"] else "neither (U = m n / 2)")
        check_p(where, "p (Mann-Whitney two-sided, asymptotic, tie- and continuity-corrected)", pt, r["p"])
        if fast is not None:
            note(r["p"] < 0.05, where, "a detected difference has p < 0.05 (recomputed p %.3g)" % r["p"])
        self.ab_label(where, c, nt)
        ae = c.get("as_expected")
        if c.get("expect") in ("no difference", "faster", "slower") and c.get("verdict"):
            note(ae == (c["expect"] == c["verdict"]), where,
                 "as_expected %r is expect %r == verdict %r" % (ae, c["expect"], c["verdict"]))

    def ab_label(self, where, c, nt):
        """The note says what the pair is (its "check", or for an older file what the
        definitions make of it) and whether it came out as the run expected."""
        ae = c.get("as_expected")
        check = pair_check(c)
        abab = c.get("order") == "alternate"
        what = {"a/a control": "A/A control", "order check": "order check, ABAB", "placement check": "placement check",
                "a/b": "ABAB order" if abab else ("not what the run expected" if ae is False else None)}.get(check, "?")
        m = re.fullmatch(r" \((.*?)(, as expected|: NOT as expected|, NOT as expected)?\)", nt or "")
        got_what, how = (m.group(1), m.group(2) or "") if m else (None, "")
        check_eq(where, "what the pair is (check %r%s)" % (check, "" if c.get("check") else ", inferred"), got_what, what)
        if "NOT" in how or ae is False:
            note(("NOT" in how or got_what == "not what the run expected") == (ae is False), where,
                 "'NOT as expected' exactly when as_expected is false (%r, %r)" % (how, ae))
        if how and "NOT" not in how:
            note(ae is True, where, "'as expected' only when as_expected is true (%r)" % ae)

    def row_BYTEmark(self, where, texts):
        bm = self.d.get("bytemark") or {}
        m = re.fullmatch(r"integer index (\S+), floating-point index (\S+) \(original: Pentium 90 = 1\)", texts[0])
        if not m:
            return note(False, where, "row not understood: %r" % texts[0])
        gi, gf = bytemark_indexes(bm)
        check_num(where, "integer index (nbench0.c: product of mean/base_p90 ^ 0.142857)", m.group(1), gi)
        check_num(where, "floating-point index (product ^ 0.33333)", m.group(2), gf)
        for t in texts[1:]:
            p = re.fullmatch(r"profile (\S+): (shortened runs, indicative only \(not 95% certain\)|"
                             r"every kernel 95% certain|NOT every kernel 95% certain)", t)
            if not p:
                note(False, where, "row not understood: %r" % t)
                continue
            prof = profile_of(self.d)
            check_eq(where, "profile", p.group(1), prof)
            certain = all(bytemark_certain(x) for x in bm.get("tests") or [] if x.get("status") == "ok")
            want = ("every kernel 95% certain" if certain else "NOT every kernel 95% certain") \
                if prof == "full" else "shortened runs, indicative only (not 95% certain)"
            check_eq(where, "certainty (Student t half-width <= 5% of the mean)", p.group(2), want)

    def row_cores(self, where, texts):
        c = self.d.get("cores") or {}
        m = re.fullmatch(r"(\d+) CPUs; largest TSC offset (\S+) ns; worst core-to-core round trip (\S+) ns", texts[0])
        if not m or len(texts) > 1:
            return note(False, where, "row not understood: %r" % texts)
        cpus = (c.get("tsc") or {}).get("cpus") or []
        hz = c.get("tick_hz")
        check_num(where, "CPUs", m.group(1), len(cpus), "int")
        offs = [abs(x["offset_ticks"] * 1e9 / hz) if "offset_ticks" in x and hz else abs(x["offset_ns"])
                for x in cpus if x.get("offset_ticks") is not None or x.get("offset_ns") is not None]
        check_num(where, "max |offset| ns (offset_ticks * 1e9 / tick_hz)", m.group(2), max(offs) if offs else None)
        med = [v * 1e9 / hz for row in (c.get("latency") or {}).get("median_ticks") or [] for v in row if v is not None] if hz else []
        check_num(where, "worst round trip ns (max median_ticks * 1e9 / tick_hz)", m.group(3), max(med) if med else None)

    def row_memory(self, where, texts):
        mem = self.d.get("memory") or {}
        m = re.fullmatch(r"(?:(.*) per load; )?read (\S+) GB/s", texts[0])
        if not m or len(texts) > 1:
            return note(False, where, "row not understood: %r" % texts)
        hz = tick_hz(self.d)
        levels = []
        for e in mem.get("latency") or []:
            fits = e.get("fits") or "memory"
            if not levels or levels[-1][0] != fits:
                levels.append((fits, []))
            levels[-1][1].append(e)
        printed = [re.fullmatch(r"(\S+) (\S+) ns", x) for x in (m.group(1) or "").split(", ")] if m.group(1) else []
        if len(printed) != len(levels) or not all(printed):
            note(False, where, "levels %r, the JSON's %r" % (m.group(1), [lv[0] for lv in levels]))
        for x, (name, es) in zip(printed, levels):
            if not x:
                continue
            mid = es[(len(es) - 1) // 2]
            check_eq(where, "level", x.group(1), name)
            check_num(where, "%s ns per load (middle size %d: ticks_median / loads * 1e9 / hz)" % (name, mid["size_bytes"]),
                      x.group(2), mid["ticks_median"] / mid["loads"] * 1e9 / hz)
        best = []
        for b in mem.get("bandwidth") or []:
            for rd in [b.get("read")] + [w.get("read") for w in b.get("widths") or []]:
                if rd and rd.get("ticks_min"):
                    best.append(rd["bytes"] * hz / rd["ticks_min"] / 1e9)
        check_num(where, "read GB/s (max bytes * hz / ticks_min)", m.group(2), max(best) if best else None)

    def row_files(self, where, texts):
        d = self.d
        m = re.fullmatch(r"\\baremark\\(.+)\.log, \.json \((saved|NOT saved completely: see the warnings)\)", texts[0])
        if not m or len(texts) > 1:
            return note(False, where, "row not understood: %r" % texts)
        check_eq(where, "name", m.group(1), (d.get("name") or "")[:40])
        lost = any("not saved" in e for e in d.get("errors") or [] if isinstance(e, str))
        check_eq(where, "saved", m.group(2) == "saved", not lost)

    # -- the report's first screen -----------------------------------------------------
    def report(self, tag, path, groups):
        p = FirstScreen()
        p.feed(open(path, encoding="utf-8", errors="replace").read())
        d = self.d
        v = verdict_of(d)
        want = {"completed with warnings": "warnings: %d" % len(d.get("errors") or [])}.get(v, v)
        if v == "interrupted":
            want = "interrupted during " + (interrupted_in(d) or "an unknown section")
        check_eq(tag + " badge", "verdict", p.badge.strip(), want)
        # the lines: the summary's rows but the two tables, with the same numbers
        rows = {label: texts for label, texts in groups if label not in ("targets", "A/B")}
        got = {label: texts for label, texts in p.lines}
        for label, texts in rows.items():
            where = "%s line %s" % (tag, label)
            if label not in got:
                note(False, where, "missing from the first screen")
                continue
            a, b = numbers(" ".join(texts)), numbers(" ".join(got[label]))
            out(a == b, where, "the same numbers as the summary", " ".join(b), " ".join(a), "text identical" if texts == got[label] else "")
        for label in got:
            if label not in rows:
                note(False, "%s line %s" % (tag, label), "not a summary row: %r" % got[label])
        # targets
        seen = set()
        for cells in p.targets:
            name = cells[0]
            where = "%s target %s" % (tag, name)
            if name not in self.targets:
                note(False, where, "not a target of the JSON")
                continue
            seen.add(name)
            tg = self.targets[name]
            e = tg["chosen"]
            u = re.fullmatch(r"below 1 step, < (\S+) ns", cells[1]) if len(cells) > 1 else None
            if u and len(cells) in (5, 6):          # the estimate's cells joined into one, or the interval's "-"
                if len(cells) == 6:
                    check_eq(where, "no interval for an unresolved target", cells[2], "-")
                    cells = cells[:2] + cells[3:]
                note(not e["resolved"], where, "shown unresolved: %s" % ("D1 agrees" if not e["resolved"] else "D1 resolves it"))
                check_num(where, "below X ns", u.group(1), e["below_x_ns"], "report")
                check_eq(where, "no ticks for an unresolved target", cells[2], "-")
                cells = cells[:1] + ["", "", ""] + cells[3:]
            elif len(cells) != 6:
                note(False, where, "cells not understood: %r" % cells)
                continue
            elif not e["resolved"]:
                note(False, where, "D1 leaves it unresolved; the cells say %r" % cells[1:4])
            else:
                check_num(where, "ns/iter", cells[1], e["ticks_ns"], "report")
                iv = cells[2].rstrip("* ")
                if iv != cells[2] or e["widened"]:
                    check_eq(where, "'*': widened to the step", iv != cells[2], e["widened"])
                check_interval(where, "95% interval ns", iv, e["wlo_ns"], e["whi_ns"], "report")
                check_num(where, "ticks/iter", cells[3], e["ticks"], "report")
            check_eq(where, "method", cells[4], e["method"])
            k = re.fullmatch(r"(\d+) of (\d+)", cells[5])
            if k:
                check_num(where, "agree k", k.group(1), tg["agree"], "int")
                check_num(where, "agree of m", k.group(2), tg["of"], "int")
            else:
                note(False, where, "agree cell %r" % cells[5])
        note(seen == set(self.targets), tag + " targets", "every target in the table (%d of %d)" % (len(seen), len(self.targets)))
        # pairs
        comps = (d.get("comparisons") or {}).get("comparisons") or []
        note(len(p.pairs) == len(comps), tag + " pairs", "%d rows for %d comparisons" % (len(p.pairs), len(comps)))
        for cells, c, r in zip(p.pairs, comps, self.pairs):
            where = "%s pair %s" % (tag, c.get("name"))
            if len(cells) != 5:
                note(False, where, "cells not understood: %r" % cells)
                continue
            check_eq(where, "name", cells[0], c.get("name"))
            detected = bool(c.get("verdict")) and c.get("verdict") != "no difference"
            um = re.fullmatch(r"not measured \((\S+)\)", cells[1])
            if um:
                check_eq(where, "why not measured (status)", um.group(1), c.get("status"))
                note(not r["measured"], where, "says 'not measured' of a pair with samples")
                continue
            f = re.match(r"(.+?) is faster|no difference detected|within the (\S+)% noise \(medians (\S+)% apart\)", cells[1])
            if not f:
                note(False, where, "finding not understood: %r" % cells[1])
            else:
                if f.group(2) is not None:
                    within_noise(where, c, r, f.group(2), f.group(3))
                check_eq(where, "a difference detected", f.group(1) is not None, detected)
                if f.group(1) is not None and not r["tie"]:
                    check_eq(where, "faster side", f.group(1), r["faster"])
            check_num(where, "ratio slower/faster", cells[2].rstrip("\u00d7x "), r["ratio"], "report")
            if cells[3] in ("-", "n/a"):
                note(undefined(r["lo"]), where, "no ratio interval: D2's is %s" % fmt_g4(r["lo"]))
            else:
                check_interval(where, "ratio 95% interval", cells[3], r["lo"], r["hi"], "report")
            pm = re.fullmatch(r"(?:p = )?(\S+)", cells[4])
            if cells[4].startswith("p"):     # figures_format_p's text: %.3f from 0.001 up, %.1e below
                check_p(where, "p", cells[4], r["p"])
            else:
                check_num(where, "p (%.2g)", pm.group(1) if pm else cells[4], r["p"], "g2")


NUM = re.compile(r"(?<![\w.])-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|n/a")


def numbers(text):
    return NUM.findall(text)


class FirstScreen(html.parser.HTMLParser):
    """The badge, the #glance-lines rows, the #targets and #pairs tables."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.badge, self.lines, self.targets, self.pairs = "", [], [], []
        self.table = None
        self.in_badge = False
        self.row = None
        self.cell = None
        self.svg = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svg += 1
        if self.svg:
            return
        if a.get("id") == "verdict":
            self.in_badge = True
        if tag == "table":
            self.table = a.get("id")
        elif tag == "tr" and self.table:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = [""]
            self.row.append(self.cell)
        elif tag == "br" and self.cell is not None:
            self.cell.append("")

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg -= 1
            return
        if self.svg:
            return
        if tag == "span" and self.in_badge:
            self.in_badge = False
        if tag == "tr" and self.row is not None:
            cells = self.row
            self.row = self.cell = None
            if self.table == "glance-lines" and len(cells) == 2:
                self.lines.append((cells[0][0].strip(), [t for t in cells[1]]))
            elif self.table == "targets" and cells and not self.is_header(cells):
                self.targets.append([" ".join(c).strip() for c in cells])
            elif self.table == "pairs" and cells and not self.is_header(cells):
                self.pairs.append([" ".join(c).strip() for c in cells])
        elif tag == "table":
            self.table = None
        elif tag in ("td", "th"):
            self.cell = None

    def is_header(self, cells):
        return cells[0][0].strip() in ("target", "A/B")

    def handle_data(self, data):
        if self.svg:
            return
        if self.in_badge:
            self.badge += data
        if self.cell is not None:
            self.cell[-1] += data


def main(argv):
    html_path = group_prefix = group_file = None
    args = []
    i = 0
    while i < len(argv):
        if argv[i] == "--html" and i + 1 < len(argv):
            html_path = argv[i + 1]
            i += 2
        elif argv[i] == "--grouped" and i + 2 < len(argv):
            group_prefix, group_file = argv[i + 1], argv[i + 2]
            i += 3
        else:
            args.append(argv[i])
            i += 1
    if len(args) < 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        d = json.load(open(args[0], encoding="utf-8"))
        if not isinstance(d, dict) or not isinstance(d.get("schema"), int):
            raise ValueError("not a results document (no schema)")
    except (OSError, ValueError) as e:
        print("recompute: %s: unusable: %s" % (args[0], e))
        return 2
    blocks = []
    for path in args[1:]:
        b = read_block(path)
        if b is None:
            print("recompute: %s: unusable: no summary block between its marker lines" % path)
            return 2
        blocks.append((os.path.basename(path), b))
    ck = Checker(d)
    groups = None
    for tag, b in blocks:
        g = ck.summary(tag, b)
        groups = groups or g
    for tag, b in blocks[1:]:
        note(b == blocks[0][1], tag + " text", "the same text as %s" % blocks[0][0])
    if html_path:
        try:
            ck.report(os.path.basename(html_path), html_path, groups)
        except OSError as e:
            print("recompute: %s: unusable: %s" % (html_path, e))
            return 2
    if group_file:
        with open(group_file, "w") as f:
            grouped(group_prefix, f)
    bad = RESULTS.count(False)
    print("%d checked: %d passed, %d failed" % (len(RESULTS), len(RESULTS) - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
