/*
 * tests/unit/test_upload_proto.c - bench/upload/upload_proto.c: the RESULTS URL
 * (accepted and refused forms), the request head of the upload contract
 * (docs/results-upload.md), answers' status and completeness, and
 * uploaded.txt lookups; and the RESULTS / RESULTS_KEY settings through
 * the command-file parser (the key is never printed); RESULTS_CA's PEM
 * text as the firmware's TlsCaCertificate value, against Python's ssl
 * module and the UEFI layout (tests/vectors/cacert/make_vectors.py).
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "sha256.h"
#include "upload_proto.h"
#include "check.h"
#include "tests/vectors/cacert/vectors.h"

static void ca_list(void)
{
    static uint8_t out[8192];
    unsigned count = 0;
    const char *why = NULL;
    char hex[SHA256_HEX];
    uint8_t d[SHA256_DIGEST];
    long n = upload_ca_list(ca_pem_text, strlen(ca_pem_text), out, sizeof out, ca_owner, &count, &why);
    CHECK(n == CA_LIST_LEN && count == 2, "RESULTS_CA: two certificates (LF and CRLF lines), the expected length");
    if (n > 0) {
        sha256(out, (size_t)n, d);
        sha256_hex(d, hex);
        CHECK_STR(hex, CA_LIST_SHA256, "RESULTS_CA: the signature lists' bytes are Python's (SHA-256)");
        CHECK(out[16] == (uint8_t)(28 + 16 + CA_DER0_LEN) && out[28 + 16 + CA_DER0_LEN] == 0xa1,
              "RESULTS_CA: the second list starts where the first's SignatureListSize ends");
    }
    n = upload_ca_list(ca_pem_text, strlen(ca_pem_text), out, 1000, ca_owner, &count, &why);
    CHECK(n == -1 && why && strstr(why, "larger"), "RESULTS_CA: too large for the buffer: refused with a reason");
    n = upload_ca_list("hello\n", 6, out, sizeof out, ca_owner, &count, &why);
    CHECK(n == -1 && why && strstr(why, "BEGIN CERTIFICATE"), "RESULTS_CA: no certificate: refused with a reason");
    static const char cut[] = "-----BEGIN CERTIFICATE-----\nMIIB\n";
    n = upload_ca_list(cut, strlen(cut), out, sizeof out, ca_owner, &count, &why);
    CHECK(n == -1 && why && strstr(why, "END"), "RESULTS_CA: a certificate without its END line: refused");
    static const char bad[] = "-----BEGIN CERTIFICATE-----\nMI*B\n-----END CERTIFICATE-----\n";
    n = upload_ca_list(bad, strlen(bad), out, sizeof out, ca_owner, &count, &why);
    CHECK(n == -1 && why && strstr(why, "base64"), "RESULTS_CA: a character outside base64: refused");
}

static void urls(void)
{
    struct upload_url u;
    const char *why;
    CHECK(upload_url_parse("http://10.0.2.2:8750/", &u, &why) == 0 && u.ip[0] == 10 && u.ip[3] == 2 &&
          u.port == 8750 && !strcmp(u.path, "/") && !strcmp(u.host, "10.0.2.2:8750"), "http://10.0.2.2:8750/");
    CHECK(upload_url_parse("HTTP://192.168.1.20", &u, &why) == 0 && u.port == 80 && !strcmp(u.path, "/") &&
          u.ip[0] == 192 && u.ip[3] == 20, "no port: 80, no path: /");
    CHECK(upload_url_parse("http://1.2.3.4:9/lab/x", &u, &why) == 0 && !strcmp(u.path, "/lab/x/"),
          "a base path gets its closing /");
    CHECK(upload_url_parse("https://10.0.2.2/", &u, &why) == 0 && u.tls && u.port == 443 && !strcmp(u.path, "/"),
          "https://10.0.2.2/: TLS, port 443 unless given");
    CHECK(upload_url_parse("HTTPS://10.0.2.2:8443/lab", &u, &why) == 0 && u.tls && u.port == 8443 &&
          !strcmp(u.host, "10.0.2.2:8443") && !strcmp(u.path, "/lab/"), "HTTPS with a port and a path");
    CHECK(upload_url_parse("http://10.0.2.2/", &u, &why) == 0 && !u.tls, "http: no TLS");
    static const char *bad[] = { "httpx://10.0.2.2/", "https:/10.0.2.2/", "ftp://1.2.3.4/", "http://lab.example/", "http://1.2.3/",
                                 "http://1.2.3.256/", "http://1.2.3.4:0/", "http://1.2.3.4:65536/",
                                 "http://1.2.3.4:/", "http://1.2.3.4x/", "http://1.2.3.4/a b", "http://1.2.3.4/?q",
                                 "10.0.2.2:8750" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char what[96];
        why = NULL;
        snprintf(what, sizeof what, "refused: %s", bad[i]);
        CHECK(upload_url_parse(bad[i], &u, &why) == -1 && why && *why, what);
    }
    upload_url_parse("ftp://10.0.2.2/", &u, &why);
    CHECK(strstr(why, "http://") != NULL, "another scheme: the reason names http://");
}

static void keys(void)
{
    char k128[130];
    memset(k128, 'k', 128);
    k128[128] = 0;
    CHECK(upload_key_why("s3cr#t!") == NULL, "a key of printable characters");
    CHECK(upload_key_why(k128) == NULL, "a key of 128 characters");
    k128[128] = 'k';
    k128[129] = 0;
    CHECK(upload_key_why(k128) != NULL, "a key of 129 characters is refused");
    CHECK(upload_key_why("") != NULL && upload_key_why("a b") != NULL && upload_key_why("a\x7f") != NULL,
          "empty, space, DEL refused");
}

static void head(void)
{
    struct upload_url u;
    const char *why;
    char buf[512];
    upload_url_parse("http://10.0.2.2:8750/lab/", &u, &why);
    size_t n = upload_request_head(buf, sizeof buf, &u, "api/runs", "application/json", 1234, "ab12");
    CHECK_STR(buf,
              "POST /lab/api/runs HTTP/1.1\r\nHost: 10.0.2.2:8750\r\nUser-Agent: baremark\r\n"
              "Content-Type: application/json\r\nContent-Length: 1234\r\n"
              "X-Baremark-Signature: sha256=ab12\r\nConnection: close\r\n\r\n", "request head");
    CHECK_EQ_U64(n, strlen(buf), "its length");
    CHECK_EQ_U64(upload_request_head(buf, 40, &u, "api/runs", "application/json", 1, "ab"), 0,
                 "a buffer too small: 0");
}

static void answers(void)
{
    const char *a = "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n"
                    "{\"sha256\":\"abc\",\"stored\":true}";
    CHECK_EQ_I64(upload_answer_status(a, strlen(a)), 201, "status 201");
    CHECK(!upload_answer_complete(a, strlen(a)), "30 of 36 body bytes: not complete");
    const char *b = "HTTP/1.0 401 Unauthorized\r\ncontent-length: 22\r\n\r\n{\"error\":\"bad signature\"}";
    CHECK(upload_answer_complete(b, strlen(b)), "HTTP/1.0, lower-case header: complete");
    char err[64];
    upload_answer_error(b, strlen(b), err, sizeof err);
    CHECK_STR(err, "bad signature", "the error member");
    CHECK_EQ_I64(upload_answer_status("HTTP/1.1 20", 11), -1, "a cut status line");
    CHECK_EQ_I64(upload_answer_status("SSH-2.0-OpenSSH_9\r\n", 19), -1, "not HTTP");
    CHECK(!upload_answer_complete("HTTP/1.1 200 OK\r\n", 17), "no blank line: not complete");
}

static void acked(void)
{
    const char *t = "20261127-101010 aa http://10.0.2.2:8750/\n20261127-101010-2 bb http://x/\npartial";
    CHECK(upload_acked(t, strlen(t), "20261127-101010"), "first line");
    CHECK(upload_acked(t, strlen(t), "20261127-101010-2"), "second line");
    CHECK(!upload_acked(t, strlen(t), "20261127-10101"), "a prefix of a name is not it");
    CHECK(!upload_acked(t, strlen(t), "partial"), "a cut last line without a SHA is not an acknowledgement");
    CHECK(!upload_acked("", 0, "x"), "empty file");
}

static int diags;
static char last[256];
static void diag(void *ctx, unsigned line, const char *msg)
{
    (void)ctx; (void)line;
    diags++;
    snprintf(last, sizeof last, "%s", msg);
}

static void settings(void)
{
    struct bm_config c;
    char out[16384];
    const char *t = "RESULTS=http://10.0.2.2:8750/\nRESULTS_KEY=Sekr1t-Word\n";
    config_defaults(&c);
    diags = 0;
    config_parse(&c, t, strlen(t), diag, NULL);
    CHECK(diags == 0 && !strcmp(c.results, "http://10.0.2.2:8750/") && !strcmp(c.results_key, "Sekr1t-Word"),
          "RESULTS and RESULTS_KEY set");
    config_format(&c, out, sizeof out);
    CHECK(strstr(out, "RESULTS=http://10.0.2.2:8750/\n") && !strstr(out, "Sekr1t"),
          "settings text: the URL, never the key");
    t = "RESULTS=ftp://10.0.2.2/\nRESULTS_KEY=has space\n";
    config_defaults(&c);
    diags = 0;
    config_parse(&c, t, strlen(t), diag, NULL);
    CHECK(diags == 2 && !c.results[0] && !c.results_key[0], "ftp and a key with a space: two lines, both unset");
    CHECK(!strstr(last, "has space"), "the refused key is not repeated");
    /* RESULTS_VIA and RESULTS_CA */
    config_defaults(&c);
    CHECK(c.results_via == BM_VIA_AUTO && !c.results_ca[0], "RESULTS_VIA auto, RESULTS_CA none unless set");
    t = "RESULTS_VIA=TCP\nRESULTS_CA=\\baremark\\ca.pem\n";
    diags = 0;
    config_parse(&c, t, strlen(t), diag, NULL);
    CHECK(diags == 0 && c.results_via == BM_VIA_TCP && !strcmp(c.results_ca, "\\baremark\\ca.pem"),
          "RESULTS_VIA=TCP (any case), RESULTS_CA=\\baremark\\ca.pem");
    config_format(&c, out, sizeof out);
    CHECK(strstr(out, "RESULTS_VIA=tcp\n") && strstr(out, "RESULTS_CA=\\baremark\\ca.pem\n"), "settings text: both");
    t = "RESULTS_VIA=udp\nRESULTS_CA=ca*.pem\n";
    config_defaults(&c);
    diags = 0;
    config_parse(&c, t, strlen(t), diag, NULL);
    CHECK(diags == 2 && c.results_via == BM_VIA_AUTO && !c.results_ca[0],
          "RESULTS_VIA=udp, RESULTS_CA with a '*': two lines, both left at their defaults");
    CHECK(!strcmp(config_via_name(BM_VIA_HTTP), "http") && !strcmp(config_via_name(-1), "?"), "RESULTS_VIA names");
}

int main(void)
{
    urls();
    keys();
    head();
    answers();
    acked();
    settings();
    ca_list();
    return check_done();
}
