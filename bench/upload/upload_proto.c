/*
 * bench/upload/upload_proto.c - the results upload's URL, request head, answer and
 * acknowledgement record (upload_proto.h).
 */
#include <stdio.h>
#include <string.h>

#include "upload_proto.h"

static int up_digit(char c) { return c >= '0' && c <= '9'; }

static int up_ieq_prefix(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++) {
        char c = *s >= 'A' && *s <= 'Z' ? (char)(*s + 32) : *s;
        if (c != *prefix)
            return 0;
    }
    return 1;
}

int upload_url_parse(const char *url, struct upload_url *u, const char **why)
{
    const char *p = url;
    memset(u, 0, sizeof *u);
    if (strlen(url) >= UPLOAD_URL_MAX) {
        *why = "longer than 127 characters";
        return -1;
    }
    if (up_ieq_prefix(p, "https://")) {    /* only by the firmware's HTTP protocol with TLS */
        u->tls = 1;
        p++;
    } else if (!up_ieq_prefix(p, "http://")) {
        *why = "it must start with http:// or https:// (http://ADDRESS:PORT/)";
        return -1;
    }
    p += 7;
    for (int i = 0; i < 4; i++) {
        unsigned v = 0, digits = 0;
        while (up_digit(*p) && digits < 4) {
            v = v * 10 + (unsigned)(*p++ - '0');
            digits++;
        }
        if (!digits || v > 255 || digits > 3 || (i < 3 && *p != '.')) {
            *why = "the server must be an IPv4 address such as 10.0.2.2 (the image does not look up host names)";
            return -1;
        }
        u->ip[i] = (uint8_t)v;
        if (i < 3)
            p++;
    }
    unsigned long port = u->tls ? 443 : 80;
    if (*p == ':') {
        p++;
        port = 0;
        int digits = 0;
        while (up_digit(*p) && digits < 6) {
            port = port * 10 + (unsigned long)(*p++ - '0');
            digits++;
        }
        if (!digits || port == 0 || port > 65535) {
            *why = "the port must be a number from 1 to 65535";
            return -1;
        }
    }
    if (*p && *p != '/') {
        *why = "after the address only :PORT and a path starting with / may follow";
        return -1;
    }
    for (const char *q = p; *q; q++)
        if (*q <= ' ' || *q > '~' || *q == '?' || *q == '#') {
            *why = "the path may not hold spaces, '?' or '#'";
            return -1;
        }
    u->port = (uint16_t)port;
    snprintf(u->host, sizeof u->host, "%u.%u.%u.%u:%u", u->ip[0], u->ip[1], u->ip[2], u->ip[3],
             (unsigned)u->port);
    size_t n = strlen(p);
    snprintf(u->path, sizeof u->path, "%s%s", n ? p : "/", n && p[n - 1] == '/' ? "" : (n ? "/" : ""));
    if (strlen(u->path) + 1 >= sizeof u->path) {
        *why = "the path is too long";
        return -1;
    }
    *why = NULL;
    return 0;
}

const char *upload_key_why(const char *key)
{
    size_t n = strlen(key);
    if (!n)
        return "it is empty";
    if (n > UPLOAD_KEY_MAX)
        return "it is longer than 128 characters";
    for (size_t i = 0; i < n; i++)
        if (key[i] <= ' ' || key[i] > '~')
            return "only printable ASCII characters without spaces are allowed";
    return NULL;
}

size_t upload_request_head(char *buf, size_t size, const struct upload_url *u, const char *tail,
                           const char *content_type, size_t body_len, const char *sig_hex)
{
    int n = snprintf(buf, size,
                     "POST %s%s HTTP/1.1\r\n"
                     "Host: %s\r\n"
                     "User-Agent: baremark\r\n"
                     "Content-Type: %s\r\n"
                     "Content-Length: %zu\r\n"
                     "X-Baremark-Signature: sha256=%s\r\n"
                     "Connection: close\r\n"
                     "\r\n",
                     u->path, tail, u->host, content_type, body_len, sig_hex);
    return n < 0 || (size_t)n >= size ? 0 : (size_t)n;
}

int upload_answer_status(const char *t, size_t n)
{
    if (n < 12 || memcmp(t, "HTTP/1.", 7) || !up_digit(t[7]) || t[8] != ' ' ||
        !up_digit(t[9]) || !up_digit(t[10]) || !up_digit(t[11]) || (n > 12 && t[12] != ' ' && t[12] != '\r'))
        return -1;
    return (t[9] - '0') * 100 + (t[10] - '0') * 10 + (t[11] - '0');
}

/* The end of the head (index after the blank line), or 0. */
static size_t up_head_end(const char *t, size_t n)
{
    for (size_t i = 0; i + 3 < n; i++)
        if (t[i] == '\r' && t[i + 1] == '\n' && t[i + 2] == '\r' && t[i + 3] == '\n')
            return i + 4;
    return 0;
}

int upload_answer_complete(const char *t, size_t n)
{
    size_t end = up_head_end(t, n);
    if (!end)
        return 0;
    for (size_t i = 0; i < end; i++) {
        if ((i == 0 || t[i - 1] == '\n') && end - i > 15 && up_ieq_prefix(t + i, "content-length:")) {
            size_t j = i + 15, len = 0;
            while (j < end && t[j] == ' ')
                j++;
            while (j < end && up_digit(t[j]))
                len = len * 10 + (size_t)(t[j++] - '0');
            return n - end >= len;
        }
    }
    return 1;
}

void upload_answer_error(const char *t, size_t n, char *buf, size_t size)
{
    static const char key[] = "\"error\"";
    buf[0] = 0;
    size_t end = up_head_end(t, n);
    for (size_t i = end; i + sizeof key - 1 < n; i++) {
        if (memcmp(t + i, key, sizeof key - 1))
            continue;
        size_t j = i + sizeof key - 1;
        while (j < n && (t[j] == ' ' || t[j] == ':'))
            j++;
        if (j >= n || t[j] != '"')
            return;
        size_t k = 0;
        for (j++; j < n && t[j] != '"' && k + 1 < size; j++)
            if (t[j] >= ' ' && t[j] <= '~' && t[j] != '\\')
                buf[k++] = t[j];
        buf[k] = 0;
        return;
    }
}

int upload_acked(const char *t, size_t n, const char *name)
{
    size_t len = strlen(name);
    for (size_t i = 0; i < n;) {
        size_t e = i;
        while (e < n && t[e] != '\n')
            e++;
        if (e - i > len && !memcmp(t + i, name, len) && t[i + len] == ' ')
            return 1;
        i = e + 1;
    }
    return 0;
}

/* ---- RESULTS_CA: PEM certificates as an EFI_SIGNATURE_LIST ------------------------------------ */

static int up_b64(int c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

static void up_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* EFI_CERT_X509_GUID a5c059a1-94e4-4aa7-87b5-ab155c2bf072, as stored (UEFI 2.10 32.4.1). */
static const uint8_t up_x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
                                          0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };

long upload_ca_list(const char *pem, size_t n, uint8_t *out, size_t size, const uint8_t owner[16],
                    unsigned *count, const char **why)
{
    static const char begin[] = "-----BEGIN CERTIFICATE-----", end[] = "-----END CERTIFICATE-----";
    size_t at = 0, used = 0;
    *count = 0;
    *why = NULL;
    while (at < n) {
        /* the next BEGIN line */
        size_t i = at;
        while (i + sizeof begin - 1 <= n && memcmp(pem + i, begin, sizeof begin - 1))
            i++;
        if (i + sizeof begin - 1 > n)
            break;
        i += sizeof begin - 1;
        /* a list of one: header (28), owner (16), the DER */
        size_t der_at = used + 28 + 16, der = 0;
        unsigned acc = 0;
        int bits = 0, closed = 0, pad = 0;
        for (; i < n; i++) {
            if (pem[i] == '-') {
                closed = i + sizeof end - 1 <= n && !memcmp(pem + i, end, sizeof end - 1);
                break;
            }
            if (pem[i] == '=') {
                pad++;
                continue;
            }
            if (pem[i] == '\r' || pem[i] == '\n' || pem[i] == ' ' || pem[i] == '\t')
                continue;
            int v = up_b64((unsigned char)pem[i]);
            if (v < 0 || pad) {
                *why = "a character that is not base64 inside a certificate";
                return -1;
            }
            acc = (acc << 6) | (unsigned)v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                if (der_at + der >= size) {
                    *why = "the certificates are larger than the image takes (64 KiB)";
                    return -1;
                }
                out[der_at + der++] = (uint8_t)(acc >> bits);
            }
        }
        if (!closed || der < 2 || out[der_at] != 0x30) {
            *why = closed ? "a certificate that is not DER (ASN.1 SEQUENCE) inside" : "a certificate without its END line";
            return -1;
        }
        memcpy(out + used, up_x509_guid, 16);
        up_le32(out + used + 16, (uint32_t)(28 + 16 + der));   /* SignatureListSize */
        up_le32(out + used + 20, 0);                             /* SignatureHeaderSize */
        up_le32(out + used + 24, (uint32_t)(16 + der));         /* SignatureSize */
        memcpy(out + used + 28, owner, 16);
        used = der_at + der;
        (*count)++;
        at = i + sizeof end - 1;
    }
    if (!*count) {
        *why = "no -----BEGIN CERTIFICATE----- block in it";
        return -1;
    }
    return (long)used;
}
