#!/bin/sh
# tests/unit/test_docs.sh - the documentation test: the README and docs/*.md
# say what the tree does.
#
# 1. The README is at most 320 lines.
# 2. Every relative link in README.md and docs/*.md names a file that exists,
#    and a #fragment names a heading of that file (GitHub's anchors).
# 3. docs/settings.md has a row for every setting the parser knows
#    (bench/config/config_params.c: its table and the DOxxx / xxxMINSECONDS names)
#    and no row for a setting it does not know.
# 4. The commands, as written, run on a fresh clone of HEAD.  The convention
#    (also stated in docs/guide-ci.md):
#      ```sh      a command block: run with `sh -e` at the top of the clone,
#                 in document order (README.md, then docs/*.md by name); it
#                 fails when it exits non-zero or writes to standard error.
#      <!-- doc-test: skip (REASON) -->  just before a ```sh block: not run
#                 (a USB stick, root, the whole suite); the reason is required.
#      ```text    right after a run ```sh block: its expected standard
#                 output, line by line (trailing blanks ignored); a line
#                 that is only `...` (indented or not) stands for any
#                 number of lines.
#      <!-- doc-test: vary REGEX -->  before a ```text block: the parts of
#                 each line matching the Python regex may differ.
#      <!-- doc-test: file NAME -->  before any fenced block: its text is
#                 written to NAME in the clone, in document order.
#      ```console, ```c, ```yaml ...  illustrations, not run.
#    The clone gets a copy of this tree's build/ (not results/, tests/,
#    fuzz/), and each tracked file of the clone that is byte for byte the
#    same as this tree's gets this tree's timestamp, so make rebuilds exactly
#    what differs from the build it was given (everything, when this tree
#    has uncommitted changes: the version string then differs).
set -u
cd "$(dirname "$0")/../.."
TOP=$(pwd)
T=$(mktemp -d /tmp/baremark-doctest.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM

# ---- the clean clone ---------------------------------------------------------
clone=$T/clone
if git clone -q --no-checkout "$TOP" "$clone" 2>"$T/clone.err" &&
   git -C "$clone" checkout -q "$(git rev-parse HEAD)" 2>>"$T/clone.err"; then
    if [ -d build ]; then
        mkdir -p "$clone/build"
        tar -C build --exclude=./results --exclude=./tests --exclude=./fuzz -cf - . |
            tar -C "$clone/build" -xf -
        git ls-files -z | (cd "$clone" && xargs -0 sh -c '
            for f; do [ -f "$f" ] && cmp -s "$f" "$0/$f" && touch -r "$0/$f" "$f"; done' "$TOP")
    fi
    echo "PASS: cloned HEAD $(git rev-parse --short HEAD) into a fresh directory"
else
    echo "FAIL: could not clone HEAD: $(head -2 "$T/clone.err" | tr '\n' ' ')"
    exit 1
fi

/usr/bin/python3 - "$TOP" "$clone" <<'PY'
import os, re, subprocess, sys, glob

top, clone = sys.argv[1], sys.argv[2]
os.chdir(top)
docs = ["README.md"] + sorted(glob.glob("docs/*.md"))

def ok(msg):   print("PASS: " + msg)
def bad(msg):  print("FAIL: " + msg)

# ---- 1. the README's length -------------------------------------------------
n = len(open("README.md", encoding="utf-8").read().splitlines())
(ok if n <= 320 else bad)("README.md is %d lines (at most 320)" % n)

# ---- 2. relative links ----------------------------------------------------------
PENDING = set()     # docs named before they exist: none now


def strip_code(text):
    """The text outside fenced blocks and inline code spans."""
    out, fence = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
            out.append("")
            continue
        out.append("" if fence else re.sub(r"`[^`]*`", "", line))
    return out

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")

def headings_with_code(path):
    # headings keep their code spans' text in the anchor: read them raw
    found, fence = set(), False
    for line in open(path, encoding="utf-8").read().splitlines():
        if line.lstrip().startswith("```"):
            fence = not fence
        elif not fence:
            m = re.match(r"#+\s+(.*)", line)
            if m:
                found.add(slug(m.group(1).replace("`", "")))
    return found

nlinks, broken, pending = 0, [], []
for d in docs:
    for i, line in enumerate(strip_code(open(d, encoding="utf-8").read()), 1):
        for target in re.findall(r"\]\(([^)\s]+)\)", line):
            if re.match(r"[a-z]+:", target) or target.startswith("//"):
                continue                      # http:, https:, mailto:
            nlinks += 1
            path, _, frag = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(d), path)) if path else d
            if not os.path.exists(full):
                (pending if full in PENDING else broken).append("%s:%d: %s" % (d, i, target))
                continue
            if frag and full.endswith(".md") and frag not in headings_with_code(full):
                broken.append("%s:%d: %s (no heading #%s in %s)" % (d, i, target, frag, full))
if broken:
    for b in broken:
        bad("broken link " + b)
else:
    ok("%d relative links in %d files resolve (files and #headings)" % (nlinks, len(docs)))
for p in pending:
    print("note: %s: written on another branch, not in this tree yet" % p)

# ---- 3. docs/settings.md against the parser's table -------------------------------
src = open("bench/config/config_params.c", encoding="utf-8").read()
known = set(re.findall(r'\{\s*"([A-Z0-9_]+)",\s*K_', src))
for arr in ("cfg_do_names", "cfg_minsec_names"):
    body = re.search(arr + r"\[[^\]]*\]\s*=\s*\{(.*?)\};", src, re.S)
    known |= set(re.findall(r'"([A-Z0-9_]+)"', body.group(1))) if body else set()
documented = set()
for line in open("docs/settings.md", encoding="utf-8").read().splitlines():
    if line.startswith("|") and not line.startswith("|---"):
        documented |= set(re.findall(r"`([A-Z][A-Z0-9_]*)`", line.split("|")[1]))
if len(known) < 40:
    bad("read only %d setting names from bench/config/config_params.c: the test's reader is wrong" % len(known))
missing, unknown = sorted(known - documented), sorted(documented - known)
(ok if not missing else bad)("docs/settings.md has a row for each of the parser's %d settings%s"
                             % (len(known), "; missing: " + " ".join(missing) if missing else ""))
(ok if not unknown else bad)("docs/settings.md names no setting the parser does not know%s"
                             % ("; unknown: " + " ".join(unknown) if unknown else ""))

# ---- 4. the commands ----------------------------------------------------------------
MARK = re.compile(r"\s*<!--\s*doc-test:\s*(skip|file|vary)\b\s*(.*?)\s*-->\s*$")

def blocks(path):
    """(line, info, text, marks) for each fenced block; marks: the doc-test
    comments between the previous block (or text) and this one."""
    lines = open(path, encoding="utf-8").read().splitlines()
    out, marks, i = [], [], 0
    prev_end = None
    while i < len(lines):
        line = lines[i]
        m = MARK.match(line)
        if m:
            marks.append((i + 1, m.group(1), m.group(2)))
        elif line.lstrip().startswith("```"):
            indent = len(line) - len(line.lstrip())
            info = line.strip()[3:].strip()
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].lstrip().startswith("```"):
                body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
                j += 1
            between = [l for l in lines[prev_end:i] if l.strip() and not MARK.match(l)] \
                if prev_end is not None else ["x"]
            out.append(dict(line=i + 1, info=info, text="\n".join(body) + "\n", marks=marks,
                            follows=not between))
            marks, prev_end, i = [], j + 1, j + 1
            continue
        elif line.strip():
            if marks and not MARK.match(line):
                for (ln, kind, _) in marks:
                    bad("%s:%d: doc-test %s marker not followed by a fenced block" % (path, ln, kind))
                marks = []
        i += 1
    return out

def match(expected, actual, vary):
    """Expected lines against actual ones; '...' stands for any lines."""
    def norm(l):
        l = l.rstrip()
        for v in vary:
            l = re.sub(v, "<varies>", l)
        return l
    exp = [norm(l) for l in expected.rstrip("\n").split("\n")]
    act = [norm(l) for l in actual.rstrip("\n").split("\n")] if actual.strip() else []
    memo = {}
    def go(a, b):
        if (a, b) in memo:
            return memo[(a, b)]
        if a == len(exp):
            r = b == len(act)
        elif exp[a].strip() == "...":
            r = any(go(a + 1, k) for k in range(b, len(act) + 1))
        else:
            r = b < len(act) and exp[a] == act[b] and go(a + 1, b + 1)
        memo[(a, b)] = r
        return r
    sys.setrecursionlimit(10000)
    if go(0, 0):
        return None
    # the first expected line that is not found in order, for the message
    b = 0
    for l in exp:
        if l.strip() == "...":
            continue
        while b < len(act) and act[b] != l:
            b += 1
        if b == len(act):
            return "expected %r, not found in the output in order" % l
        b += 1
    return "the output has lines the text does not show"

# the matcher must be able to fail: one changed line, one line too many
if match("a\n...\nc\n", "a\nb\nc\n", []) is not None or \
   match("a\n    ...\nc\n", "a\nb\nb\nc\n", []) is not None or \
   match("a 1.5 s\n", "a 2.25 s\n", [r"[0-9.]+ s"]) is not None or \
   match("a\n...\nc\n", "a\nb\nX\n", []) is None or match("a\nb\n", "a\nb\nc\n", []) is None:
    bad("the output matcher accepts what it must refuse (or refuses what it must accept)")

env = dict(os.environ)
env.pop("MAKEFLAGS", None); env.pop("MFLAGS", None); env.pop("MAKELEVEL", None)
nrun = nskip = 0
for d in docs:
    bl = blocks(d)
    last_run = None
    for b in bl:
        where = "%s:%d" % (d, b["line"])
        kinds = {k: a for (_, k, a) in b["marks"]}
        if "file" in kinds:
            name = kinds["file"]
            if not re.match(r"^[\w.-]+$", name):
                bad("%s: doc-test file name %r is not a plain file name" % (where, name))
                continue
            with open(os.path.join(clone, name), "w") as f:
                f.write(b["text"])
            continue
        if b["info"] == "text":
            if not (b["follows"] and last_run is not None):
                bad("%s: a ```text block (expected output) that does not follow a run ```sh block" % where)
                continue
            name, out = last_run
            vary = [a for (_, k, a) in b["marks"] if k == "vary"]
            why = match(b["text"], out, vary)
            (ok if why is None else bad)("%s: the output of the command at %s is as shown%s"
                                         % (where, name, "" if why is None else ": " + why))
            last_run = None
            continue
        last_run = None
        if b["info"] != "sh":
            if "skip" in kinds:
                bad("%s: doc-test skip before a ```%s block (only ```sh blocks run)" % (where, b["info"]))
            continue
        if "skip" in kinds:
            if not re.match(r"^\(.+\)$", kinds["skip"]):
                bad("%s: doc-test skip without a reason in parentheses" % where)
            nskip += 1
            continue
        nrun += 1
        try:
            p = subprocess.run(["sh", "-e", "-c", b["text"]], cwd=clone, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=1500)
            out, err, rc = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), p.returncode
        except subprocess.TimeoutExpired:
            out, err, rc = "", "timed out after 1500 s", 124
        first = b["text"].strip().splitlines()[0]
        if rc != 0:
            tail = (err.strip() or out.strip()).splitlines()[-3:]
            bad("%s: `%s` exited %d: %s" % (where, first, rc, " | ".join(tail)))
        elif err.strip():
            bad("%s: `%s` wrote to standard error what the text does not say: %s"
                % (where, first, " | ".join(err.strip().splitlines()[:3])))
        else:
            ok("%s: `%s` ran as written" % (where, first))
        last_run = (where, out)
print("note: %d command blocks run, %d skipped with a reason" % (nrun, nskip))
if nrun < 5:
    bad("only %d command blocks ran: the extractor is not finding them" % nrun)
PY
