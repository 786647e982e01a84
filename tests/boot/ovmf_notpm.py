#!/usr/bin/env python3
"""tests/boot/ovmf_notpm.py [--no-http] CODE.fd OUT.fd - a copy of an OVMF
code image whose PEI phase gives up on an absent TPM after one poll instead
of 750 ms.

Why: QEMU without a TPM device reads 0 (not 0xFF) at the TPM's MMIO address
0xFED40000, so OVMF's TPM drivers in PEI take the TPM for present and wait
TIS_TIMEOUT_A (750 ms) for the TIS access register to grant locality 0,
twice (a TPM 1.2 probe, then TPM 2.0), before concluding "no TPM".  Those
waits poll the ACPI PM timer with PAUSE in the loop; under -icount shift=0
every poll leaves QEMU's CPU loop, so the 1.5 virtual seconds take 100 s
or more of real time (tests/boot/lib.sh, docs in the commit message).

The patch: in the decompressed firmware volume, each "write RequestUse to
the TPM access register (TIS: 2 at 0xFED40000; CRB: 1 at 0xFED40008), then
wait up to 750000 us" sequence gets a wait of 30 us (one poll) instead.
The outcome is the same as the stock firmware's on a machine without a TPM
(the probe fails, no TPM is reported); a machine WITH a TPM device must
not boot this copy (its TPM gets no time to answer).  Nothing else changes.

--no-http also takes EDK II's HTTP driver out (HttpDxe, file GUID
2366c20f-e15a-11e3-8bf1-e4115b28bc50): its file in the DXE volume becomes
a pad file (type 0xF0, header checksum adjusted), which the DXE core skips,
so the firmware has TCP4 (and TLS) but no EFI_HTTP_SERVICE_BINDING on its
cards, as a board whose HTTP boot is off or an OVMF built without
NETWORK_HTTP_BOOT_ENABLE.  Debian's OVMF builds all carry HttpDxe; the
upload test boots this copy to see the image fall back to TCP4 by itself.

Exit status: 0 written; 1 the firmware is not laid out as expected (the
caller then boots the stock firmware); 2 usage.
"""
import lzma
import re
import struct
import sys

LZMA_GUID = bytes.fromhex("98584eee143959429d6edc7bd79403cf")  # EE4E5898-3914-4259-9D6E-DC7BD79403CF
# push RequestUse (2 for TIS, 1 for CRB); push the register (ebx, or the
# TIS access / CRB locality-control address); call the MMIO write; then the
# wait's timeout argument: mov dword [esp], 750000.
PATTERN = re.compile(rb"(\x6a[\x01\x02](?:\x53|\x68\x00\x00\xd4\xfe|\x68\x08\x00\xd4\xfe)\xe8[\x00-\xff]{4}\xc7\x04\x24)"
                     rb"\xb0\x71\x0b\x00", re.S)
ONE_POLL = struct.pack("<I", 30)
HTTP_DXE = bytes.fromhex("0fc266235ae1e3118bf1e4115b28bc50")  # 2366C20F-E15A-11E3-8BF1-E4115B28BC50
FFS_DRIVER, FFS_PAD = 0x07, 0xF0


def die(msg):
    print("ovmf_notpm: " + msg, file=sys.stderr)
    sys.exit(1)


def u24(b, o):
    return b[o] | b[o + 1] << 8 | b[o + 2] << 16


def put24(b, o, v):
    b[o:o + 3] = bytes((v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF))


def main():
    args = sys.argv[1:]
    no_http = args[:1] == ["--no-http"]
    if no_http:
        args = args[1:]
    if len(args) != 2:
        print("usage: ovmf_notpm.py [--no-http] CODE.fd OUT.fd", file=sys.stderr)
        sys.exit(2)
    sys.argv[1:] = args
    fd = bytearray(open(sys.argv[1], "rb").read())
    if fd[40:44] != b"_FVH":
        die("%s: no firmware volume at its start" % sys.argv[1])
    fvlen = struct.unpack("<Q", fd[32:40])[0]
    attrs = struct.unpack("<I", fd[44:48])[0]
    erased = 0xFF if attrs & 0x800 else 0x00
    hdrlen, ext = struct.unpack("<H", fd[48:50])[0], struct.unpack("<H", fd[52:54])[0]
    off = hdrlen
    if ext:
        off = (ext + struct.unpack("<I", fd[ext + 16:ext + 20])[0] + 7) & ~7
    # The first file: the compressed main volume (type 0x0B, one GUID-defined
    # LZMA section holding PEIFV and DXEFV); free space after it.
    ftype, fsize = fd[off + 18], u24(fd, off + 20)
    sec = off + 24
    if ftype != 0x0B or fd[sec + 3] != 0x02 or fd[sec + 4:sec + 20] != LZMA_GUID:
        die("%s: the first file is not an LZMA-compressed firmware volume" % sys.argv[1])
    dataoff = struct.unpack("<H", fd[sec + 20:sec + 22])[0]
    old_secsize = u24(fd, sec)
    stream = bytes(fd[sec + dataoff:sec + old_secsize])
    props, usize = stream[:5], struct.unpack("<Q", stream[5:13])[0]
    lclppb, dict_size = props[0], struct.unpack("<I", props[1:5])[0]
    filt = [{"id": lzma.FILTER_LZMA1, "dict_size": dict_size,
             "lc": lclppb % 9, "lp": (lclppb // 9) % 5, "pb": lclppb // 45}]
    plain = bytearray(lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filt).decompress(stream[13:], max_length=usize))
    if len(plain) != usize:
        die("%s: the volume decompresses to %d bytes, not %d" % (sys.argv[1], len(plain), usize))
    hits = [m.start() for m in PATTERN.finditer(plain)]
    if not hits:
        die("%s: no TPM RequestUse wait found (another OVMF version?)" % sys.argv[1])
    for h in hits:
        m = PATTERN.match(plain, h)
        plain[m.end(1):m.end(1) + 4] = ONE_POLL
    if no_http:
        # the FFS header: GUID, header checksum, file checksum, type, ...;
        # files start 8-aligned in the volume
        at = [i for i in range(0, len(plain) - 24, 8) if plain[i:i + 16] == HTTP_DXE]
        if len(at) != 1 or plain[at[0] + 18] != FFS_DRIVER:
            die("%s: not one HttpDxe driver file (found %d)" % (sys.argv[1], len(at)))
        h = at[0]
        plain[h + 18] = FFS_PAD
        plain[h + 16] = (plain[h + 16] - (FFS_PAD - FFS_DRIVER)) & 0xFF
    packed = lzma.compress(bytes(plain), lzma.FORMAT_RAW,
                           filters=[dict(filt[0], preset=6)])
    # edk2's LZMA header: the 5 property bytes, then the size as 8 bytes.
    body = props + struct.pack("<Q", usize) + packed
    check = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filt).decompress(body[13:], max_length=usize)
    if check != bytes(plain):
        die("recompressed volume does not decompress to the patched one")
    new_secsize = dataoff + len(body)
    new_fsize = 24 + new_secsize
    if off + new_fsize > fvlen:
        die("recompressed volume does not fit (%d bytes over)" % (off + new_fsize - fvlen))
    old_end = off + fsize
    fd[sec + dataoff:old_end] = body
    put24(fd, sec, new_secsize)
    put24(fd, off + 20, new_fsize)
    # Keep the volume's length: the old tail becomes erased free space.
    pad = fvlen - (off + new_fsize) - (fvlen - old_end)
    if pad > 0:
        fd[off + new_fsize:off + new_fsize] = bytes([erased]) * pad
    elif pad < 0:
        if any(b != erased for b in fd[off + new_fsize:off + new_fsize - pad]):
            die("no free space after the compressed volume")
        del fd[off + new_fsize:off + new_fsize - pad]
    # The FFS header checksum: its 24 bytes sum to 0 with the file checksum
    # and state bytes counted as 0.
    hdr = bytearray(fd[off:off + 24])
    hdr[16] = hdr[23] = 0
    hdr[17] = 0
    fd[off + 16] = (-sum(hdr)) & 0xFF
    open(sys.argv[2], "wb").write(fd)
    print("ovmf_notpm: %s -> %s: %d TPM RequestUse waits cut to one poll%s" %
          (sys.argv[1], sys.argv[2], len(hits), "; HttpDxe made a pad file" if no_http else ""))


main()
