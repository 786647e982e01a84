#!/usr/bin/env python3
"""tests/boot/ovmf_vars_list.py VARS GUID

Lists the records of one vendor GUID in an OVMF variable store (a VARS file
a QEMU wrote, tools/run-qemu --vars), one line each, in store order:

    STATE NAME ATTRIBUTES DATA

STATE is "live" or "deleted" (EDK2 marks a deleted or replaced variable by
clearing bits of its state byte and appends the new one: the old record
stays until the store is reclaimed), ATTRIBUTES in hex, DATA as text with
bytes outside printable ASCII as \\xNN.  The layout is the one
ovmf_vars_add.py describes (EDK2's MdeModulePkg/Include/Guid/VariableFormat.h).
"""
import struct
import sys
import uuid

FVH_SIGNATURE_AT = 40
FVH_HEADER_LENGTH_AT = 48
STORE_HEADER = 28
VAR_HEADER = 60
START_ID = 0x55AA
VAR_ADDED = 0x3F            # a live variable
VAR_DELETED_BIT = 0x02      # cleared (VAR_DELETED = 0xFD) once deleted


def text(data):
    return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else "\\x%02x" % b for b in data)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ovmf_vars_list.py VARS GUID")
    store = open(sys.argv[1], "rb").read()
    vendor = uuid.UUID(sys.argv[2])
    if store[FVH_SIGNATURE_AT:FVH_SIGNATURE_AT + 4] != b"_FVH":
        sys.exit("ovmf_vars_list: %s: no firmware volume header" % sys.argv[1])
    vs = struct.unpack_from("<H", store, FVH_HEADER_LENGTH_AT)[0]
    end = vs + struct.unpack_from("<I", store, vs + 16)[0]
    off = vs + STORE_HEADER
    while off + VAR_HEADER <= end:
        start, state, _, attrs = struct.unpack_from("<HBBI", store, off)
        if start != START_ID:
            break
        nsize, dsize = struct.unpack_from("<II", store, off + 36)
        g = uuid.UUID(bytes_le=bytes(store[off + 44:off + 60]))
        if g == vendor:
            name = store[off + 60:off + 60 + nsize].decode("utf-16le").rstrip("\0")
            data = store[off + 60 + nsize:off + 60 + nsize + dsize]
            live = state == VAR_ADDED
            if not live and state & VAR_DELETED_BIT:
                live = None     # only a header, never completed: not listed
            if live is not None:
                print("%s %s 0x%x %s" % ("live" if live else "deleted", name, attrs, text(data)))
        off = (off + VAR_HEADER + nsize + dsize + 3) & ~3


main()
