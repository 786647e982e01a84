#!/usr/bin/python3
"""Independent Python model of BYTEmark's generator, numeric-sort data,
string-sort data and bitfield iteration, written from
../shared/reference/BYTEMARK.md sections 1, 4.1-4.3 (not from baremark's C).
Prints the expected values used in bench/bytemark/bitfield.c and
tests/unit/test_bytemark_a.c.  Run with Debian's /usr/bin/python3."""
import hashlib
import math
import struct


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
        self.step()                          # the reset call's discarded value

    def randwc(self, n):
        return int(math.fmod(self.step(), n))

    def abs_randwc(self, n):
        return abs(self.randwc(n))


def numsort_data():
    r = Rand()
    a = [r.step() for _ in range(8111)]
    print("numsort first8", a[:8], "sum", sum(a), "min", min(a), "max", max(a),
          "neg", sum(1 for x in a if x < 0))


def strsort_data():
    r = Rand()
    out = bytearray()
    lens = []
    while True:
        L = (r.abs_randwc(76) + 1) & 0xFF
        full = L + len(out) + 1 >= 8111
        if full:
            L = (8111 - len(out) - 1) & 0xFF
        out.append(L)
        lens.append(L)
        out += bytes(r.abs_randwc(254) for _ in range(L))
        if full:
            break
    print("strsort strings", len(lens), "first lens", lens[:10], "last", lens[-1],
          "min", min(lens[:-1]), "max", max(lens), "md5", hashlib.md5(out).hexdigest())


def bitfield_data():
    r = Rand()
    words = [0x5555555555555555] * 16384
    r.reset()
    ops = []
    for _ in range(30):
        off = r.abs_randwc(262140)
        ops.append((off, r.abs_randwc(262140 - off)))
    # Whole-run operations on a Python big integer (bit b = bit b of the map).
    m = 0
    for w in reversed(words):
        m = (m << 64) | w
    for i, (off, n) in enumerate(ops):
        run = ((1 << n) - 1) << off
        if i % 3 == 0:
            m |= run
        elif i % 3 == 1:
            m &= ~run
        else:
            m ^= run
    raw = b"".join(struct.pack("<Q", (m >> (64 * k)) & (2**64 - 1)) for k in range(16384))
    print("bitfield ops", ops[:5], "bits", sum(n for _, n in ops),
          "ones", bin(m).count("1"), "md5", hashlib.md5(raw).hexdigest())


if __name__ == "__main__":
    r = Rand()
    print("rand first", [r.step() for _ in range(15)])
    numsort_data()
    strsort_data()
    bitfield_data()
