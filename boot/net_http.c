/*
 * boot/net_http.c - one POST through the firmware's EFI_HTTP_PROTOCOL
 * (net.h; UEFI 2.10 section 29.6), the way the upload goes when the card
 * has an HTTP service binding (EDK II's HttpDxe, in OVMF and in the
 * firmware of boards that offer HTTP boot).
 *
 * Per request: a child of the card's EFI_HTTP_SERVICE_BINDING, configured
 * for IPv4 with the card's default address (the one net_up waited for),
 * Request() with the URL, the headers and the body, then Response() until
 * the answer's Content-Length bytes of body have come, then the child is
 * reset and destroyed.  The image waits for each token itself, polling the
 * protocol between 10 ms stalls, at most NET_IO_SECONDS per token.  The
 * firmware's own connect inside Request() is bounded by the firmware.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "firmware.h"
#include "net.h"
#include "output.h"

#define NET_HTTP_SB_GUID2 { 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } }
#define NET_HTTP_GUID     { 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } }

/* ---- the protocol's types (GNU-EFI has none) ---------------------------------- */

enum { NET_HTTP_V11 = 1 };
enum { NET_HTTP_POST = 1 };

typedef struct {
    BOOLEAN UseDefaultAddress;
    EFI_IPv4_ADDRESS LocalAddress;
    EFI_IPv4_ADDRESS LocalSubnet;
    UINT16 LocalPort;
} NET_HTTP_V4_AP;

typedef struct {
    UINT32 HttpVersion;                  /* an enum */
    UINT32 TimeOutMillisec;
    BOOLEAN LocalAddressIsIPv6;
    union { NET_HTTP_V4_AP *IPv4Node; void *IPv6Node; } AccessPoint;
} NET_HTTP_CONFIG;

typedef struct { UINT32 Method; CHAR16 *Url; } NET_HTTP_REQUEST_DATA;
typedef struct { UINT32 StatusCode; } NET_HTTP_RESPONSE_DATA;
typedef struct { CHAR8 *FieldName; CHAR8 *FieldValue; } NET_HTTP_HEADER;

typedef struct {
    union { NET_HTTP_REQUEST_DATA *Request; NET_HTTP_RESPONSE_DATA *Response; } Data;
    UINTN HeaderCount;
    NET_HTTP_HEADER *Headers;
    UINTN BodyLength;
    VOID *Body;
} NET_HTTP_MESSAGE;

typedef struct {
    EFI_EVENT Event;
    EFI_STATUS Status;
    NET_HTTP_MESSAGE *Message;
} NET_HTTP_TOKEN;

typedef struct _NET_HTTP {
    EFI_STATUS (EFIAPI *GetModeData)(struct _NET_HTTP *This, NET_HTTP_CONFIG *cfg);
    EFI_STATUS (EFIAPI *Configure)(struct _NET_HTTP *This, NET_HTTP_CONFIG *cfg);
    EFI_STATUS (EFIAPI *Request)(struct _NET_HTTP *This, NET_HTTP_TOKEN *token);
    EFI_STATUS (EFIAPI *Cancel)(struct _NET_HTTP *This, NET_HTTP_TOKEN *token);
    EFI_STATUS (EFIAPI *Response)(struct _NET_HTTP *This, NET_HTTP_TOKEN *token);
    EFI_STATUS (EFIAPI *Poll)(struct _NET_HTTP *This);
} NET_HTTP;

/* EFI_HTTP_STATUS_CODE, in the enumeration's order (UEFI 2.10 29.6.6);
 * 0 is HTTP_STATUS_UNSUPPORTED_STATUS: any code the list does not have
 * (422, for one), which the protocol does not pass on. */
static const unsigned short net_http_codes[] = {
    0, 100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304, 305, 307,
    400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413, 414, 415, 416, 417,
    500, 501, 502, 503, 504, 505, 308, 429
};

static EFI_GUID net_http_sb_guid = NET_HTTP_SB_GUID2;
static EFI_GUID net_http_guid = NET_HTTP_GUID;

/* ---- waiting ------------------------------------------------------------------------ */

/* As in net.c: the tokens and their event live here, since one given up
 * after a timeout is completed by the firmware only at the reset. */
static struct net_token nh_w;
static NET_HTTP_TOKEN nh_tok;
static NET_HTTP_MESSAGE nh_msg;
static NET_HTTP_REQUEST_DATA nh_req;
static NET_HTTP_RESPONSE_DATA nh_resp;

static void nh_poll(void *http)
{
    ((NET_HTTP *)http)->Poll(http);
}

/* ---- one POST ----------------------------------------------------------------------- */

static int nh_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? *a + 32 : *a, y = *b >= 'A' && *b <= 'Z' ? *b + 32 : *b;
        if (x != y)
            return 0;
    }
    return !*a && !*b;
}

static void nh_free_headers(NET_HTTP_MESSAGE *m)
{
    /* The driver allocated them (each name, each value, the array); the
     * caller frees them (UEFI 2.10 29.6.6, EFI_HTTP_MESSAGE.Headers). */
    for (UINTN i = 0; m->Headers && i < m->HeaderCount; i++) {
        if (m->Headers[i].FieldName)
            BS->FreePool(m->Headers[i].FieldName);
        if (m->Headers[i].FieldValue)
            BS->FreePool(m->Headers[i].FieldValue);
    }
    if (m->Headers)
        BS->FreePool(m->Headers);
    m->Headers = NULL;
    m->HeaderCount = 0;
}

int net_http_available(void)
{
    return net_card() && fw_handle_protocol(net_card(), &net_http_sb_guid) != NULL;
}

int net_http_post(const char *url, const char *const (*hdr)[2], size_t nhdr, const void *body, size_t len,
                  int *status, char *answer, size_t size, size_t *got, char *why, size_t n)
{
    EFI_SERVICE_BINDING *sb = net_card() ? fw_handle_protocol(net_card(), &net_http_sb_guid) : NULL;
    EFI_HANDLE child = NULL;
    NET_HTTP *http = NULL;
    EFI_STATUS s = EFI_NOT_FOUND;
    NET_HTTP_HEADER hs[8];
    CHAR16 url16[160];
    int rc = NET_HTTP_REFUSED;
    *got = 0;
    *status = -1;
    answer[0] = 0;
    if (nhdr > 8 || strlen(url) >= sizeof url16 / sizeof url16[0]) {
        snprintf(why, n, "the request does not fit");
        return -1;
    }
    if (!sb) {
        snprintf(why, n, "the card has no HTTP service binding");
        return NET_HTTP_REFUSED;
    }
    s = sb->CreateChild(sb, &child);
    if (s == EFI_SUCCESS)
        http = fw_handle_protocol(child, &net_http_guid);
    if (!http) {
        snprintf(why, n, "no HTTP instance (%s)", net_status_text(s));
        if (child)
            sb->DestroyChild(sb, child);
        return NET_HTTP_REFUSED;
    }
    NET_HTTP_V4_AP ap;
    NET_HTTP_CONFIG cd;
    memset(&ap, 0, sizeof ap);
    memset(&cd, 0, sizeof cd);
    ap.UseDefaultAddress = TRUE;
    cd.HttpVersion = NET_HTTP_V11;
    cd.TimeOutMillisec = NET_IO_SECONDS * 1000u;
    cd.AccessPoint.IPv4Node = &ap;
    s = http->Configure(http, &cd);
    if (s != EFI_SUCCESS) {
        snprintf(why, n, "the HTTP protocol's configuration failed (%s)", net_status_text(s));
        goto out;
    }
    for (size_t i = 0; i == 0 || url[i - 1]; i++)
        url16[i] = (unsigned char)url[i];
    for (size_t i = 0; i < nhdr; i++) {
        hs[i].FieldName = (CHAR8 *)hdr[i][0];
        hs[i].FieldValue = (CHAR8 *)hdr[i][1];
    }
    /* the request */
    memset(&nh_tok, 0, sizeof nh_tok);
    memset(&nh_msg, 0, sizeof nh_msg);
    nh_req.Method = NET_HTTP_POST;
    nh_req.Url = url16;
    nh_msg.Data.Request = &nh_req;
    nh_msg.HeaderCount = nhdr;
    nh_msg.Headers = hs;
    nh_msg.BodyLength = len;
    nh_msg.Body = (void *)body;
    nh_tok.Message = &nh_msg;
    if (net_token_new(&nh_w) != EFI_SUCCESS) {
        snprintf(why, n, "no event for the request");
        rc = -1;
        goto reset;
    }
    nh_tok.Event = nh_w.ev;
    s = http->Request(http, &nh_tok);
    if (s != EFI_SUCCESS) {
        net_token_close(&nh_w);
        /* Refusals of the request itself (http:// not allowed by the
         * firmware's policy, POST not supported): nothing was sent. */
        if (s == EFI_ACCESS_DENIED || s == EFI_UNSUPPORTED || s == EFI_INVALID_PARAMETER) {
            snprintf(why, n, "the HTTP protocol refused the request (%s)", net_status_text(s));
            rc = NET_HTTP_REFUSED;
        } else {
            /* EDK II's HttpDxe answers a failed TLS handshake (a certificate
             * that TlsCaCertificate does not vouch for, a wrong name) with
             * EFI_ABORTED and says no more. */
            snprintf(why, n, "the firmware's HTTP request failed (%s%s)", net_status_text(s),
                     s == EFI_ABORTED && !strncmp(url, "https:", 6)
                         ? ": the TLS handshake failed; is the server's certificate signed by a CA in RESULTS_CA, "
                           "for this address?" : "");
            rc = -1;
        }
        goto reset;
    }
    rc = -1;
    if (!net_token_wait(&nh_w, nh_poll, http, NET_IO_SECONDS * 1000ull)) {
        snprintf(why, n, "sending timed out after %d s", NET_IO_SECONDS);
        goto reset;
    }
    if (nh_tok.Status != EFI_SUCCESS) {
        snprintf(why, n, "sending failed (%s)", net_status_text(nh_tok.Status));
        goto reset;
    }
    /* the answer: its head with the first part of the body, then the rest */
    size_t want = (size_t)-1;
    for (int first = 1; *got + 1 < size && *got < want; first = 0) {
        memset(&nh_tok, 0, sizeof nh_tok);
        memset(&nh_msg, 0, sizeof nh_msg);
        memset(&nh_resp, 0, sizeof nh_resp);
        if (first)
            nh_msg.Data.Response = &nh_resp;
        nh_msg.BodyLength = size - 1 - *got;
        nh_msg.Body = answer + *got;
        nh_tok.Message = &nh_msg;
        if (net_token_new(&nh_w) != EFI_SUCCESS) {
            snprintf(why, n, "no event for the answer");
            goto reset;
        }
        nh_tok.Event = nh_w.ev;
        s = http->Response(http, &nh_tok);
        if (s != EFI_SUCCESS) {
            net_token_close(&nh_w);
            if (!first && s == EFI_CONNECTION_FIN)
                break;
            snprintf(why, n, "receiving failed (%s)", net_status_text(s));
            goto reset;
        }
        if (!net_token_wait(&nh_w, nh_poll, http, NET_IO_SECONDS * 1000ull)) {
            snprintf(why, n, "no complete answer within %d s", NET_IO_SECONDS);
            goto reset;
        }
        if (nh_tok.Status != EFI_SUCCESS && nh_tok.Status != NET_HTTP_ERROR) {
            nh_free_headers(&nh_msg);
            if (!first && nh_tok.Status == EFI_CONNECTION_FIN)
                break;
            snprintf(why, n, "receiving failed (%s)", net_status_text(nh_tok.Status));
            goto reset;
        }
        if (first) {
            unsigned code = nh_resp.StatusCode;
            *status = code < sizeof net_http_codes / sizeof net_http_codes[0] ? net_http_codes[code] : 0;
            want = 0;                      /* no Content-Length: the head alone */
            for (UINTN i = 0; i < nh_msg.HeaderCount; i++)
                if (nh_msg.Headers[i].FieldName && nh_msg.Headers[i].FieldValue &&
                    nh_ieq((const char *)nh_msg.Headers[i].FieldName, "content-length")) {
                    const char *v = (const char *)nh_msg.Headers[i].FieldValue;
                    want = 0;
                    while (*v >= '0' && *v <= '9' && want < size)
                        want = want * 10 + (size_t)(*v++ - '0');
                }
            nh_free_headers(&nh_msg);
        }
        *got += nh_msg.BodyLength;
        if (!first && !nh_msg.BodyLength)
            break;
    }
    answer[*got] = 0;
    rc = 0;
reset:
    http->Configure(http, NULL);          /* closes the connection, aborts what is outstanding */
    net_token_close(&nh_w);
out:
    sb->DestroyChild(sb, child);
    return rc;
}
