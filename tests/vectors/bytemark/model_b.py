#!/usr/bin/python3
"""Independent Python model of BYTEmark's assignment, IDEA and Huffman
workloads, written from ../shared/reference/BYTEMARK.md sections 1, 4.6-4.8,
7 and 11 and the BYTEmark document (seed 002), not from baremark's C.

Prints the expected values used by tests/unit/test_bytemark_b.c and by the
kernels' verify() (saved in model_b.out beside this script):
  python3 tests/vectors/bytemark/model_b.py > tests/vectors/bytemark/model_b.out

How each value is computed:
- the generator: its own implementation of randnum/randwc/abs_randwc;
- assignment: the 101x101 cost matrix from the generator, digested as
  little-endian int64 (C long on LP64); the method of BYTEMARK.md 4.6 in
  plain Python (row/column reduction, first_assignments/second_assignments),
  counting the calls (and any assignment a later elimination overwrites,
  which the reference's rule allows); the resulting column of each row, compared with the
  document's R000..R100 list, and its total cost compared with
  scipy.optimize.linear_sum_assignment's optimum (a different algorithm);
- IDEA: the key and the data from the generator; the 52 subkeys from the
  textbook description (the 128-bit key rotated left by 25 bits between
  groups of eight), decryption subkeys by inversion with Python's
  pow(x, -1, 65537) (not the reference's Euclid loop); the cipher checked
  first against the IDEA test vector of Lai's thesis / Applied Cryptography
  (key 1..8, plaintext 0 1 2 3 -> 11FB ED2B 0198 6DE5); blocks are four
  little-endian 16-bit words;
- Huffman: the text from the generator and the 50-word catalogue; the tree
  with float32 frequencies and sums (numpy.float32, as the reference's
  float), lowest index winning ties; the compressed bit stream in a zeroed
  buffer and the decompression of it.
"""
import hashlib
import math
import struct

import numpy as np
from scipy.optimize import linear_sum_assignment


class Rand:
    def __init__(self):
        self.reset()

    def step(self):
        t = (self.s0 * 254754 + self.s1 * 529562) & 0xFFFFFFFF
        if t >= 1 << 31:
            t -= 1 << 32
        r = int(math.fmod(t, 999563))       # C truncating remainder
        self.s1, self.s0 = self.s0, r
        return r

    def reset(self):
        self.s0, self.s1 = 13, 117
        self.step()                          # the reset call's own value is discarded

    def abs_randwc(self, n):
        return abs(int(math.fmod(self.step(), n)))


def md5(b):
    return hashlib.md5(b).hexdigest()


# ---- assignment -------------------------------------------------------------------

N = 101

# The BYTEmark document (seed 002): "R000: 056 R001: 066 ... R100: 100".
DOC_COLUMNS = [
    56, 66, 52, 65, 43, 23, 16, 77, 95, 4, 64, 76, 78, 91, 13, 29, 44, 14, 41, 42,
    20, 71, 24, 17, 55, 40, 70, 25, 31, 19, 73, 2, 47, 9, 35, 45, 5, 63, 81, 39,
    87, 8, 53, 93, 49, 92, 61, 46, 26, 34, 88, 0, 28, 18, 72, 21, 37, 82, 6, 58,
    96, 68, 69, 54, 57, 86, 97, 84, 99, 51, 98, 3, 74, 62, 80, 33, 11, 94, 12, 50,
    10, 38, 89, 59, 22, 79, 15, 7, 75, 83, 60, 48, 32, 67, 1, 30, 27, 85, 90, 36,
    100]


def assign_costs():
    r = Rand()
    return [[r.abs_randwc(5000000) for _ in range(N)] for _ in range(N)]


def reduce_costs(t):
    for row in t:
        m = min(row)
        for j in range(N):
            row[j] -= m
    for j in range(N):
        m = min(t[i][j] for i in range(N))
        if m:
            for i in range(N):
                t[i][j] -= m


OVERWRITTEN = [0]      # assignments later marked eliminated (the reference allows it)


def eliminate(st, i, j):
    if st[i][j] == 1:
        OVERWRITTEN[0] += 1
    st[i][j] = 2


def first_assignments(t, st):
    """st: 0 free, 1 assigned, 2 eliminated.  Returns the number assigned."""
    for i in range(N):
        for j in range(N):
            st[i][j] = 0
    total = 0
    while True:
        made = 0
        for i in range(N):
            free = [j for j in range(N) if t[i][j] == 0 and st[i][j] == 0]
            if len(free) == 1:
                j = free[0]
                made += 1
                st[i][j] = 1
                for k in range(N):
                    if k != i and t[k][j] == 0:
                        eliminate(st, k, j)
        for j in range(N):
            free = [i for i in range(N) if t[i][j] == 0 and st[i][j] == 0]
            if len(free) == 1:
                i = free[0]
                made += 1
                st[i][j] = 1
                for k in range(N):
                    if k != j and t[i][k] == 0:
                        eliminate(st, i, k)
        total += made
        if made == 0:
            break
    if total == N:
        return total
    for i in range(N):
        free = [j for j in range(N) if t[i][j] == 0 and st[i][j] == 0]
        if free:
            j = free[0]
            st[i][j] = 1
            total += 1
            for k in range(N):
                if k != j and t[i][k] == 0:
                    eliminate(st, i, k)
            for k in range(N):
                if k != i and t[k][j] == 0:
                    eliminate(st, k, j)
    return total


def second_assignments(t, st):
    rows = [0 if 1 in st[i] else 1 for i in range(N)]
    cols = [0] * N
    while True:
        new = 0
        for i in range(N):
            if rows[i]:
                for j in range(N):
                    if t[i][j] == 0:
                        cols[j] = 1
        for j in range(N):
            if cols[j]:
                for i in range(N):
                    if st[i][j] == 1 and not rows[i]:
                        rows[i] = 1
                        new += 1
        if new == 0:
            break
    smallest = min(t[i][j] for i in range(N) if rows[i] for j in range(N) if not cols[j])
    for i in range(N):
        for j in range(N):
            if rows[i] and not cols[j]:
                t[i][j] -= smallest
            elif not rows[i] and cols[j]:
                t[i][j] += smallest


def assignment():
    cost = assign_costs()
    flat = [v for row in cost for v in row]
    print("assign cost[0][0..5]", cost[0][:6], "cost[100][100]", cost[100][100],
          "sum", sum(flat), "min", min(flat), "max", max(flat))
    print("assign cost md5 (101x101 int64 LE, row-major)",
          md5(b"".join(struct.pack("<q", v) for v in flat)))
    t = [row[:] for row in cost]
    reduce_costs(t)
    print("assign reduced md5 (int64 LE)",
          md5(b"".join(struct.pack("<q", v) for row in t for v in row)),
          "zeros", sum(1 for row in t for v in row if v == 0))
    st = [[0] * N for _ in range(N)]
    firsts = seconds = 0
    while True:
        firsts += 1
        if first_assignments(t, st) == N:
            break
        seconds += 1
        second_assignments(t, st)
    cols = []
    for i in range(N):
        ones = [j for j in range(N) if st[i][j] == 1]
        assert len(ones) == 1, (i, ones)
        cols.append(ones[0])
    total = sum(cost[i][cols[i]] for i in range(N))
    ri, ci = linear_sum_assignment(np.array(cost, dtype=np.int64))
    best = int(np.array(cost)[ri, ci].sum())
    print("assign first_assignments calls", firsts, "second_assignments calls", seconds,
          "assignments overwritten by an elimination", OVERWRITTEN[0])
    print("assign columns equal the document's R000..R100:", cols == DOC_COLUMNS,
          "permutation:", sorted(cols) == list(range(N)))
    print("assign total cost", total, "scipy optimum", best, "optimal:", total == best)
    print("assign final tableau md5 (int64 LE)",
          md5(b"".join(struct.pack("<q", v) for row in t for v in row)),
          "status md5 (int16 LE)", md5(b"".join(struct.pack("<h", v) for row in st for v in row)))


# ---- IDEA ---------------------------------------------------------------------------

ROUNDS = 8
KEYLEN = 6 * ROUNDS + 4      # 52


def idea_mul(a, b):
    """Multiplication modulo 65537, with 0 standing for 65536."""
    a = a or 0x10000
    b = b or 0x10000
    return (a * b % 0x10001) & 0xFFFF


def idea_inv(x):
    if x <= 1:
        return x
    return pow(x, -1, 0x10001)


def idea_encrypt_keys(userkey):
    key = 0
    for w in userkey:
        key = (key << 16) | w
    z = []
    while len(z) < KEYLEN:
        for k in range(8):
            z.append((key >> (112 - 16 * k)) & 0xFFFF)
        key = ((key << 25) | (key >> 103)) & ((1 << 128) - 1)
    return z[:KEYLEN]


def idea_decrypt_keys(z):
    """Textbook inversion: round r's decryption keys from round 8-r's."""
    dk = [0] * KEYLEN
    for r in range(ROUNDS + 1):
        e = 6 * (ROUNDS - r)                 # the encryption group used
        d = 6 * r
        dk[d] = idea_inv(z[e])
        if r == 0 or r == ROUNDS:
            dk[d + 1] = -z[e + 1] & 0xFFFF
            dk[d + 2] = -z[e + 2] & 0xFFFF
        else:                                # middle rounds swap the additions
            dk[d + 1] = -z[e + 2] & 0xFFFF
            dk[d + 2] = -z[e + 1] & 0xFFFF
        dk[d + 3] = idea_inv(z[e + 3])
        if r < ROUNDS:
            dk[d + 4] = z[e - 2]
            dk[d + 5] = z[e - 1]
    return dk


def idea_block(x, z):
    x1, x2, x3, x4 = x
    for r in range(ROUNDS):
        k = z[6 * r:6 * r + 6]
        y1 = idea_mul(x1, k[0])
        y2 = (x2 + k[1]) & 0xFFFF
        y3 = (x3 + k[2]) & 0xFFFF
        y4 = idea_mul(x4, k[3])
        p = idea_mul(y1 ^ y3, k[4])
        q = idea_mul(((y2 ^ y4) + p) & 0xFFFF, k[5])
        p = (p + q) & 0xFFFF
        x1, x2, x3, x4 = y1 ^ q, y3 ^ q, y2 ^ p, y4 ^ p
    k = z[48:52]
    return [idea_mul(x1, k[0]), (x3 + k[1]) & 0xFFFF, (x2 + k[2]) & 0xFFFF, idea_mul(x4, k[3])]


def idea_buffer(data, z):
    out = bytearray()
    for j in range(0, len(data), 8):
        words = struct.unpack("<4H", data[j:j + 8])
        out += struct.pack("<4H", *idea_block(list(words), z))
    return bytes(out)


def idea():
    tv = idea_block([0, 1, 2, 3], idea_encrypt_keys([1, 2, 3, 4, 5, 6, 7, 8]))
    print("idea test vector (key 1..8, plain 0 1 2 3):", " ".join("%04X" % w for w in tv))
    back = idea_block(tv, idea_decrypt_keys(idea_encrypt_keys([1, 2, 3, 4, 5, 6, 7, 8])))
    print("idea test vector decrypts to", back)
    # A key and a block with zero words (0 stands for 65536 in the
    # multiplications) and all-ones words, to exercise mul's special cases.
    key2 = [0, 0xFFFF, 1, 0x8000, 0, 2, 0xFFFE, 3]
    tv2 = idea_block([0xFFFF, 0, 0x1234, 0x8000], idea_encrypt_keys(key2))
    print("idea vector 2 (key 0 FFFF 1 8000 0 2 FFFE 3, plain FFFF 0 1234 8000):",
          " ".join("%04X" % w for w in tv2), "decrypts to",
          " ".join("%04X" % w for w in idea_block(tv2, idea_decrypt_keys(idea_encrypt_keys(key2)))))
    r = Rand()
    userkey = [r.abs_randwc(60000) & 0xFFFF for _ in range(8)]
    plain = bytes(r.abs_randwc(255) & 0xFF for _ in range(4000))
    z = idea_encrypt_keys(userkey)
    dk = idea_decrypt_keys(z)
    print("idea userkey", userkey, "plain1[0..7]", list(plain[:8]))
    print("idea Z md5 (52 u16 LE)", md5(struct.pack("<52H", *z)), "Z[8..11]", z[8:12],
          "Z[48..51]", z[48:52])
    print("idea DK md5 (52 u16 LE)", md5(struct.pack("<52H", *dk)), "DK[0..5]", dk[:6])
    crypt = idea_buffer(plain, z)
    back = idea_buffer(crypt, dk)
    print("idea plain1 md5", md5(plain), "sum", sum(plain), "max", max(plain))
    print("idea crypt1 md5", md5(crypt), "crypt1[0..7]", list(crypt[:8]))
    print("idea decrypt == plain1:", back == plain)


# ---- Huffman --------------------------------------------------------------------------

WORDS = ["Hello", "He", "Him", "the", "this", "that", "though", "rough", "cough",
         "obviously", "But", "but", "bye", "begin", "beginning", "beginnings", "of",
         "our", "ourselves", "yourselves", "to", "together", "togetherness", "from",
         "either", "I", "A", "return", "However", "that", "example", "yet", "quickly",
         "all", "if", "were", "includes", "always", "never", "not", "small", "returns",
         "set", "basic", "Entered", "with", "used", "shown", "you", "know"]
HUFF_SIZE = 5000


def huff_text(size=HUFF_SIZE):
    r = Rand()
    n = size - 1
    out = bytearray()
    while len(out) < n:
        length = min(r.abs_randwc(494) + 6, n - len(out))
        line = bytearray()
        if length > 1:
            while len(line) < length:
                line += (WORDS[r.abs_randwc(50)] + " ").encode()
            line = line[:length]
        else:
            line = bytearray(length)
        line[-1] = ord("\n")
        out += line
    return bytes(out) + b"\0"


def huff_tree(text):
    f32 = np.float32
    freq = [f32(0)] * 512
    for c in text:
        freq[c] = f32(freq[c] + f32(1))
    for i in range(256):
        if freq[i] != 0:
            freq[i] = f32(freq[i] / f32(len(text)))
    parent = [None] * 512
    left = [None] * 512
    right = [None] * 512
    for i in range(512):
        if freq[i] == 0:
            parent[i] = 32000
        else:
            parent[i] = left[i] = right[i] = -1
    root = 255
    while True:
        cand = [i for i in range(root + 1) if parent[i] < 0]
        if len(cand) < 2:
            break
        a = min(cand, key=lambda i: (freq[i], i))
        b = min((i for i in cand if i != a), key=lambda i: (freq[i], i))
        root += 1
        parent[a] = parent[b] = root
        freq[root] = f32(freq[a] + freq[b])
        left[root], right[root], parent[root] = a, b, -2
    return root, parent, left, right


def huffman():
    text = huff_text()
    print("huff text md5", md5(text), "distinct", len(set(text)), "newlines",
          text.count(b"\n"), "starts", repr(text[:80].decode()))
    root, parent, left, right = huff_tree(text)
    codes = {}
    for c in set(text):
        bits, n = "", c
        while parent[n] != -2:
            bits += "0" if left[parent[n]] == n else "1"
            n = parent[n]
        codes[c] = bits[::-1]
    stream = "".join(codes[c] for c in text)
    buf = bytearray(HUFF_SIZE)
    for b, bit in enumerate(stream):
        if bit == "1":
            buf[b >> 3] |= 1 << (b & 7)
    nbytes = (len(stream) + 7) // 8
    print("huff root", root, "internal nodes", root - 255, "bits", len(stream),
          "longest code", max(len(v) for v in codes.values()),
          "shortest code", min(len(v) for v in codes.values()))
    print("huff compressed md5 (first %d bytes of a zeroed buffer)" % nbytes, md5(bytes(buf[:nbytes])))
    print("huff internal nodes md5 (left, right, parent as int32 LE, nodes 256..root)",
          md5(b"".join(struct.pack("<3i", left[n], right[n], parent[n])
                       for n in range(256, root + 1))))
    print("huff code lengths md5 (256 bytes, 0 for absent)",
          md5(bytes(len(codes.get(c, "")) for c in range(256))))
    out, node, pos = bytearray(), root, 0
    while pos < len(stream):
        node = root
        while left[node] != -1:
            node = left[node] if stream[pos] == "0" else right[node]
            pos += 1
        out.append(node)
    print("huff decompressed bytes", len(out), "== text:", bytes(out) == text)


if __name__ == "__main__":
    assignment()
    idea()
    huffman()
