#!/usr/bin/env python3
"""fixture_covers.py FIXTURE.json FRESH.json: does the committed fixture carry
every member a fresh run of the current image writes?

The README's pictures are rendered from tests/fixtures/run-quick.json; a
fixture made by an older image lacks what the image has learnt to write
since (a method's "why", a new figure), and the picture then shows a page
the current image no longer makes.  Each JSON leaf is named by its path,
list elements as [*]; a fresh path is covered when the fixture has the same
path, or an empty list where the fresh run has elements (the member is
there, this run had none).  The echo of the run's settings (.settings) is
left out: it is not on the pictures' first screen and grows with each new
setting.  Exit 0 when covered; otherwise one line naming up to 8 missing
paths, exit 1.  An unreadable file: exit 2."""
import json
import sys


def leaves(o, p=""):
    if isinstance(o, dict):
        out = set()
        for k, v in o.items():
            out |= leaves(v, p + "." + k)
        return out
    if isinstance(o, list):
        if not o:
            return {p + "[]"}
        out = set()
        for v in o:
            out |= leaves(v, p + "[*]")
        return out
    return {p}


def covered(path, have):
    if path in have:
        return True
    # an empty list in the fixture at any [*] of the path
    i = path.find("[*]")
    while i >= 0:
        if path[:i] + "[]" in have:
            return True
        i = path.find("[*]", i + 1)
    return False


def main():
    if len(sys.argv) != 3:
        print("usage: fixture_covers.py FIXTURE.json FRESH.json")
        return 2
    docs = []
    for f in sys.argv[1:]:
        try:
            with open(f) as fh:
                docs.append(json.load(fh))
        except (OSError, ValueError) as e:
            print("%s: cannot read: %s" % (f, e))
            return 2
    have = leaves(docs[0])
    missing = sorted(p for p in leaves(docs[1])
                     if not p.startswith(".settings.") and not covered(p, have))
    if not missing:
        return 0
    print("%s lacks %d member(s) the current image writes: %s%s"
          % (sys.argv[1], len(missing), ", ".join(missing[:8]), ", ..." if len(missing) > 8 else ""))
    return 1


if __name__ == "__main__":
    sys.exit(main())
