#!/usr/bin/env python3
"""tools/lib/results_upload.py - `baremark-results upload SOURCE URL --key-file FILE`.

Sends every run on SOURCE (a folder holding baremark/, the baremark folder
itself, or, through tools/baremark-results, an mtools drive of a stick or
image) that SOURCE's baremark/uploaded.txt does not list, as the image does
at the end of a run (docs/results-upload.md): POST URL/api/runs with the
JSON file's bytes, then POST URL/api/runs/SHA/log with its log, each with
X-Baremark-Signature: sha256=HMAC-SHA256(key, body).  201 and 409 both
acknowledge; the run is then added to uploaded.txt when SOURCE is writable
(else the lines are printed).  Exit 0 every run acknowledged, 1 some not
(server unreachable or refusing), 2 usage.
"""
import hashlib
import hmac
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

TOOL = "baremark-results"
RUN_RE = re.compile(r"^([0-9]{8}-[0-9]{6}(?:-[0-9]+)?)\.json$", re.I)


def die(msg, code=1):
    print("%s: %s" % (TOOL, msg), file=sys.stderr)
    sys.exit(code)


class Folder:
    def __init__(self, path):
        self.dir = path
        self.where = path

    def names(self):
        return os.listdir(self.dir)

    def read(self, name):
        try:
            with open(os.path.join(self.dir, name), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def append(self, name, text):
        with open(os.path.join(self.dir, name), "ab") as f:
            f.write(text)


class Mtools:
    def __init__(self, drive, shown):
        self.drive = drive
        self.where = shown

    def names(self):
        r = subprocess.run(["mdir", "-b", "-i", self.drive, "::/baremark"], capture_output=True, text=True)
        if r.returncode:
            die("no \\baremark folder on %s" % self.where)
        return [line.rsplit("/", 1)[-1] for line in r.stdout.splitlines() if not line.endswith("/")]

    def read(self, name):
        r = subprocess.run(["mtype", "-i", self.drive, "::/baremark/" + name], capture_output=True)
        return r.stdout if r.returncode == 0 else None

    def append(self, name, text):
        old = self.read(name) or b""
        with tempfile.NamedTemporaryFile() as t:
            t.write(old + text)
            t.flush()
            r = subprocess.run(["mcopy", "-o", "-i", self.drive, t.name, "::/baremark/" + name],
                               capture_output=True, text=True)
        if r.returncode:
            raise OSError(r.stderr.strip() or "mcopy failed")


def post(url, key, body, ctype, timeout):
    sig = hmac.new(key, body, hashlib.sha256).hexdigest()
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": ctype, "X-Baremark-Signature": "sha256=" + sig})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def error_of(answer):
    try:
        return json.loads(answer).get("error") or ""
    except (ValueError, AttributeError):
        return ""


def main(argv):
    args, key_file, drive, shown, timeout = [], None, None, None, 30.0
    it = iter(argv)
    for a in it:
        if a == "--key-file":
            key_file = next(it, None)
        elif a == "--mtools-drive":         # from tools/baremark-results: the stick's FAT volume
            drive, shown = next(it, None), next(it, None)
        elif a == "--timeout":
            try:
                timeout = float(next(it, ""))
            except ValueError:
                die("--timeout needs seconds", 2)
        elif a.startswith("-"):
            die("upload: unknown option %s" % a, 2)
        else:
            args.append(a)
    if len(args) != 2 or not key_file:
        die("usage: baremark-results upload SOURCE URL --key-file FILE", 2)
    src, url = args
    if not re.match(r"^https?://[^/\s]+(/\S*)?$", url):
        die("upload: URL '%s' is not http://HOST:PORT/ (or https://)" % url, 2)
    base = url if url.endswith("/") else url + "/"
    try:
        key = open(key_file, "rb").read().rstrip(b"\r\n")
    except OSError as e:
        die("upload: --key-file %s: %s" % (key_file, e.strerror), 2)
    if not 1 <= len(key) <= 128:
        die("upload: --key-file %s: the key must be 1 to 128 bytes (it has %d)" % (key_file, len(key)), 2)
    if drive:
        vol = Mtools(drive, shown)
    else:
        d = src
        for sub in ("baremark", "BAREMARK"):
            if os.path.isdir(os.path.join(src, sub)):
                d = os.path.join(src, sub)
                break
        if not os.path.isdir(d):
            die("upload: %s is not a folder, stick or image" % src, 2)
        vol = Folder(d)
    record = vol.read("uploaded.txt") or b""
    acked = {line.split(b" ")[0].decode("ascii", "replace") for line in record.splitlines() if b" " in line}
    runs = sorted(m.group(1) for m in map(RUN_RE.match, vol.names()) if m)
    todo = [r for r in runs if r not in acked]
    print("%s: %d run(s) on %s, %d acknowledged in uploaded.txt, %d to send to %s"
          % (TOOL, len(runs), vol.where, len(runs) - len(todo), len(todo), base))
    lines, failed = [], 0
    for name in todo:
        body = vol.read(name + ".json")
        if body is None:
            print("%s: %s: its JSON could not be read" % (TOOL, name), file=sys.stderr)
            failed += 1
            continue
        sha = hashlib.sha256(body).hexdigest()
        try:
            st, ans = post(base + "api/runs", key, body, "application/json", timeout)
            lst, lans = 0, b""
            if st in (201, 409):
                log = vol.read(name + ".log")
                if log is not None:
                    lst, lans = post(base + "api/runs/%s/log" % sha, key, log, "text/plain", timeout)
        except (urllib.error.URLError, OSError) as e:
            why = getattr(e, "reason", e)
            print("%s: server %s not reached (%s); %d run(s) not sent" % (TOOL, base, why, len(todo) - len(lines) - failed),
                  file=sys.stderr)
            failed = len(todo) - len(lines)
            break
        if st not in (201, 409):
            print("%s: %s refused by the server (%d%s)" % (TOOL, name, st, ": " + error_of(ans) if error_of(ans) else ""),
                  file=sys.stderr)
            failed += 1
            if st == 401:
                break
            continue
        if lst and lst // 100 != 2 and lst != 409:
            print("%s: %s stored (%d) but its log refused (%d%s)" % (TOOL, name, st, lst,
                  ": " + error_of(lans) if error_of(lans) else ""), file=sys.stderr)
            failed += 1
            continue
        print("%s: %s %s (%d, sha256 %s)" % (TOOL, name, "stored" if st == 201 else "already stored", st, sha))
        lines.append("%s %s %s\n" % (name, sha, base))
    if lines:
        text = "".join(lines).encode()
        try:
            vol.append("uploaded.txt", text)
            print("%s: %d line(s) added to %s's uploaded.txt" % (TOOL, len(lines), vol.where))
        except OSError as e:
            print("%s: %s is not writable (%s): add these lines to its \\baremark\\uploaded.txt yourself:"
                  % (TOOL, vol.where, e), file=sys.stderr)
            sys.stdout.write(text.decode())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
