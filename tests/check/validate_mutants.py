#!/usr/bin/env python3
"""Mutated results files for `baremark validate`, to compare two builds of
the validator: every leaf of each fixture (and every object or array
member) altered one way at a time - removed, made null, a string, a
boolean, a negative number, a fraction, an object - each written as one
file.  Deterministic: the same fixtures give the same files.

    tests/check/validate_mutants.py OUTDIR FIXTURE.json...

Then run both validators over OUTDIR/*.json and compare what they print
(tests/check/validate_mutants.sh does it).  At most --per-file mutants per
fixture, spread evenly over its members.
"""
import argparse, copy, json, os, sys

MUTATIONS = [
    ("removed", None),
    ("null", None),
    ("string", "x"),
    ("bool", True),
    ("negative", -1),
    ("fraction", 0.5),
    ("object", {}),
]


def places(node, path=()):
    """Every member and element below node, as a path of keys and indexes."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,)
            yield from places(v, path + (k,))
    elif isinstance(node, list):
        # the first two elements: the rest are the same shape
        for i, v in enumerate(node[:2]):
            yield path + (i,)
            yield from places(v, path + (i,))


def mutate(doc, path, how, value):
    out = copy.deepcopy(doc)
    parent = out
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    if how == "removed":
        if isinstance(parent, dict):
            del parent[last]
        else:
            del parent[last]
    else:
        parent[last] = copy.deepcopy(value)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("fixtures", nargs="+")
    ap.add_argument("--per-file", type=int, default=150)
    ap.add_argument("--keys", default="", help="KEY,KEY...: every mutation of every member so named "
                    "(its last key), no cap, instead of the spread")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    n = 0
    for fx in a.fixtures:
        with open(fx) as f:
            doc = json.load(f)
        keys = set(a.keys.split(",")) - {""}
        ps = [p for p in places(doc) if (p[0] not in ("schema",) if not keys else p[-1] in keys)]
        cands = [(p, m) for p in ps for m in MUTATIONS]
        if keys:
            a.per_file = len(cands)
        step = max(1, len(cands) // a.per_file)
        if step % len(MUTATIONS) == 0:   # else every pick is the same kind
            step += 1
        chosen = cands[::step][: a.per_file]
        base = os.path.splitext(os.path.basename(fx))[0]
        for i, (p, (how, value)) in enumerate(chosen):
            out = mutate(doc, p, how, value)
            name = "%s-%04d-%s.json" % (base, i, how)
            with open(os.path.join(a.outdir, name), "w") as f:
                json.dump(out, f, indent=1)
            with open(os.path.join(a.outdir, name[:-5] + ".what"), "w") as f:
                f.write("%s %s\n" % (".".join(str(k) for k in p), how))
            n += 1
    print("%d mutated files in %s" % (n, a.outdir))


if __name__ == "__main__":
    sys.exit(main())
