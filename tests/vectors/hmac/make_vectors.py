#!/usr/bin/env python3
"""tests/vectors/hmac/make_vectors.py - HMAC-SHA256 test vectors for
tests/unit/test_hmac_sha256.c, computed by Python's hmac and hashlib (an
implementation independent of bench/digest/hmac_sha256.c).

Keys of 0, 1, 20, 63, 64, 65, 128 and 200 bytes (around the 64-byte block,
where the key is hashed first) and messages of 0..300 bytes (around the
padding boundaries of SHA-256), drawn from a seeded generator so the file
is the same every time:  python3 tests/vectors/hmac/make_vectors.py > tests/vectors/hmac/vectors.h
"""
import hashlib
import hmac
import random

rng = random.Random(34)
KEY_LENS = [0, 1, 20, 63, 64, 65, 128, 200]
MSG_LENS = [0, 1, 55, 56, 63, 64, 119, 120, 300]


def c_bytes(b):
    return '"' + ''.join('\\x%02x' % x for x in b) + '"'


print("/* Made by tests/vectors/hmac/make_vectors.py (Python hmac + hashlib); do not edit. */")
print("struct hmac_vector { const char *key; unsigned key_len; const char *msg; unsigned msg_len;")
print("                     const char *hmac; const char *sha256; };")
print("static const struct hmac_vector hmac_vectors[] = {")
for kl in KEY_LENS:
    for ml in MSG_LENS:
        key = bytes(rng.randrange(256) for _ in range(kl))
        msg = bytes(rng.randrange(256) for _ in range(ml))
        mac = hmac.new(key, msg, hashlib.sha256).hexdigest()
        dig = hashlib.sha256(msg).hexdigest()
        print("    { %s, %d,\n      %s, %d,\n      \"%s\",\n      \"%s\" }," % (c_bytes(key), kl, c_bytes(msg), ml, mac, dig))
print("};")
