#!/usr/bin/env python3
"""tests/unit/serve_client.py - a client of the results upload protocol
(docs/results-server.md) written apart from the server: Python's hmac and
hashlib sign and hash, http.client and raw sockets send.  Used by
tests/unit/test_serve.sh and tools/bench/intake.sh.

  post PORT PATH FILE KEYFILE [good|bad|none]   one POST; prints STATUS BODY
  sha FILE                                       the SHA-256 of FILE's bytes
  truncated PORT FILE KEYFILE                    Content-Length of the whole
                                                 file, half of it, then close
  slow PORT FILE KEYFILE                         the body a byte a second;
                                                 prints what ended it, when
  slow-headers PORT                              the headers a byte a second
  chunked PORT FILE KEYFILE REPEAT               the file REPEAT times over,
                                                 chunked (no Content-Length)
  concurrent PORT KEYFILE FILE...                one thread a file, started
                                                 together; STATUS SHA a line
  variants TEMPLATE N DIR                        N valid runs made from
                                                 TEMPLATE (distinct names)
  bench PORT KEYFILE CLIENTS DIR                 post every DIR/*.json with
                                                 CLIENTS threads; runs/s
"""
import glob
import hashlib
import hmac
import http.client
import json
import os
import socket
import sys
import threading
import time


def key_of(path):
    return open(path, "rb").read().rstrip(b"\r\n")


def sign(key, body):
    return "sha256=" + hmac.new(key, body, "sha256").hexdigest()


def post(port, path, body, key, mode="good", conn=None):
    headers = {"Content-Type": "application/json" if path == "/api/runs" else "text/plain"}
    if mode == "good":
        headers["X-Baremark-Signature"] = sign(key, body)
    elif mode == "bad":
        # signed with another key: well formed, wrong
        headers["X-Baremark-Signature"] = sign(key + b"x", body)
    own = conn is None
    conn = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", path, body=body, headers=headers)
    r = conn.getresponse()
    data = r.read().decode("utf-8", "replace").strip()
    if own:
        conn.close()
    return r.status, data


def head(port, path, key, body, length=None):
    return ("POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            "Content-Length: %d\r\nX-Baremark-Signature: %s\r\n\r\n"
            % (path, port, len(body) if length is None else length, sign(key, body))).encode()


def answer(s):
    """The status of what the server sent, or None when it closed silently."""
    data = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
    except (ConnectionResetError, socket.timeout):
        pass
    if data.startswith(b"HTTP/1."):
        return int(data.split()[1])
    return None


def cmd_truncated(port, f, keyf):
    body = open(f, "rb").read()
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(head(port, "/api/runs", key_of(keyf), body) + body[: len(body) // 2])
    time.sleep(0.3)
    s.close()
    print("sent %d of %d" % (len(body) // 2, len(body)))


def cmd_slow(port, f, keyf):
    body = open(f, "rb").read()
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    t0 = time.monotonic()
    s.sendall(head(port, "/api/runs", key_of(keyf), body))
    status = None
    for i in range(len(body)):
        try:
            s.send(body[i:i + 1])
        except OSError:
            break
        time.sleep(1)
        if time.monotonic() - t0 > 40:
            break
    status = answer(s)
    print("%s after %.1f s" % ("answered %d" % status if status else "closed", time.monotonic() - t0))


def cmd_slow_headers(port):
    text = ("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n" + "X-Pad: " + "a" * 60 + "\r\n\r\n").encode()
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    t0 = time.monotonic()
    for i in range(len(text)):
        try:
            s.send(text[i:i + 1])
        except OSError:
            break
        time.sleep(1)
        if time.monotonic() - t0 > 40:
            break
    status = answer(s)
    print("%s after %.1f s" % ("answered %d" % status if status else "closed", time.monotonic() - t0))


def cmd_chunked(port, f, keyf, repeat):
    body = open(f, "rb").read() * repeat
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    s.sendall(("POST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\nX-Baremark-Signature: %s\r\n\r\n" % sign(key_of(keyf), body)).encode())
    try:
        for i in range(0, len(body), 65536):
            part = body[i:i + 65536]
            s.sendall(b"%x\r\n" % len(part) + part + b"\r\n")
        s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    status = answer(s)
    print("answered %d" % status if status else "closed")


def cmd_concurrent(port, keyf, files):
    key = key_of(keyf)
    bodies = [open(f, "rb").read() for f in files]
    go = threading.Barrier(len(files))
    out = [None] * len(files)

    def one(i):
        go.wait()
        out[i] = post(port, "/api/runs", bodies[i], key)

    ts = [threading.Thread(target=one, args=(i,)) for i in range(len(files))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    for (status, data), b in zip(out, bodies):
        try:
            got = json.loads(data).get("sha256")
        except ValueError:
            got = None
        print(status, "same-sha" if got == hashlib.sha256(b).hexdigest() else "other-sha:%s" % got)


def cmd_variants(template, n, out):
    base = json.load(open(template))
    os.makedirs(out, exist_ok=True)
    for i in range(n):
        d = dict(base)
        d["system"] = dict(base["system"])
        d["name"] = "20300101-%06d" % i
        d["system"]["started"] = "2030-01-01T%02d:%02d:%02d" % (i // 3600 % 24, i // 60 % 60, i % 60)
        with open(os.path.join(out, "%06d.json" % i), "w") as f:
            json.dump(d, f)


def cmd_bench(port, keyf, clients, folder):
    key = key_of(keyf)
    bodies = [open(f, "rb").read() for f in sorted(glob.glob(os.path.join(folder, "*.json")))]
    next_i = [0]
    lock = threading.Lock()
    bad = []

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= len(bodies):
                break
            status, data = post(port, "/api/runs", bodies[i], key, conn=conn)
            if status != 201:
                bad.append((status, data))
        conn.close()

    t0 = time.monotonic()
    ts = [threading.Thread(target=worker) for _ in range(clients)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    dt = time.monotonic() - t0
    print("%d %d %.3f %.2f" % (len(bodies), len(bad), dt, len(bodies) / dt))
    if bad:
        print("first refusal:", bad[0], file=sys.stderr)


def main(a):
    c = a[0]
    if c == "post":
        body = open(a[3], "rb").read()
        status, data = post(int(a[1]), a[2], body, key_of(a[4]), a[5] if len(a) > 5 else "good")
        print(status, data)
    elif c == "sha":
        print(hashlib.sha256(open(a[1], "rb").read()).hexdigest())
    elif c == "truncated":
        cmd_truncated(int(a[1]), a[2], a[3])
    elif c == "slow":
        cmd_slow(int(a[1]), a[2], a[3])
    elif c == "slow-headers":
        cmd_slow_headers(int(a[1]))
    elif c == "chunked":
        cmd_chunked(int(a[1]), a[2], a[3], int(a[4]))
    elif c == "concurrent":
        cmd_concurrent(int(a[1]), a[2], a[3:])
    elif c == "variants":
        cmd_variants(a[1], int(a[2]), a[3])
    elif c == "bench":
        cmd_bench(int(a[1]), a[2], int(a[3]), a[4])
    else:
        sys.exit("serve_client.py: unknown command %s" % c)


if __name__ == "__main__":
    main(sys.argv[1:])
