#!/usr/bin/env python3
"""tests/vectors/fwid/make_fwid_vectors.py [--ovmf CODE.fd] - the expected
values of tests/unit/test_fwid.c, computed in Python (hashlib, struct)
from the definition in bench/system/fwid.h, independently of the C code:

  a volume's record = FvLength (8 bytes LE) + lanes(volume)
  lanes: four 64-bit chains, lane l taking the little-endian words
         l, l+4, l+8 ... (tail zero-padded to 32 bytes), h = rotl(h ^ w, 29) * K,
         K = 0x9E3779B97F4A7C15, h starting at (l + 1) * K; the four finals LE
  identity = sha256(sorted records joined), hex

The simulated memory (the recipe test_fwid.c builds too; the header holds
the SHA-256 of the whole of it, so a recipe that drifts fails the test):
64 KiB at 0x80000000, filled with fill(0) bytes; volumes at 0x0000 (A),
0x4000 (B, a length that is no multiple of 32), 0x8000 (the variable
store), 0xA000 (a bad checksum), 0xC000 (C).  fill(seed): x = seed, then
x = (x * 1103515245 + 12345) mod 2^32, byte = (x >> 16) & 0xFF.

python3 tests/vectors/fwid/make_fwid_vectors.py > tests/vectors/fwid/vectors_fwid.h

--ovmf CODE.fd instead prints the identity an OVMF code image's DXE
volume gives (the one volume OVMF exposes besides its variable store):
the FV inside the LZMA-compressed main volume, largest first.
"""
import hashlib
import lzma
import struct
import sys

M = (1 << 64) - 1
K = 0x9E3779B97F4A7C15
BASE, SIZE = 0x80000000, 0x10000
FFS2 = bytes.fromhex("78e58c8c3d8a1c4f9935896185c32dd3")  # 8C8CE578-8A3D-4F1C-9935-896185C32DD3
NV = bytes.fromhex("8d2bf1ff96768b4ca9852747075b4f50")    # FFF12B8D-7696-4C8B-A985-2747075B4F50


def lanes(data):
    h = [K * (l + 1) & M for l in range(4)]
    if len(data) % 32:
        data = data + bytes(32 - len(data) % 32)
    for i in range(0, len(data), 32):
        for l in range(4):
            w = struct.unpack_from("<Q", data, i + 8 * l)[0] ^ h[l]
            h[l] = (((w << 29) | (w >> 35)) & M) * K & M
    return b"".join(struct.pack("<Q", x) for x in h)


def identity(vols):
    recs = sorted(struct.pack("<Q", len(v)) + lanes(v) for v in vols)
    return hashlib.sha256(b"".join(recs)).hexdigest()


def fill(seed, n):
    out, x = bytearray(n), seed
    for i in range(n):
        x = (x * 1103515245 + 12345) & 0xFFFFFFFF
        out[i] = (x >> 16) & 0xFF
    return out


def volume(mem, off, length, guid, seed, bad_sum=False):
    """A volume header (72 bytes: one block map entry and the {0, 0} end) and fill(seed) after it."""
    mem[off:off + length] = fill(seed, length)
    h = bytearray(72)
    h[16:32] = guid
    struct.pack_into("<Q", h, 32, length)
    h[40:44] = b"_FVH"
    struct.pack_into("<IHHHBB", h, 44, 0x0004FEFF, 72, 0, 0, 0, 2)
    struct.pack_into("<II", h, 56, length // 0x1000 or 1, 0x1000)
    s = sum(struct.unpack("<36H", h)) & 0xFFFF
    struct.pack_into("<H", h, 50, ((-s) & 0xFFFF) ^ (1 if bad_sum else 0))
    mem[off:off + 72] = h


def layout():
    mem = fill(0, SIZE)
    volume(mem, 0x0000, 0x3000, FFS2, 1)
    volume(mem, 0x4000, 0x1F4C, FFS2, 2)
    volume(mem, 0x8000, 0x2000, NV, 3)
    volume(mem, 0xA000, 0x1000, FFS2, 4, bad_sum=True)
    volume(mem, 0xC000, 0x2000, FFS2, 5)
    return mem


def ovmf(path):
    fd = open(path, "rb").read()
    hdrlen, ext = struct.unpack_from("<H", fd, 48)[0], struct.unpack_from("<H", fd, 52)[0]
    off = (ext + struct.unpack_from("<I", fd, ext + 16)[0] + 7) & ~7 if ext else hdrlen
    sec = off + 24
    dataoff = struct.unpack_from("<H", fd, sec + 20)[0]
    stream = fd[sec + dataoff:sec + (fd[sec] | fd[sec + 1] << 8 | fd[sec + 2] << 16)]
    props, usize = stream[:5], struct.unpack("<Q", stream[5:13])[0]
    filt = [{"id": lzma.FILTER_LZMA1, "dict_size": struct.unpack("<I", props[1:5])[0],
             "lc": props[0] % 9, "lp": (props[0] // 9) % 5, "pb": props[0] // 45}]
    plain = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filt).decompress(stream[13:], max_length=usize)
    vols, i = [], 0
    while i + 64 <= len(plain):
        hl = struct.unpack_from("<H", plain, i + 48)[0] if plain[i + 40:i + 44] == b"_FVH" else 0
        if hl >= 64 and sum(struct.unpack_from("<%dH" % (hl // 2), plain, i)) & 0xFFFF == 0:
            fl = struct.unpack_from("<Q", plain, i + 32)[0]
            vols.append(plain[i:i + fl])
            i += fl
        else:
            i += 8
    vols.sort(key=len, reverse=True)
    print(identity([vols[0]]))


def main():
    if sys.argv[1:2] == ["--ovmf"]:
        ovmf(sys.argv[2])
        return
    mem = layout()
    a, b, c = mem[0x0000:0x3000], mem[0x4000:0x5F4C], mem[0xC000:0xE000]
    b2 = bytearray(b)
    b2[0x100] ^= 0x01
    c2 = bytearray(c)
    c2[0x2000 - 1] ^= 0x80      # the last byte: its word is in the last block
    print("/* tests/vectors/fwid/vectors_fwid.h - written by make_fwid_vectors.py (hashlib); do not edit */")
    print('#define FWID_V_MEMORY   "%s"  /* sha256 of the whole simulated memory */' % hashlib.sha256(mem).hexdigest())
    print('#define FWID_V_ABC      "%s"  /* volumes A, B, C */' % identity([a, b, c]))
    print('#define FWID_V_A        "%s"  /* A alone */' % identity([a]))
    print('#define FWID_V_B_BYTE   "%s"  /* A, B with byte 0x100 ^ 0x01, C */' % identity([a, b2, c]))
    print('#define FWID_V_C_LAST   "%s"  /* A, B, C with its last byte ^ 0x80 */' % identity([a, b, c2]))
    print('#define FWID_V_LANES_B  "%s"  /* lanes(B) in hex */' % lanes(b).hex())


main()
