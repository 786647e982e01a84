#!/bin/sh
# tests/unit/test_ovmf_notpm.sh - tests/boot/ovmf_notpm.py changes Debian's
# OVMF_CODE_4M.fd in the four TPM RequestUse waits and nowhere else: the
# copy has the same size and SEC volume, and its main volume, decompressed
# here with Python's lzma (not the patcher's code), differs from the stock
# one only in four 32-bit timeouts, each 750000 us (TIS_TIMEOUT_A) in the
# stock file and 30 us in the copy.  A file that is no OVMF volume is
# refused with exit 1 and one line.  --no-http changes HttpDxe's file
# header and nothing else.
cd "$(dirname "$0")/../.." || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
STOCK=/usr/share/OVMF/OVMF_CODE_4M.fd
if [ ! -f "$STOCK" ]; then
    echo "FAIL: ovmf_notpm: $STOCK missing (Debian package ovmf, needed by every boot test)"
    exit 0
fi
if python3 tests/boot/ovmf_notpm.py "$STOCK" "$T/notpm.fd" > "$T/out" 2>&1; then
    echo "PASS: ovmf_notpm: writes a copy of $STOCK"
else
    echo "FAIL: ovmf_notpm: writes a copy ($(head -2 "$T/out" | tr '\n' ' '))"
fi
python3 - "$STOCK" "$T/notpm.fd" <<'PY'
import lzma, struct, sys
def main_volume(path):
    d = open(path, "rb").read()
    # FV header: length at 32, header length at 48, extension header at 52
    ext = struct.unpack("<H", d[52:54])[0]
    off = (ext + struct.unpack("<I", d[ext + 16:ext + 20])[0] + 7) & ~7
    sec = off + 24                                  # the file's first section
    size = d[sec] | d[sec + 1] << 8 | d[sec + 2] << 16
    data = d[sec + struct.unpack("<H", d[sec + 20:sec + 22])[0]:sec + size]
    usize = struct.unpack("<Q", data[5:13])[0]
    props = data[0]
    filt = [{"id": lzma.FILTER_LZMA1, "dict_size": struct.unpack("<I", data[1:5])[0],
             "lc": props % 9, "lp": props // 9 % 5, "pb": props // 45}]
    return d, lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filt).decompress(data[13:], max_length=usize)
a, va = main_volume(sys.argv[1])
b, vb = main_volume(sys.argv[2])
ok = len(a) == len(b)
print("%s: ovmf_notpm: the copy has the stock file's size (%d bytes)" % ("PASS" if ok else "FAIL", len(b)))
sec = struct.unpack("<Q", a[32:40])[0]                  # the SEC volume follows the main one
ok = a[sec:] == b[sec:] and a[:0x78] == b[:0x78]
print("%s: ovmf_notpm: the SEC volume and the main volume's header are unchanged" % ("PASS" if ok else "FAIL"))
diff = None
if len(va) == len(vb):          # byte by byte only inside the 4 KiB blocks that differ
    diff = [i for k in range(0, len(va), 4096) if va[k:k + 4096] != vb[k:k + 4096]
            for i in range(k, min(k + 4096, len(va))) if va[i] != vb[i]]
if diff is None:
    print("FAIL: ovmf_notpm: the decompressed volumes differ in size (%d, %d)" % (len(va), len(vb)))
    sys.exit()
# group the changed bytes into 4-byte fields from the first changed byte of each run
fields, i = [], 0
while i < len(diff):
    s = diff[i]
    while i < len(diff) and diff[i] < s + 4:
        i += 1
    fields.append(s)
# 750000 is b0 71 0b 00 and 30 is 1e 00 00 00: each field's first byte differs
ok = len(fields) == 4 and all(struct.unpack("<I", va[f:f + 4])[0] == 750000 and
                              struct.unpack("<I", vb[f:f + 4])[0] == 30 for f in fields)
print("%s: ovmf_notpm: the volumes differ in 4 timeouts only, 750000 us -> 30 us (found %d changed fields at %s)"
      % ("PASS" if ok else "FAIL", len(fields), ", ".join(hex(f) for f in fields)))
PY
# --no-http: the copy differs from the plain one only in HttpDxe's file
# header (type DRIVER 0x07 -> PAD 0xF0, its header checksum kept valid),
# and the firmware then has no other file of that GUID.
if python3 tests/boot/ovmf_notpm.py --no-http "$STOCK" "$T/nohttp.fd" > "$T/out" 2>&1; then
    python3 - "$T/notpm.fd" "$T/nohttp.fd" <<'PY'
import lzma, struct, sys, uuid
def main_volume(path):
    d = open(path, "rb").read()
    ext = struct.unpack("<H", d[52:54])[0]
    off = (ext + struct.unpack("<I", d[ext + 16:ext + 20])[0] + 7) & ~7
    sec = off + 24
    size = d[sec] | d[sec + 1] << 8 | d[sec + 2] << 16
    data = d[sec + struct.unpack("<H", d[sec + 20:sec + 22])[0]:sec + size]
    props = data[0]
    filt = [{"id": lzma.FILTER_LZMA1, "dict_size": struct.unpack("<I", data[1:5])[0],
             "lc": props % 9, "lp": props // 9 % 5, "pb": props // 45}]
    return lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=filt).decompress(
        data[13:], max_length=struct.unpack("<Q", data[5:13])[0])
va, vb = main_volume(sys.argv[1]), main_volume(sys.argv[2])
guid = uuid.UUID("2366c20f-e15a-11e3-8bf1-e4115b28bc50").bytes_le
hits, i = [], va.find(guid)
while i >= 0:                  # FFS files start 8-aligned
    if i % 8 == 0:
        hits.append(i)
    i = va.find(guid, i + 1)
diff = None
if len(va) == len(vb):         # the changed bytes, block by block
    diff = [i for k in range(0, len(va), 4096) if va[k:k + 4096] != vb[k:k + 4096]
            for i in range(k, min(k + 4096, len(va))) if va[i] != vb[i]]
def header_ok(v, h):           # PI spec: the 24 header bytes sum to 0, file checksum and state as 0
    b = bytearray(v[h:h + 24]); b[17] = b[23] = 0
    return sum(b) % 256 == 0
h = hits[0] if len(hits) == 1 else -1
ok = (h >= 0 and diff is not None and sorted(diff) == [h + 16, h + 18] and va[h + 18] == 0x07 and
      vb[h + 18] == 0xF0 and header_ok(va, h) and header_ok(vb, h))
print("%s: ovmf_notpm --no-http: only HttpDxe's header changes, DRIVER -> PAD, its checksum valid "
      "(HttpDxe files %d, changed bytes %s)" % ("PASS" if ok else "FAIL", len(hits),
                                                 diff if diff is None or len(diff) < 6 else len(diff)))
PY
else
    echo "FAIL: ovmf_notpm --no-http: writes a copy ($(head -2 "$T/out" | tr '\n' ' '))"
fi
printf 'not a firmware' > "$T/bad.fd"
python3 tests/boot/ovmf_notpm.py "$T/bad.fd" "$T/bad.out" > "$T/badmsg" 2>&1
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$T/badmsg")" = 1 ] && grep -q '^ovmf_notpm: .*bad.fd' "$T/badmsg" && [ ! -e "$T/bad.out" ]; then
    echo "PASS: ovmf_notpm: a file that is no OVMF volume: exit 1, one line naming it, nothing written"
else
    echo "FAIL: ovmf_notpm: a file that is no OVMF volume: exit 1, one line naming it (rc $rc: $(head -2 "$T/badmsg" | tr '\n' ' '))"
fi
