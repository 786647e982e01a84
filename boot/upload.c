/*
 * boot/upload.c - send the runs the server has not acknowledged (upload.h).
 *
 * Per run: POST BASE/api/runs with the JSON file exactly as written, then
 * POST BASE/api/runs/SHA/log with its log, each signed
 * "X-Baremark-Signature: sha256=HMAC-SHA256(key, body)".  An answer of 201
 * (stored) or 409 (stored before) to both acknowledges the run: one line
 * "NAME SHA256 URL" is appended to \baremark\uploaded.txt on the results
 * volume.  Anything else leaves the run for the next boot; the server's 409
 * makes a resend harmless.  With no results volume (a diskless network
 * boot) only this run is sent, from memory.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "cpu.h"
#include "esp_files.h"
#include "firmware.h"
#include "hmac_sha256.h"
#include "json.h"
#include "net.h"
#include "output.h"
#include "platform.h"
#include "results_doc.h"
#include "run_files.h"
#include "upload.h"
#include "upload_proto.h"

#define UPLOAD_DIR       "\\baremark"
#define UPLOAD_RECORD    UPLOAD_DIR "\\uploaded.txt"
#define UPLOAD_MAX_RUNS  256                  /* per boot; the rest at the next */
#define UPLOAD_NAME_MAX  32
#define UPLOAD_ANSWER    4096

struct upload_list {
    char (*names)[UPLOAD_NAME_MAX];
    unsigned n, more;
    const char *acked;
    size_t acked_len;
};

/* A run's JSON: YYYYMMDD-HHMMSS[-N].json (not OUTFILE's copy, not *.new). */
static int upload_run_file(const char *name, char *base, size_t size)
{
    size_t n = strlen(name), i;
    if (n < 20 || n - 5 >= size || strcmp(name + n - 5, ".json"))
        return 0;
    for (i = 0; i < 15; i++)
        if (i == 8 ? name[i] != '-' : !(name[i] >= '0' && name[i] <= '9'))
            return 0;
    if (i < n - 5) {
        if (name[i++] != '-' || i == n - 5)
            return 0;
        for (; i < n - 5; i++)
            if (!(name[i] >= '0' && name[i] <= '9'))
                return 0;
    }
    memcpy(base, name, n - 5);
    base[n - 5] = 0;
    return 1;
}

static void upload_list_add(const char *name, uint64_t size, void *ctx)
{
    struct upload_list *l = ctx;
    char base[UPLOAD_NAME_MAX];
    (void)size;
    if (!upload_run_file(name, base, sizeof base) || upload_acked(l->acked, l->acked_len, base))
        return;
    if (l->n == UPLOAD_MAX_RUNS) {
        l->more++;
        return;
    }
    memcpy(l->names[l->n++], base, sizeof base);
}

static int upload_cmp(const char *a, const char *b) { return strcmp(a, b); }

static void upload_sort(struct upload_list *l)
{
    for (unsigned i = 1; i < l->n; i++)
        for (unsigned j = i; j > 0 && upload_cmp(l->names[j - 1], l->names[j]) > 0; j--) {
            char t[UPLOAD_NAME_MAX];
            memcpy(t, l->names[j], sizeof t);
            memcpy(l->names[j], l->names[j - 1], sizeof t);
            memcpy(l->names[j - 1], t, sizeof t);
        }
}

/* The way the requests go: the firmware's HTTP protocol, or TCP4 with the
 * image's own client (RESULTS_VIA, and what the card has). */
static int upload_by_http;

/* One signed POST; the status (or -1 and `why`).  By the firmware's HTTP
 * protocol when upload_by_http; when that protocol turns the request down
 * before sending anything, RESULTS_VIA=auto goes on by TCP4. */
static int upload_post(const struct upload_url *u, const char *key, int via, const char *tail, const char *type,
                       const void *body, size_t len, char *err, size_t err_size, char *why, size_t n)
{
    char sig[SHA256_HEX], head[512], *answer = plat_alloc(UPLOAD_ANSWER);
    size_t got;
    if (!answer) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    hmac_sha256_hex(key, strlen(key), body, len, sig);
    int status = -1;
    if (upload_by_http) {
        char url[UPLOAD_URL_MAX + 96], clen[24], sigv[SHA256_HEX + 8];
        snprintf(url, sizeof url, "http%s://%s%s%s", u->tls ? "s" : "", u->host, u->path, tail);
        snprintf(clen, sizeof clen, "%zu", len);
        snprintf(sigv, sizeof sigv, "sha256=%s", sig);
        const char *const hdr[][2] = {
            { "Host", u->host }, { "User-Agent", "baremark" }, { "Content-Type", type },
            { "Content-Length", clen }, { "X-Baremark-Signature", sigv }, { "Connection", "close" },
        };
        int rc = net_http_post(url, hdr, sizeof hdr / sizeof hdr[0], body, len, &status, answer,
                               UPLOAD_ANSWER, &got, why, n);
        if (rc == 0) {
            upload_answer_error(answer, got, err, err_size);
            plat_free(answer);
            return status;
        }
        status = -1;
        if (rc != NET_HTTP_REFUSED || via == BM_VIA_HTTP || u->tls) {
            plat_free(answer);
            return -1;
        }
        out_show("results: the firmware's HTTP protocol cannot be used (%s); the upload goes by TCP4 with "
                 "baremark's own HTTP/1.1 client\n", why);
        upload_by_http = 0;
    }
    size_t hn = upload_request_head(head, sizeof head, u, tail, type, len, sig);
    if (!hn)
        snprintf(why, n, "the request does not fit");
    else if (net_exchange(u->ip, u->port, head, hn, body, len, answer, UPLOAD_ANSWER, &got, why, n) == 0) {
        status = upload_answer_status(answer, got);
        if (status < 0)
            snprintf(why, n, "the answer is not HTTP (%zu bytes)", got);
        upload_answer_error(answer, got, err, err_size);
    }
    plat_free(answer);
    return status;
}

/* RESULTS_CA: the PEM file's certificates as the firmware's TlsCaCertificate
 * variable (volatile: gone at the next reset), which its HTTPS (HttpDxe
 * with TlsDxe) checks the server's certificate against. */
#define UPLOAD_CA_MAX 65536
static void upload_install_ca(const char *path)
{
    static EFI_GUID tls_ca = { 0xfd2340d0, 0x3dab, 0x4349, { 0xa6, 0xc7, 0x3b, 0x4f, 0x12, 0xb4, 0x8e, 0xae } };
    static const uint8_t owner[16] = { 0x6e, 0x2c, 0x0f, 0x3b, 0x41, 0x5a, 0x8d, 0x4e,     /* baremark's */
                                       0x9b, 0x0a, 0x7d, 0x1e, 0x2f, 0x3a, 0x4b, 0x5c };
    EFI_STATUS s;
    size_t n = 0;
    unsigned count = 0;
    const char *why = NULL;
    char *pem = esp_read(path, &n, &s);
    uint8_t *list = pem ? plat_alloc(UPLOAD_CA_MAX) : NULL;
    long len = list ? upload_ca_list(pem, n, list, UPLOAD_CA_MAX, owner, &count, &why) : -1;
    if (!pem)
        out_show("results: RESULTS_CA %s could not be read (%s); https checks the server against the "
                 "certificates the firmware already has\n", path, fw_status_name(s));
    else if (len < 0)
        out_show("results: RESULTS_CA %s refused: %s; https checks the server against the certificates the "
                 "firmware already has\n", path, list ? why : "out of memory");
    else if ((s = fw_set_variable(L"TlsCaCertificate", &tls_ca, EFI_VARIABLE_BOOTSERVICE_ACCESS |
                                  EFI_VARIABLE_RUNTIME_ACCESS, list, (UINTN)len)) != EFI_SUCCESS)
        out_show("results: RESULTS_CA %s: the firmware's TlsCaCertificate variable could not be set (%s; a "
                 "non-volatile one set in the firmware's setup is left alone)\n", path, fw_status_name(s));
    else
        out_printf("results: %u CA certificate%s from %s set as the firmware's TlsCaCertificate (volatile, "
                   "%ld bytes)\n", count, count == 1 ? "" : "s", path, len);
    if (pem)
        FreePool(pem);
    plat_free(list);
}

static void upload_record(const char *name, const char *sha, const char *url)
{
    char line[UPLOAD_NAME_MAX + SHA256_HEX + UPLOAD_URL_MAX + 4];
    size_t size = 0;
    EFI_STATUS s;
    EFI_FILE_HANDLE f;
    void *old = esp_save_read(UPLOAD_RECORD, &size, &s);
    if (old)
        FreePool(old);
    int n = snprintf(line, sizeof line, "%s %s %s\n", name, sha, url);
    s = old ? esp_open_rw(UPLOAD_RECORD, &f) : esp_create(UPLOAD_RECORD, &f);
    if (s == EFI_SUCCESS) {
        s = esp_file_write_at(f, size, line, (size_t)n);
        esp_file_close(f);
    }
    if (s != EFI_SUCCESS)
        out_show("results: %s was stored by the server but %s could not be updated (%s); the next boot "
                   "sends it again (the server answers 409)\n", name, UPLOAD_RECORD, fw_status_name(s));
}

/* Send one run; 0 acknowledged, 1 refused (go on with the next), -1 the
 * server cannot be reached or refuses the key (stop). */
static int upload_one(const struct upload_url *u, const char *url, const char *key, int via, const char *name,
                      const char *json, size_t json_len, const char *log, size_t log_len, int saved)
{
    char why[160] = "", err[120] = "", sha[SHA256_HEX], tail[96];
    uint8_t d[SHA256_DIGEST];
    sha256(json, json_len, d);
    sha256_hex(d, sha);
    int st = upload_post(u, key, via, "api/runs", "application/json", json, json_len, err, sizeof err, why, sizeof why);
    if (st < 0) {
        out_show("results: server %s not reached (%s); %s\n", url, why,
                   saved ? "run kept on the stick, sent at the next boot" : "this run is on serial only");
        return -1;
    }
    if (st != 201 && st != 409) {
        char code[64];
        snprintf(code, sizeof code, st ? "%d" : "a status the firmware's HTTP protocol does not name", st);
        out_show("results: server %s refused run %s (%s%s%s)%s\n", url, name, code, err[0] ? ": " : "", err,
                   st == 401 ? "; check RESULTS_KEY against the server's key file" : "");
        return st == 401 ? -1 : 1;
    }
    int lst = 0;
    if (log) {
        snprintf(tail, sizeof tail, "api/runs/%s/log", sha);
        lst = upload_post(u, key, via, tail, "text/plain", log, log_len, err, sizeof err, why, sizeof why);
        if (lst < 0 || (lst / 100 != 2 && lst != 409)) {
            if (lst < 0)
                out_show("results: run %s stored (%d) but its log not sent (%s); sent again at the next boot\n",
                           name, st, why);
            else
                out_show("results: run %s stored (%d) but its log refused (%d%s%s)\n", name, st, lst,
                           err[0] ? ": " : "", err);
            return lst < 0 ? -1 : 1;
        }
    }
    out_show("results: run %s %s by %s (%d, sha256 %s)%s\n", name, st == 201 ? "stored" : "already stored",
               url, st, sha, log ? ", log sent" : "");
    if (saved)
        upload_record(name, sha, url);
    return 0;
}

void upload_runs(const char *url, const char *key, int via, const char *ca)
{
    struct upload_url u;
    const char *bad;
    char why[160];
    if (!url || !url[0])
        return;
    if (!cpu_info.has_tsc) {            /* run_fatal's end: nothing to time the waits with */
        out_show("results: not sent: this CPU has no time-stamp counter to bound the network waits\n");
        return;
    }
    uint64_t t0 = cpu_rdtsc();
    if (!key || !key[0]) {
        out_show("results: RESULTS is set but RESULTS_KEY is not: nothing sent (the server takes signed runs only)\n");
        return;
    }
    if (upload_url_parse(url, &u, &bad)) {
        out_show("results: RESULTS '%s' refused: %s\n", url, bad);
        return;
    }
    if (u.tls && via == BM_VIA_TCP) {
        out_show("results: not sent: https:// goes only by the firmware's HTTP protocol with TLS, and "
                 "RESULTS_VIA=tcp asks for baremark's own client, which has no TLS\n");
        return;
    }
    struct upload_list l = { 0 };
    int saved = run_saving_now();
    size_t rec_len = 0;
    EFI_STATUS s;
    char *rec = saved ? esp_save_read(UPLOAD_RECORD, &rec_len, &s) : NULL;
    if (saved) {
        l.names = plat_alloc(sizeof *l.names * UPLOAD_MAX_RUNS);
        l.acked = rec ? rec : "";
        l.acked_len = rec_len;
        if (!l.names || esp_save_list(UPLOAD_DIR, upload_list_add, &l) != EFI_SUCCESS) {
            out_show("results: the runs on the results volume could not be listed; nothing sent\n");
            goto done;
        }
        upload_sort(&l);
        if (!l.n) {
            out_printf("results: every run on the results volume is acknowledged in %s\n", UPLOAD_RECORD);
            goto done;
        }
    }
    out_printf("results: sending %u run%s to %s\n", saved ? l.n : 1, saved && l.n == 1 ? "" : saved ? "s" : "", url);
    if (net_up(why, sizeof why)) {
        out_show("results: server %s not reached (%s); %s\n", url, why,
                   saved ? "run kept on the stick, sent at the next boot" : "this run is on serial only");
        goto done;
    }
    upload_by_http = via != BM_VIA_TCP && net_http_available();
    if ((via == BM_VIA_HTTP || u.tls) && !upload_by_http) {
        out_show("results: server %s not reached (%s but the card has no HTTP protocol); %s\n", url,
                 u.tls ? "https:// needs the firmware's HTTP protocol with TLS" : "RESULTS_VIA=http",
                 saved ? "run kept on the stick, sent at the next boot" : "this run is on serial only");
        net_down();
        goto done;
    }
    if (u.tls && !net_tls_available()) {
        out_show("results: server %s not reached (https:// needs TLS, and the firmware offers no TLS protocol); "
                 "%s\n", url, saved ? "run kept on the stick, sent at the next boot" : "this run is on serial only");
        net_down();
        goto done;
    }
    if (u.tls && ca && ca[0])
        upload_install_ca(ca);
    out_printf("results: by %s\n", upload_by_http ? "the firmware's HTTP protocol (EFI_HTTP_PROTOCOL)"
               : via == BM_VIA_TCP ? "TCP4 with baremark's own HTTP/1.1 client (RESULTS_VIA=tcp)"
               : "TCP4 with baremark's own HTTP/1.1 client (the card has no HTTP protocol)");
    unsigned sent = 0, tried = 0;
    if (!saved) {
        struct json_writer w;
        size_t log_len;
        const char *log = run_log_text(&log_len);
        results_doc_compose(&w, 1);
        if (w.failed)
            out_show("results: out of memory for the JSON; nothing sent\n");
        else {
            tried = 1;
            sent = upload_one(&u, url, key, via, run_name(), w.buf, w.len, log, log_len, 0) == 0;
        }
        json_free(&w);
    }
    for (unsigned i = 0; saved && i < l.n; i++) {
        char path[96];
        size_t jn = 0, ln = 0;
        snprintf(path, sizeof path, UPLOAD_DIR "\\%s.json", l.names[i]);
        char *json = esp_save_read(path, &jn, &s);
        snprintf(path, sizeof path, UPLOAD_DIR "\\%s.log", l.names[i]);
        char *log = esp_save_read(path, &ln, &s);
        int rc = 1;
        tried++;
        if (!json)
            out_show("results: run %s: its JSON could not be read (%s)\n", l.names[i], fw_status_name(s));
        else
            rc = upload_one(&u, url, key, via, l.names[i], json, jn, log, ln, 1);
        if (json)
            FreePool(json);
        if (log)
            FreePool(log);
        sent += rc == 0;
        if (rc < 0)
            break;
    }
    net_down();
    int guessed;
    uint64_t dt = cpu_rdtsc() - t0, hz = net_tsc_hz(&guessed);
    out_show("results: %u of %u run%s sent in %llu.%03llu s after the summary%s\n", sent, saved ? l.n : 1,
               (saved ? l.n : 1) == 1 ? "" : "s", (unsigned long long)(dt / hz),
               (unsigned long long)(dt % hz * 1000 / hz),
               guessed ? " (TSC rate estimated against the firmware's Stall: no clock section)" : "");
    (void)tried;
done:
    if (l.more)
        out_show("results: %u more unsent runs wait for the next boot\n", l.more);
    if (rec)
        FreePool(rec);
    plat_free(l.names);
}
