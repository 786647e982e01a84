#!/usr/bin/env python3
"""tests/boot/ovmf_vars_add.py VARS_IN VARS_OUT NAME GUID ATTRIBUTES DATAFILE

Writes a copy of an OVMF variable store (OVMF_VARS*.fd) with one more
non-authenticated variable appended, as if the firmware had stored it: the
Secure Boot test puts the user's certificate in shim's MOK list ("MokList",
NV+BS, shim's GUID) this way, which a lab does with `mokutil --import` and
MokManager (python3-virt-firmware, which edits these stores, is not in
Debian 12).

The layout is EDK2's (MdeModulePkg/Include/Guid/VariableFormat.h): a
firmware volume header ("_FVH" at byte 40, its length at 48), the variable
store header (a GUID, its size, format and state: 28 bytes), then variables,
each an AUTHENTICATED_VARIABLE_HEADER of 60 bytes (start id 0x55AA, state,
attributes, monotonic count, time stamp, public key index, name size, data
size, vendor GUID), the UTF-16 name and the data, each variable aligned to
4 bytes.  Free space is 0xFF.  An existing live variable of the same name
and GUID is refused rather than shadowed.
"""
import struct
import sys
import uuid

FVH_SIGNATURE_AT = 40
FVH_HEADER_LENGTH_AT = 48
STORE_HEADER = 28
VAR_HEADER = 60
START_ID = 0x55AA
VAR_ADDED = 0x3F            # the state of a live variable
AUTH_STORE_GUID = uuid.UUID("aaf32c78-947b-439a-a180-2e144ec37792")  # gEfiAuthenticatedVariableGuid


def fail(msg):
    print("ovmf_vars_add: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 7:
        fail("usage: ovmf_vars_add.py VARS_IN VARS_OUT NAME GUID ATTRIBUTES DATAFILE")
    src, dst, name, guid, attrs, datafile = sys.argv[1:]
    store = bytearray(open(src, "rb").read())
    data = open(datafile, "rb").read()
    if store[FVH_SIGNATURE_AT:FVH_SIGNATURE_AT + 4] != b"_FVH":
        fail(src + ": no firmware volume header")
    vs = struct.unpack_from("<H", store, FVH_HEADER_LENGTH_AT)[0]
    if uuid.UUID(bytes_le=bytes(store[vs:vs + 16])) != AUTH_STORE_GUID:
        fail(src + ": not an authenticated variable store")
    size = struct.unpack_from("<I", store, vs + 16)[0]
    end = vs + size
    vendor = uuid.UUID(guid)
    wname = (name + "\0").encode("utf-16le")
    off = vs + STORE_HEADER
    while off + VAR_HEADER <= end:
        start, state = struct.unpack_from("<HB", store, off)
        if start != START_ID:
            break
        nsize, dsize = struct.unpack_from("<II", store, off + 36)
        g = uuid.UUID(bytes_le=bytes(store[off + 44:off + 60]))
        if state == VAR_ADDED and g == vendor and store[off + 60:off + 60 + nsize] == wname:
            fail("%s already holds %s" % (src, name))
        off = (off + VAR_HEADER + nsize + dsize + 3) & ~3
    need = VAR_HEADER + len(wname) + len(data)
    if off + need > end or any(b != 0xFF for b in store[off:off + need]):
        fail(src + ": no free space for %d bytes" % need)
    header = struct.pack("<HBBIQ16sIII16s", START_ID, VAR_ADDED, 0, int(attrs, 0), 0, bytes(16), 0,
                         len(wname), len(data), vendor.bytes_le)
    store[off:off + need] = header + wname + data
    open(dst, "wb").write(store)


main()
