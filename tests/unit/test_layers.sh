#!/bin/sh
# The layers and the size of files (issue 24, item 5; README "Layout"):
#  1. includes run one way: stats/ includes nothing of the others, bench/
#     nothing of kernel/ or boot/, kernel/ nothing of boot/, the host tools
#     nothing of boot/.  An include is resolved as the compiler does (the
#     including file's folder, then the Makefile's -I. -Ibench -Istats
#     -Ikernel -Iboot), so a bare "cpu.h" counts as kernel/cpu.h;
#  2. no circle of includes (a file that includes itself through others);
#  3. no two source files include each other: a file's room is the file
#     with its own header (X.c with X.h; a header without a source of its
#     own, X_internal.h, counts for the files that include it); a room that
#     includes another's header needs it, and a circle of rooms is one unit
#     cut in two;
#  4. no source file (*.c, *.h, *.asm, *.sh under git) is over 700 lines.
# Each finding is one FAIL line naming the files (and the names that tie
# them); each rule that holds is one PASS line.
set -u
cd "$(dirname "$0")/../.."
exec /usr/bin/python3 - <<'PY'
import collections, os, re, subprocess, sys

MAX_LINES = 700
INCLUDE_DIRS = ["", "bench", "stats", "kernel", "boot"]   # the Makefile's INCLUDES, in order
# Which layers a layer may include (plugins/: the plug-in ABI header).
MAY = {
    "stats":  {"stats"},
    "bench":  {"stats", "bench", "plugins", "build"},
    "kernel": {"stats", "bench", "kernel", "plugins", "build"},
    "boot":   {"stats", "bench", "kernel", "boot", "plugins", "build"},
    "tools":  {"stats", "bench", "kernel", "tools", "plugins", "build"},
}

def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", "--"] + list(patterns), capture_output=True, text=True).stdout
    return [p for p in out.split("\n") if p and os.path.exists(p)]

def layer(path):
    top = path.split("/")[0]
    return {"tools": "tools", "build": "build"}.get(top, top)

def resolve(src, name):
    here = os.path.dirname(src)
    for d in [here] + INCLUDE_DIRS:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.exists(p):
            return p
    return "build/" + name if name == "buildinfo.h" else None

sources = [p for p in tracked("*.c", "*.h") if layer(p) in MAY and not p.startswith("tools/") or p.startswith("tools/host/")]
inc = {}
for src in sources:
    names = re.findall(r'^\s*#\s*include\s+"([^"]+)"', open(src, errors="replace").read(), re.M)
    inc[src] = [(n, resolve(src, n)) for n in names]

fails = []
def fail(rule, what):
    fails.append(rule)
    print("FAIL: %s: %s" % (rule, what))

# 1. layers
bad = 0
for src, lst in sorted(inc.items()):
    for name, target in lst:
        if target and layer(target) not in MAY[layer(src)]:
            fail("layers", '%s includes "%s" (%s): %s/ may include only %s'
                 % (src, name, target, layer(src), ", ".join(sorted(MAY[layer(src)]))))
            bad += 1
if not bad:
    print("PASS: layers: stats/ includes nothing of the others, bench/ nothing of kernel/ or boot/, "
          "kernel/ nothing of boot/, tools/host/ nothing of boot/ (%d files)" % len(inc))

# 2. circles of includes
graph = {s: [t for _, t in lst if t in inc] for s, lst in inc.items()}
def cycles(graph):
    """Tarjan: the strongly connected components with more than one node (or a self loop)."""
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))
    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index: visit(v)
    return out
inc_cycles = cycles(graph)
for c in inc_cycles:
    fail("include circle", " -> ".join(c))
if not inc_cycles:
    print("PASS: include circle: no header includes itself through others")

# 3. rooms that need each other.  A header with a source of its own (X.h,
# X.c) is that source's room; a header without one (X_internal.h) belongs
# to whoever includes it, so what it includes counts for them.
def room(path):
    base, ext = os.path.splitext(path)
    if ext == ".h" and os.path.exists(base + ".c"):
        return base + ".c"
    return path
def has_room(path):
    return not path.endswith(".h") or room(path) != path
def reach(src, seen):
    """The rooms src needs through its includes, header-only ones passed through."""
    for name, target in inc.get(src, ()):
        if target not in inc or target in seen:
            continue
        seen.add(target)
        if has_room(target):
            yield room(target), name
        else:
            yield from reach(target, seen)
need = collections.defaultdict(dict)       # room -> room -> names
for src in inc:
    if not has_room(src):
        continue
    for r, name in reach(src, {src}):
        if r != room(src):
            need[room(src)].setdefault(r, set()).add(name)
room_cycles = cycles({r: list(t) for r, t in need.items()})
for c in room_cycles:
    ties = ["%s -> %s: %s" % (a, b, ", ".join(sorted(need[a][b])[:4])) for a in c for b in c if b in need.get(a, {})]
    fail("room circle", "%s need each other (%s)" % (", ".join(c), "; ".join(ties)))
if not room_cycles:
    print("PASS: room circle: no two source files include each other's header (%d rooms)"
          % len(set(room(p) for p in inc if has_room(p))))

# 4. size
long_files = []
for p in tracked("*.c", "*.h", "*.asm", "*.sh"):
    n = sum(1 for _ in open(p, errors="replace"))
    if n > MAX_LINES:
        long_files.append(p)
        fail("size", "%s has %d lines (at most %d: split it by concern)" % (p, n, MAX_LINES))
if not long_files:
    print("PASS: size: no .c, .h, .asm or .sh file over %d lines" % MAX_LINES)
PY
