#!/bin/sh
# The layers and the size of files (issue 24, item 5; README "Layout"):
#  1. includes run one way: port/ (the port, port/platform.h) includes
#     nothing of the others, nor does stats/; kernel/ (drivers) nothing but
#     itself and the port; bench/ nothing of boot/, and of kernel/ only
#     from a feature's room (bench/NAME/: a section that drives the timers
#     or the CPUs itself, through the drivers' headers), never from
#     bench/'s own files (the section table); the host tools nothing of
#     boot/.  An include is resolved as the compiler does (the including
#     file's folder, then the Makefile's -I. -Iport -Ibench -Ibench/NAME...
#     -Istats -Ikernel -Iboot), so a bare "cpu.h" counts as kernel/cpu.h;
#  2. no circle of includes (a file that includes itself through others);
#  3. no two source files include each other: a file's room is the file
#     with its own header (X.c with X.h; a header without a source of its
#     own, X_internal.h, counts for the files that include it); a room that
#     includes another's header needs it, and a circle of rooms is one unit
#     cut in two;
#  4. no source file (*.c, *.h, *.asm, *.sh under git) is over 700 lines;
#  5. a call up the layers is a call to the port: every name an object file
#     of a lower layer takes from one of a higher layer (nm: undefined in
#     the one, defined in the other; the image's objects and the host
#     program's, each linked as its program is) is declared in the port,
#     port/platform.h (text output and the results document included);
#  6. no circle of calls: an arrow from room A to room B (rule 3's rooms,
#     an assembly file X.asm or X_stubs.asm in X.c's) where A's object takes
#     a name, a function or a variable, that B's defines; calls to the port
#     are left out (each program links its own implementation of it: the
#     arrow is the port's, not the caller's).  Two or more rooms that reach
#     each other so are one unit cut in two: a driver and its parts call
#     one way, and what the parts share goes below them.  Calls inside one
#     file and through function pointers are not seen.
# Rules 5 and 6 read the objects the build made: the test runs make for the
# image and the host program first (nothing to do when they are current).
# Each finding is one FAIL line naming the files (and the names that tie
# them); each rule that holds is one PASS line.
set -u
cd "$(dirname "$0")/../.."
if ! make -s image host > /dev/null 2>&1; then
    echo "FAIL: build: make image host failed: rules 5 and 6 need the object files (run make to see why)"
    exit 1
fi
exec /usr/bin/python3 - <<'PY'
import collections, os, re, subprocess, sys

MAX_LINES = 700
# the Makefile's INCLUDES, in order: bench/'s rooms (one folder a feature) after bench/
ROOMS = sorted(d for d in (os.path.join("bench", n) for n in os.listdir("bench")) if os.path.isdir(d))
INCLUDE_DIRS = ["", "port", "bench"] + ROOMS + ["stats", "kernel", "boot"]
# the hosted program's rooms (tools/host/COMMAND/), include folders of its own
HOST_ROOMS = sorted(d for d in (os.path.join("tools/host", n) for n in os.listdir("tools/host")) if os.path.isdir(d))
# Which layers a layer may include (plugins/: the plug-in ABI header).
MAY = {
    "port":   set(),
    "stats":  {"stats"},
    "bench":  {"port", "stats", "bench", "kernel", "plugins", "build"},
    "kernel": {"port", "kernel"},
    "boot":   {"port", "stats", "bench", "kernel", "boot", "plugins", "build"},
    "tools":  {"port", "stats", "bench", "kernel", "tools", "plugins", "build"},
}

def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", "--"] + list(patterns), capture_output=True, text=True).stdout
    return [p for p in out.split("\n") if p and os.path.exists(p)]

def layer(path):
    top = path.split("/")[0]
    return {"tools": "tools", "build": "build"}.get(top, top)

def resolve(src, name):
    here = os.path.dirname(src)
    for d in [here] + INCLUDE_DIRS + (HOST_ROOMS if src.startswith("tools/host/") else []):
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
        if not target:
            continue
        why = None
        if layer(target) not in MAY[layer(src)]:
            why = "%s/ may include only %s" % (layer(src), ", ".join(sorted(MAY[layer(src)])) or "system headers")
        elif layer(src) == "bench" and layer(target) == "kernel" and os.path.dirname(src) == "bench":
            why = "bench/'s own files (the section table) include nothing of kernel/: only a feature's room bench/NAME/ may"
        if why:
            fail("layers", '%s includes "%s" (%s): %s' % (src, name, target, why))
            bad += 1
if not bad:
    print("PASS: layers: port/ and stats/ include nothing of the others, kernel/ nothing but itself and the port, "
          "bench/ nothing of boot/ (and of kernel/'s drivers only from a feature's room), "
          "tools/host/ nothing of boot/ (%d files)" % len(inc))

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
    """X.c with X.h, and with its assembly: X.asm or X_stubs.asm (the entry
    stubs that call back into the C they serve)."""
    base, ext = os.path.splitext(path)
    if ext == ".asm" and base.endswith("_stubs"):
        base = base[:-len("_stubs")]
    if ext in (".h", ".asm") and os.path.exists(base + ".c"):
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

# 5 and 6: the names object files take from each other.  Each program is
# read as it is linked: the image (build/efi: stats, bench, kernel, boot)
# and the host program (build/host/obj: stats, bench, kernel/cpu.c,
# tools/host).  An object's source is the .c (or .asm) it was built from.
PORT_HEADERS = ["port/platform.h"]
# kernel/ (drivers) below bench/ (the sections that use them): a driver
# reaches a section only through the port
ORDER = {"stats": 0, "kernel": 1, "bench": 2, "boot": 3, "tools": 4}
def objects(root):
    found = {}
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".o"):
                continue
            rel = os.path.relpath(os.path.join(d, f), root)
            src = rel[:-2] if rel.endswith(".asm.o") else rel[:-2] + ".c"
            if os.path.exists(src) and layer(src) in ORDER:
                found[src] = os.path.join(d, f)
    return found
def symbols(objs):
    """{source: (names defined, names used)} from one nm over all objects."""
    by_obj = {o: s for s, o in objs.items()}
    out = {s: (set(), set()) for s in objs}
    text = subprocess.run(["nm", "-P", "-A"] + sorted(by_obj), capture_output=True, text=True).stdout
    for line in text.split("\n"):
        f = line.split()
        if len(f) < 3 or not f[0].endswith(":") or f[0][:-1] not in by_obj:
            continue
        defined, used = out[by_obj[f[0][:-1]]]
        if f[2] == "U":
            used.add(f[1])
        elif f[2] in "TDBRCVWG":
            defined.add(f[1])
    return out
def declared(path):
    """The functions and variables a header declares (comments left out)."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", " ", open(path).read(), flags=re.S)
    return set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)) | \
           set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:\[[^]]*\])?\s*;", text))
port = set()
for h in PORT_HEADERS:
    port |= declared(h)
calls = collections.defaultdict(lambda: collections.defaultdict(set))   # room -> room -> names
up = []
for prog, root in (("image", "build/efi"), ("host program", "build/host/obj")):
    objs = objects(root)
    if not objs:
        fail("objects", "no object files under %s: the build did not make them" % root)
        continue
    syms = symbols(objs)
    owner = collections.defaultdict(set)
    for s, (d, _) in syms.items():
        for n in d:
            owner[n].add(s)
    for s, (_, u) in sorted(syms.items()):
        for n in sorted(u):
            for t in owner.get(n, ()):
                if t == s:
                    continue
                if ORDER[layer(t)] > ORDER[layer(s)] and n not in port:
                    up.append("%s (%s) takes %s from %s" % (s, prog, n, t))
                if n not in port and room(t) != room(s):
                    calls[room(s)][room(t)].add(n)
for u in sorted(set(up)):
    fail("port", "%s: a call up the layers is a service of the port: declare it in %s"
         % (u, " or ".join(PORT_HEADERS)))
if not up:
    print("PASS: port: every name a lower layer takes from a higher one is declared in %s"
          % ", ".join(PORT_HEADERS))

call_cycles = cycles({r: list(t) for r, t in calls.items()})
for c in call_cycles:
    shown = ["%s -> %s: %s" % (a, b, ", ".join(sorted(calls[a][b])[:4])) for a in c for b in c if b in calls[a]]
    fail("call circle", "%s reach each other (%s)" % (", ".join(c), "; ".join(shown)))
if not call_cycles:
    print("PASS: call circle: no two files reach each other through the names their objects take (%d rooms)"
          % len(calls))
PY
