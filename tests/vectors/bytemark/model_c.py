#!/usr/bin/python3
"""Independent Python model of BYTEmark's neural net and LU decomposition
workloads, written from ../shared/reference/BYTEMARK.md sections 1, 4.9, 4.10,
5 and 11 and the BYTEmark document (seed 002), not from baremark's C.

Prints the expected values used by tests/unit/test_bytemark_c.c (saved in
model_c.out beside this script):
  python3 tests/vectors/bytemark/model_c.py > tests/vectors/bytemark/model_c.out

How each value is computed:
- the generator: its own implementation of randnum/randwc/abs_randwc;
- NNET.DAT: read with a whitespace tokenizer (like fscanf "%d"), md5 of the
  file bytes;
- neural net: the learning session in plain Python floats (IEEE doubles,
  math.exp from the C library), with the update order BYTEMARK.md 4.9 gives;
  the pass count of a fresh session, of the second session of a 2-loop
  iteration (the random stream continues), digests of the initial weights;
- LU: the problem built from the generator; its matrix and right-hand side
  digested (little-endian doubles); numpy.linalg.solve (LAPACK, a different
  pivoting rule) gives the solution to compare with b0/diag; a plain Python
  Crout decomposition with implicit pivoting (Numerical Recipes, as 4.10
  describes) counts the row interchanges and gives the bit-exact solution
  digest.
"""
import hashlib
import math
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
NNET_DAT = os.path.join(HERE, "..", "..", "..", "bench", "bytemark", "NNET.DAT")


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


def doubles_md5(values):
    return hashlib.md5(b"".join(struct.pack("<d", v) for v in values)).hexdigest()


# ---- neural net ---------------------------------------------------------------

IN, MID, OUT, MAXPATS = 35, 8, 8, 10
BETA = ALPHA = 0.09
STOP = 0.1


def nnet_patterns():
    raw = open(NNET_DAT, "rb").read()
    ints = [int(tok) for tok in raw.split()]
    xs, ys, outs, npat = ints[:4]
    assert (xs, ys, outs) == (5, 7, 8)
    npat_used = min(npat, MAXPATS)
    pos, ins, tgts = 4, [], []
    for _ in range(npat):
        pix = ints[pos:pos + IN]
        pos += IN
        code = ints[pos:pos + OUT]
        pos += OUT
        ins.append([0.9 if v >= 0.9 else 0.1 if v <= 0.1 else float(v) for v in pix])
        tgts.append([float(v) for v in code])
    letters = "".join(chr(int("".join(str(b) for b in t), 2)) for t in
                      [[int(v) for v in tg] for tg in tgts])
    return raw, ints, npat, npat_used, ins[:npat_used], tgts[:npat_used], letters


def nnet_weights(r):
    mid = [[(r.abs_randwc(100000) / 100000.0 - 0.5) / 2 for _ in range(IN)] for _ in range(MID)]
    out = [[(r.abs_randwc(100000) / 10000.0 - 0.5) / 2 for _ in range(MID)] for _ in range(OUT)]
    return mid, out


def sigmoid(x):
    return 1.0 / (1.0 + math.exp(-x))


def nnet_session(r, ins, tgts):
    """One learning session; returns (passes, mid, out, exp calls)."""
    mid, out = nnet_weights(r)
    mid_chg = [[0.0] * IN for _ in range(MID)]
    mid_cum = [[0.0] * IN for _ in range(MID)]
    out_chg = [[0.0] * MID for _ in range(OUT)]
    out_cum = [[0.0] * MID for _ in range(OUT)]
    npat = len(ins)
    worst = [0.0] * npat
    passes = exps = 0
    while True:
        for p in range(npat):
            # momentum: last presentation's changes, then clear the sums
            mid_chg, mid_cum = mid_cum, [[0.0] * IN for _ in range(MID)]
            out_chg, out_cum = out_cum, [[0.0] * MID for _ in range(OUT)]
            x = ins[p]
            h = []
            for n in range(MID):
                s = 0.0
                for i in range(IN):
                    s += mid[n][i] * x[i]
                h.append(sigmoid(s))
            o = []
            for n in range(OUT):
                s = 0.0
                for i in range(MID):
                    s += out[n][i] * h[i]
                o.append(sigmoid(s))
            exps += MID + OUT
            err = [tgts[p][n] - o[n] for n in range(OUT)]
            worst[p] = max(abs(e) for e in err)
            herr = []
            for n in range(MID):
                s = 0.0
                for k in range(OUT):
                    s += out[k][n] * err[k]
                herr.append(h[n] * (1 - h[n]) * s)
            for n in range(OUT):
                for w in range(MID):
                    d = BETA * err[n] * h[w]
                    d += ALPHA * out_chg[n][w]
                    out[n][w] += d
                    out_cum[n][w] += d
            for n in range(MID):
                for w in range(IN):
                    d = BETA * herr[n] * x[w]
                    d += ALPHA * mid_chg[n][w]
                    mid[n][w] += d
                    mid_cum[n][w] += d
        passes += 1
        if max(worst) >= 16.0:
            return -passes, mid, out, exps
        if max(worst) < STOP:
            return passes, mid, out, exps


def nnet():
    raw, ints, npat, used, ins, tgts, letters = nnet_patterns()
    print("nnet.dat bytes", len(raw), "md5", hashlib.md5(raw).hexdigest(),
          "integers", len(ints), "patterns", npat, "used", used, "letters", letters)
    print("nnet.dat integers md5 (int32 LE)",
          hashlib.md5(b"".join(struct.pack("<i", v) for v in ints)).hexdigest())
    print("nnet patterns md5 (inputs then targets, doubles LE)",
          doubles_md5([v for row in ins for v in row] + [v for row in tgts for v in row]))
    r = Rand()
    mid, out = nnet_weights(r)
    print("nnet mid[0][0..3]", ["%.6g" % v for v in mid[0][:4]],
          "out[0][0..3]", ["%.6g" % v for v in out[0][:4]])
    flat = [v for row in mid for v in row] + [v for row in out for v in row]
    print("nnet initial weights md5 (mid 8x35 then out 8x8, doubles LE)", doubles_md5(flat),
          "min out %.6g max out %.6g" % (min(v for row in out for v in row),
                                         max(v for row in out for v in row)))
    r.reset()
    passes, mid, out, exps = nnet_session(r, ins, tgts)
    total = sum(v for row in mid for v in row) + sum(v for row in out for v in row)
    print("nnet session 1 passes", passes, "presentations", passes * used, "exp calls", exps,
          "sum of final weights %.17g" % total)
    passes2, mid2, out2, _ = nnet_session(r, ins, tgts)
    print("nnet 2-loop iteration: session 2 passes", passes2)


# ---- LU ------------------------------------------------------------------------

N = 101


def lu_problem():
    r = Rand()
    r.reset()                                # build_problem's randnum(13)
    a = [[0.0] * N for _ in range(N)]
    b = [0.0] * N
    for i in range(N):
        b[i] = float(r.abs_randwc(100) + 1)
        a[i][i] = float(r.abs_randwc(1000) + 1)
    pairs = [(int(b[i]), int(a[i][i])) for i in range(N)]
    adds = subs = 0
    for _ in range(8 * N):
        k = r.abs_randwc(N)
        k1 = r.abs_randwc(N)
        if k != k1:
            s = 1.0 if k < k1 else -1.0
            if k < k1:
                adds += 1
            else:
                subs += 1
            for j in range(N):
                a[k][j] += a[k1][j] * s
            b[k] += b[k1] * s
    return pairs, a, b, adds, subs


def lu_crout(a, b):
    """Crout with implicit pivoting in place; returns (x, interchanges)."""
    a = [row[:] for row in a]
    b = b[:]
    scale = [1.0 / max(abs(v) for v in row) for row in a]
    indx = [0] * N
    swaps = 0
    for j in range(N):
        for i in range(j):
            s = a[i][j]
            for k in range(i):
                s -= a[i][k] * a[k][j]
            a[i][j] = s
        big, imax = 0.0, 0
        for i in range(j, N):
            s = a[i][j]
            for k in range(j):
                s -= a[i][k] * a[k][j]
            a[i][j] = s
            d = scale[i] * abs(s)
            if d >= big:
                big, imax = d, i
        if imax != j:
            a[imax], a[j] = a[j], a[imax]
            scale[imax], scale[j] = scale[j], scale[imax]
            swaps += 1
        indx[j] = imax
        if a[j][j] == 0.0:
            a[j][j] = 1e-20
        if j != N - 1:
            rec = 1.0 / a[j][j]
            for i in range(j + 1, N):
                a[i][j] = a[i][j] * rec
    ii = -1
    for i in range(N):
        ip = indx[i]
        s = b[ip]
        b[ip] = b[i]
        if ii != -1:
            for j in range(ii, i):
                s = s - a[i][j] * b[j]
        elif s != 0.0:
            ii = i
        b[i] = s
    for i in range(N - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, N):
            s -= a[i][j] * b[j]
        b[i] = s / a[i][i]
    return b, swaps


def lu():
    pairs, a, b, adds, subs = lu_problem()
    print("lu pairs first 10", pairs[:10], "last", pairs[-1],
          "sum b0", sum(p[0] for p in pairs), "sum diag", sum(p[1] for p in pairs))
    print("lu scrambles: rows added", adds, "subtracted", subs, "skipped", 8 * N - adds - subs)
    print("lu matrix md5 (101x101 doubles LE, row-major)",
          doubles_md5([v for row in a for v in row]), "rhs md5", doubles_md5(b))
    print("lu matrix: sum %.17g, max |a| %.17g, nonzeros %d" % (
        sum(v for row in a for v in row), max(abs(v) for row in a for v in row),
        sum(1 for row in a for v in row if v != 0.0)))
    exact = [p[0] / p[1] for p in pairs]
    xs = np.linalg.solve(np.array(a), np.array(b))
    print("lu numpy.linalg.solve: max |x - b0/diag| %.3g" % float(np.max(np.abs(xs - exact))))
    x, swaps = lu_crout(a, b)
    print("lu crout: row interchanges", swaps, "x[0..4]", ["%.10f" % v for v in x[:5]],
          "max |x - b0/diag| %.3g" % max(abs(x[i] - exact[i]) for i in range(N)),
          "x md5", doubles_md5(x))


if __name__ == "__main__":
    sys.setrecursionlimit(10000)
    nnet()
    lu()
