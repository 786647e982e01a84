#!/usr/bin/env python3
"""tests/vectors/cacert/make_vectors.py - the expected TlsCaCertificate
value for tests/unit/test_upload_proto.c (bench/upload/upload_proto.c's
upload_ca_list), written to vectors.h.

Input: ca.pem and server.pem here (a test CA and a certificate it signed,
made once with `openssl req -x509 -newkey rsa:2048` and `openssl x509
-req`; no private key is kept).  The PEM text given to the C code is the
two files joined, with CRLF line ends on the second (a file edited on
Windows).  Python's ssl.PEM_cert_to_DER_cert decodes each certificate;
the EFI_SIGNATURE_LIST layout is from UEFI 2.10 section 32.4.1: the
EFI_CERT_X509_GUID a5c059a1-94e4-4aa7-87b5-ab155c2bf072 in its mixed-
endian byte order, SignatureListSize, SignatureHeaderSize = 0 and
SignatureSize (UINT32 little-endian), then one EFI_SIGNATURE_DATA: the
owner GUID and the DER bytes.  Run: python3 make_vectors.py > vectors.h
"""
import hashlib
import os
import ssl
import struct
import uuid

here = os.path.dirname(os.path.abspath(__file__))
ca = open(os.path.join(here, "ca.pem")).read()
srv = open(os.path.join(here, "server.pem")).read().replace("\n", "\r\n")
text = ca + srv
x509 = uuid.UUID("a5c059a1-94e4-4aa7-87b5-ab155c2bf072").bytes_le
owner = uuid.UUID("3b0f2c6e-5a41-4e8d-9b0a-7d1e2f3a4b5c").bytes_le
out = b""
ders = []
for pem in (ca, srv.replace("\r\n", "\n")):
    der = ssl.PEM_cert_to_DER_cert(pem)
    ders.append(der)
    out += x509 + struct.pack("<III", 28 + 16 + len(der), 0, 16 + len(der)) + owner + der

def c_string(s):
    lines = []
    for line in s.splitlines(keepends=True):
        lines.append('    "' + line.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r").replace("\n", "\\n") + '"')
    return "\n".join(lines)

print("/* made by tests/vectors/cacert/make_vectors.py: do not edit */")
print("static const char ca_pem_text[] =\n%s;" % c_string(text))
print("static const unsigned char ca_owner[16] = { %s };" % ", ".join("0x%02x" % b for b in owner))
print("#define CA_LIST_LEN %d" % len(out))
print("#define CA_LIST_SHA256 \"%s\"" % hashlib.sha256(out).hexdigest())
print("#define CA_DER0_LEN %d" % len(ders[0]))
print("#define CA_DER1_LEN %d" % len(ders[1]))
