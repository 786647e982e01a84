/*
 * bench/upload/upload_proto.h - the text side of sending a run to a results
 * server (docs/results-upload.md), portable so the host tests it: the
 * RESULTS URL, the HTTP/1.1 request head, the answer's status line and
 * the acknowledgement record \baremark\uploaded.txt ("NAME SHA256 URL"
 * per line).
 */
#ifndef BAREMARK_UPLOAD_PROTO_H
#define BAREMARK_UPLOAD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define UPLOAD_URL_MAX 128              /* RESULTS: at most 127 characters */
#define UPLOAD_KEY_MAX 128              /* RESULTS_KEY: 1..128 characters */

struct upload_url {
    uint8_t ip[4];                     /* the server's IPv4 address */
    uint16_t port;                     /* 80 (https: 443) unless given */
    int tls;                           /* https:// */
    char host[24];                     /* "A.B.C.D:PORT" for the Host header */
    char path[UPLOAD_URL_MAX];         /* the base path, ends with '/' */
};

/* Parse "http[s]://A.B.C.D[:PORT][/PATH]".  0, or -1 with *why saying what
 * is wrong in words a person can act on (a host name, a bad port...). */
int upload_url_parse(const char *url, struct upload_url *u, const char **why);
/* NULL when the key is acceptable (1..128 printable ASCII, no space), else why not. */
const char *upload_key_why(const char *key);

/* The request head for POST BASE+TAIL with a body of body_len bytes signed
 * `sig_hex` (HMAC-SHA256 hex).  Returns its length, 0 when buf is too small. */
size_t upload_request_head(char *buf, size_t size, const struct upload_url *u, const char *tail,
                           const char *content_type, size_t body_len, const char *sig_hex);

/* The status code of an HTTP answer's first line, or -1 when the text does
 * not start with "HTTP/1.x NNN". */
int upload_answer_status(const char *text, size_t n);
/* The answer is complete: head, and Content-Length bytes of body after it
 * (or, without Content-Length, the head alone). */
int upload_answer_complete(const char *text, size_t n);
/* The value of the answer's "error" member, if any, copied into buf ("" if none). */
void upload_answer_error(const char *text, size_t n, char *buf, size_t size);

/* Is a run named NAME acknowledged in uploaded.txt's text? */
int upload_acked(const char *text, size_t n, const char *name);

/* RESULTS_CA: every "-----BEGIN CERTIFICATE-----" block of a PEM text,
 * decoded to DER, each as one EFI_SIGNATURE_LIST of type EFI_CERT_X509_GUID
 * (header 28 bytes, no signature header, one EFI_SIGNATURE_DATA: the owner
 * GUID's 16 bytes, then the DER), one after the other in `out`: the value
 * of the TlsCaCertificate variable that the firmware's HTTPS reads.  The
 * bytes used and *count certificates, or -1 with *why. */
long upload_ca_list(const char *pem, size_t n, uint8_t *out, size_t size, const uint8_t owner[16],
                    unsigned *count, const char **why);

#endif
