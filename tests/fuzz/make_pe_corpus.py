#!/usr/bin/python3
"""tests/fuzz/make_pe_corpus.py - (re)write tests/fuzz/pe_corpus/, the seed
corpus of the PE checks' fuzzer (tests/fuzz/fuzz_pe_image.c): real plug-ins
as tools/baremark-plugin builds them (make plugins-examples), and files made
from one of them that are cut short or broken at each field bench/plugins/pe_image.c
reads.  Run from the top of the tree after make plugins-examples:
    python3 tests/fuzz/make_pe_corpus.py
"""
import os
import struct
import sys

SRC = "build/plugins"
OUT = "tests/fuzz/pe_corpus"
REAL = ["chain.efi", "copy.efi", "branch.efi", "bad/version.efi"]


def u16(b, at, v):
    b[at:at + 2] = struct.pack("<H", v & 0xFFFF)


def u32(b, at, v):
    b[at:at + 4] = struct.pack("<I", v & 0xFFFFFFFF)


def main():
    os.makedirs(OUT, exist_ok=True)
    files = {}
    for name in REAL:
        with open(os.path.join(SRC, name), "rb") as f:
            files["real-" + os.path.basename(name)] = f.read()
    base = bytearray(files["real-chain.efi"])
    pe = struct.unpack_from("<I", base, 0x3C)[0]
    coff, opt = pe + 4, pe + 24
    nsec = struct.unpack_from("<H", base, coff + 2)[0]
    opt_size = struct.unpack_from("<H", base, coff + 16)[0]
    sec = opt + opt_size

    def variant(name, edit=None, cut=None):
        b = bytearray(base)
        if edit:
            edit(b)
        files[name] = bytes(b[:cut] if cut is not None else b)

    variant("empty", cut=0)
    variant("mz-only", cut=2)
    variant("dos-header-cut", cut=0x3F)
    variant("pe-header-cut", cut=pe + 10)
    variant("section-table-cut", cut=sec + 40 * nsec - 1)
    variant("last-byte-cut", cut=len(base) - 1)
    variant("half", cut=len(base) // 2)
    variant("not-mz", lambda b: b.__setitem__(0, ord("X")))
    variant("lfanew-huge", lambda b: u32(b, 0x3C, 0xFFFFFFFF))
    variant("lfanew-at-end", lambda b: u32(b, 0x3C, len(base) - 2))
    variant("lfanew-zero", lambda b: u32(b, 0x3C, 0))
    variant("no-pe-signature", lambda b: b.__setitem__(pe, ord("Q")))
    variant("machine-i386", lambda b: u16(b, coff, 0x14C))
    variant("pe32-magic", lambda b: u16(b, opt, 0x10B))
    variant("opt-size-zero", lambda b: u16(b, coff + 16, 0))
    variant("opt-size-69", lambda b: u16(b, coff + 16, 69))
    variant("opt-size-max", lambda b: u16(b, coff + 16, 0xFFFF))
    variant("sections-max", lambda b: u16(b, coff + 2, 0xFFFF))
    variant("sections-zero", lambda b: u16(b, coff + 2, 0))
    variant("subsystem-app", lambda b: u16(b, opt + 68, 10))
    variant("subsystem-runtime", lambda b: u16(b, opt + 68, 12))
    variant("subsystem-windows", lambda b: u16(b, opt + 68, 3))
    variant("headers-size-huge", lambda b: u32(b, opt + 60, 0xFFFFFFFF))
    variant("section-past-end", lambda b: (u32(b, sec + 20, len(base) - 8), u32(b, sec + 16, 0x100)))
    variant("section-offset-wraps", lambda b: (u32(b, sec + 20, 0xFFFFFFF0), u32(b, sec + 16, 0x20)))
    variant("cert-dir-past-end", lambda b: (u32(b, opt + 108, 16), u32(b, opt + 112 + 32, len(base) - 4),
                                            u32(b, opt + 112 + 36, 0x1000)))
    variant("cert-dir-signed", lambda b: (u32(b, opt + 108, 16), u32(b, opt + 112 + 32, len(base) - 16),
                                          u32(b, opt + 112 + 36, 16)))
    variant("rva-count-huge", lambda b: u32(b, opt + 108, 0xFFFFFFFF))
    # a valid driver whose optional header stops before the directories
    variant("opt-short-no-dirs", lambda b: u16(b, coff + 16, 72))
    # the smallest valid driver: no sections, the optional header through
    # the subsystem only (70 bytes), 158 bytes in all: not signed
    tiny = bytearray(0x40 + 24 + 70)
    tiny[0:2] = b"MZ"
    u32(tiny, 0x3C, 0x40)
    tiny[0x40:0x44] = b"PE\0\0"
    u16(tiny, 0x44, 0x8664)
    u16(tiny, 0x44 + 16, 70)
    u16(tiny, 0x58, 0x20B)
    u32(tiny, 0x58 + 60, 0x40)
    u16(tiny, 0x58 + 68, 11)
    files["valid-short-opt-header"] = bytes(tiny)
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"{len(files)} files in {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
