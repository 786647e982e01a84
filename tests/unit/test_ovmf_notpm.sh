#!/bin/sh
# tests/unit/test_ovmf_notpm.sh - tests/boot/ovmf_notpm.py changes Debian's
# OVMF_CODE_4M.fd in the four TPM RequestUse waits and nowhere else: the
# copy has the same size and SEC volume, and its main volume, decompressed
# here with Python's lzma (not the patcher's code), differs from the stock
# one only in four 32-bit timeouts, each 750000 us (TIS_TIMEOUT_A) in the
# stock file and 30 us in the copy.  A file that is no OVMF volume is
# refused with exit 1 and one line.
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
diff = [i for i in range(min(len(va), len(vb))) if va[i] != vb[i]] if len(va) == len(vb) else None
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
printf 'not a firmware' > "$T/bad.fd"
python3 tests/boot/ovmf_notpm.py "$T/bad.fd" "$T/bad.out" > "$T/badmsg" 2>&1
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$T/badmsg")" = 1 ] && grep -q '^ovmf_notpm: .*bad.fd' "$T/badmsg" && [ ! -e "$T/bad.out" ]; then
    echo "PASS: ovmf_notpm: a file that is no OVMF volume: exit 1, one line naming it, nothing written"
else
    echo "FAIL: ovmf_notpm: a file that is no OVMF volume: exit 1, one line naming it (rc $rc: $(head -2 "$T/badmsg" | tr '\n' ' '))"
fi
