/*
 * boot/net.c - the firmware's TCP/IPv4 stack (net.h).
 *
 * The card: the first handle with EFI_TCP4_SERVICE_BINDING_PROTOCOL.  None
 * when the firmware connected only its boot device (fast boot, a boot order
 * naming a disk): then every PCI network controller (class 02h) is
 * connected recursively, as the shell's `connect -r` would, and the
 * service bindings are looked for again.  Its address comes from
 * EFI_IP4_CONFIG2: when the card has none, the policy is set to DHCP (the
 * firmware keeps that policy in its variables) and the address is awaited.
 * The HTTP and TLS service bindings are looked for and reported; the
 * exchange goes through the firmware's HTTP protocol where the card has
 * one (boot/net_http.c), else (or with RESULTS_VIA=tcp) it is the image's
 * own HTTP/1.1 over EFI_TCP4 below (see docs/results-upload.md).
 *
 * Waiting: the firmware's events run while the image waits in 10 ms steps
 * (halted on a timer event, net_step) with EFI_TCP4.Poll between them; the TSC (calibrated by the clock
 * section, else estimated against 50 ms of the firmware's Stall) measures
 * the time.
 */
#include <efi.h>
#include <efilib.h>
#include <stdio.h>
#include <string.h>

#include "cpu.h"
#include "firmware.h"
#include "net.h"
#include "output.h"
#include "platform.h"
#include "upload_proto.h"

/* ---- what GNU-EFI does not define (UEFI 2.10, sections 28.5 and 29.1) ---------- */

#define NET_IP4_CONFIG2_GUID { 0x5b446ed1, 0xe30b, 0x4faa, { 0x87, 0x1a, 0x36, 0x54, 0xec, 0xa3, 0x60, 0x80 } }
#define NET_HTTP_SB_GUID     { 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } }
#define NET_TLS_SB_GUID      { 0x952cb795, 0xff36, 0x48cf, { 0xa2, 0x49, 0x4d, 0xf4, 0x86, 0xd6, 0xab, 0x8d } }

enum { NET_CFG2_INTERFACE_INFO = 0, NET_CFG2_POLICY = 1 };
enum { NET_POLICY_STATIC = 0, NET_POLICY_DHCP = 1 };

typedef struct {
    CHAR16 Name[32];
    UINT8 IfType;
    UINT32 HwAddressSize;
    EFI_MAC_ADDRESS HwAddress;
    EFI_IPv4_ADDRESS StationAddress;
    EFI_IPv4_ADDRESS SubnetMask;
    UINT32 RouteTableSize;
    void *RouteTable;
} NET_IP4_CONFIG2_INTERFACE_INFO;

typedef struct _NET_IP4_CONFIG2 {
    EFI_STATUS (EFIAPI *SetData)(struct _NET_IP4_CONFIG2 *This, UINTN type, UINTN size, VOID *data);
    EFI_STATUS (EFIAPI *GetData)(struct _NET_IP4_CONFIG2 *This, UINTN type, UINTN *size, VOID *data);
    VOID *RegisterDataNotify;
    VOID *UnregisterDataNotify;
} NET_IP4_CONFIG2;

/* ---- time ------------------------------------------------------------------ */

#define NET_STEP_US 10000

struct net_clock { uint64_t t0, hz, steps; };

uint64_t net_tsc_hz(int *estimated)
{
    static uint64_t hz;
    static int guessed;
    if (!hz && plat_tick_hz())
        hz = plat_tick_hz();
    if (!hz) {                          /* no clock section: 50 ms of the firmware's Stall */
        uint64_t t0 = cpu_rdtsc();
        BS->Stall(50000);
        hz = (cpu_rdtsc() - t0) * 20;
        guessed = 1;
    }
    if (estimated)
        *estimated = guessed;
    return hz;
}

static void net_clock_start(struct net_clock *c)
{
    c->hz = net_tsc_hz(NULL);
    c->t0 = cpu_rdtsc();
    c->steps = 0;
}

static uint64_t net_clock_ms(const struct net_clock *c)
{
    if (c->hz)
        return (cpu_rdtsc() - c->t0) * 1000 / c->hz;
    return c->steps * (NET_STEP_US / 1000);
}

/* One step: the CPU halts (WaitForEvent on a 10 ms timer) rather than
 * spinning in the firmware's Stall, so the firmware's network timers and
 * the host's packets get the time.  Under QEMU's -icount a Stall polls the
 * ACPI PM timer, each poll leaving QEMU's CPU loop: 30 virtual seconds of
 * DHCP wait took tens of real minutes, and the card never got an address;
 * a halt lets virtual time pass as real time (or jump ahead, sleep=off).
 * Stall stays the way when the timer cannot be had (TPL above
 * TPL_APPLICATION, no event). */
static void net_step(struct net_clock *c)
{
    static EFI_EVENT tick;
    UINTN which;
    if (!tick && BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &tick) != EFI_SUCCESS)
        tick = NULL;
    if (!tick || BS->SetTimer(tick, TimerRelative, NET_STEP_US * 10) != EFI_SUCCESS ||
        BS->WaitForEvent(1, &tick, &which) != EFI_SUCCESS)
        BS->Stall(NET_STEP_US);
    c->steps++;
}

/* ---- the card --------------------------------------------------------------- */

static EFI_GUID net_tcp4_sb = EFI_TCP4_SERVICE_BINDING_PROTOCOL;
static EFI_GUID net_tcp4 = EFI_TCP4_PROTOCOL;
static EFI_GUID net_http_sb = NET_HTTP_SB_GUID;
static EFI_GUID net_tls_sb = NET_TLS_SB_GUID;
static EFI_GUID net_cfg2_guid = NET_IP4_CONFIG2_GUID;

static EFI_HANDLE net_nic;
static EFI_SERVICE_BINDING *net_sb;

static UINTN net_handles(EFI_GUID *g, EFI_HANDLE **out)
{
    UINTN count = 0;
    *out = NULL;
    if (BS->LocateHandleBuffer(ByProtocol, g, NULL, &count, out) != EFI_SUCCESS)
        return 0;
    return count;
}

static UINTN net_count(EFI_GUID *g)
{
    EFI_HANDLE *h;
    UINTN n = net_handles(g, &h);
    if (h)
        FreePool(h);
    return n;
}

/* Connect every PCI network controller recursively; how many were. */
static unsigned net_connect_cards(void)
{
    EFI_HANDLE *h;
    UINTN n = net_handles(&PciIoProtocol, &h);
    unsigned done = 0;
    for (UINTN i = 0; i < n; i++) {
        EFI_PCI_IO *pci = fw_handle_protocol(h[i], &PciIoProtocol);
        UINT32 class_rev = 0;
        if (!pci || pci->Pci.Read(pci, EfiPciIoWidthUint32, 8, 1, &class_rev) != EFI_SUCCESS)
            continue;
        if ((class_rev >> 24) != 0x02)
            continue;
        if (BS->ConnectController(h[i], NULL, NULL, TRUE) == EFI_SUCCESS)
            done++;
    }
    if (h)
        FreePool(h);
    return done;
}

static int net_address(NET_IP4_CONFIG2 *cfg, uint8_t ip[4])
{
    UINT8 buf[1024];
    UINTN size = sizeof buf;
    NET_IP4_CONFIG2_INTERFACE_INFO *info = (void *)buf;
    if (cfg->GetData(cfg, NET_CFG2_INTERFACE_INFO, &size, buf) != EFI_SUCCESS)
        return 0;
    memcpy(ip, info->StationAddress.Addr, 4);
    return ip[0] || ip[1] || ip[2] || ip[3];
}

int net_up(char *why, size_t n)
{
    unsigned connected = 0;
    if (!net_count(&net_tcp4_sb)) {
        connected = net_connect_cards();
        if (connected)
            out_printf("network: connected %u network controller%s the firmware had left unconnected\n",
                       connected, connected == 1 ? "" : "s");
    }
    EFI_HANDLE *h;
    UINTN tcp = net_handles(&net_tcp4_sb, &h);
    UINTN http = net_count(&net_http_sb), tls = net_count(&net_tls_sb);
    if (!tcp) {
        out_show("network: none (no TCP4 service on any network card%s)\n",
                   connected ? "" : "; no network controller found");
        snprintf(why, n, "the firmware offers no TCP/IPv4 stack on any network card");
        return -1;
    }
    out_printf("network: %s; TLS %s\n",
               http ? "HTTP protocol present (and TCP4)" : "TCP4 only (no HTTP protocol)",
               tls ? "present" : "absent");
    /* The first card that has or gets an address. */
    struct net_clock c;
    uint8_t ip[4];
    NET_IP4_CONFIG2 *cfgs[8];
    UINTN cards = tcp < 8 ? tcp : 8, asked = 0;
    for (UINTN i = 0; i < cards; i++) {
        cfgs[i] = fw_handle_protocol(h[i], &net_cfg2_guid);
        if (cfgs[i] && net_address(cfgs[i], ip)) {
            net_nic = h[i];
            break;
        }
    }
    if (!net_nic) {
        for (UINTN i = 0; i < cards; i++) {
            UINT32 policy = NET_POLICY_STATIC;
            UINTN size = sizeof policy;
            if (!cfgs[i])
                continue;
            if (cfgs[i]->GetData(cfgs[i], NET_CFG2_POLICY, &size, &policy) == EFI_SUCCESS &&
                policy == NET_POLICY_DHCP) {
                /* DHCP already, but no address: start it again */
                policy = NET_POLICY_STATIC;
                cfgs[i]->SetData(cfgs[i], NET_CFG2_POLICY, sizeof policy, &policy);
            }
            policy = NET_POLICY_DHCP;
            if (cfgs[i]->SetData(cfgs[i], NET_CFG2_POLICY, sizeof policy, &policy) == EFI_SUCCESS)
                asked++;
        }
        net_clock_start(&c);
        while (!net_nic && asked && net_clock_ms(&c) < NET_DHCP_SECONDS * 1000ull) {
            net_step(&c);
            for (UINTN i = 0; i < cards && !net_nic; i++)
                if (cfgs[i] && net_address(cfgs[i], ip))
                    net_nic = h[i];
        }
        if (net_nic)
            out_printf("network: address %u.%u.%u.%u from DHCP after %llu ms\n", ip[0], ip[1], ip[2], ip[3],
                       (unsigned long long)net_clock_ms(&c));
    } else {
        out_printf("network: address %u.%u.%u.%u (configured already)\n", ip[0], ip[1], ip[2], ip[3]);
    }
    FreePool(h);
    if (!net_nic) {
        snprintf(why, n, asked ? "no address from DHCP within %d s" : "the card's IPv4 configuration "
                 "could not be set to DHCP", NET_DHCP_SECONDS);
        return -1;
    }
    net_sb = fw_handle_protocol(net_nic, &net_tcp4_sb);
    if (!net_sb) {
        snprintf(why, n, "the TCP4 service went away");
        return -1;
    }
    return 0;
}

int net_tls_available(void)
{
    return net_count(&net_tls_sb) > 0;
}

EFI_HANDLE net_card(void)
{
    return net_nic;
}

void net_down(void)
{
    net_nic = NULL;
    net_sb = NULL;
}

/* ---- a token's wait (TCP4 here, the HTTP protocol in net_http.c) ---------- */

static VOID EFIAPI net_done(EFI_EVENT ev, VOID *ctx)
{
    (void)ev;
    *(volatile int *)ctx = 1;
}

void net_token_close(struct net_token *t)
{
    if (t->ev)
        BS->CloseEvent(t->ev);
    t->ev = NULL;
}

EFI_STATUS net_token_new(struct net_token *t)
{
    net_token_close(t);
    t->done = 0;
    return BS->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, net_done, (VOID *)&t->done, &t->ev);
}

int net_token_wait(struct net_token *t, void (*poll)(void *), void *proto, uint64_t ms)
{
    struct net_clock c;
    net_clock_start(&c);
    while (!t->done && net_clock_ms(&c) < ms) {
        poll(proto);
        if (!t->done)
            net_step(&c);
    }
    if (t->done)
        net_token_close(t);
    return t->done;
}

const char *net_status_text(EFI_STATUS s)
{
    static char buf[40];
    if (s == EFI_CONNECTION_REFUSED)
        return "connection refused";
    if (s == EFI_CONNECTION_RESET)
        return "connection reset";
    if (s == EFI_CONNECTION_FIN)
        return "connection closed by the server";
    if (s == EFI_TIMEOUT)
        return "EFI_TIMEOUT";
    if (s == EFI_NO_MAPPING)
        return "EFI_NO_MAPPING: no IPv4 address";
    if (s == NET_HTTP_ERROR)
        return "EFI_HTTP_ERROR";
    if (strcmp(fw_status_name(s), "EFI error"))
        return fw_status_name(s);
    snprintf(buf, sizeof buf, "EFI status %s%llu", (s >> 63) ? "error " : "",
             (unsigned long long)(s & ~(1ull << 63)));
    return buf;
}

/* ---- one exchange ---------------------------------------------------------------- */

/* One request at a time is outstanding, and its token, data and event
 * live here, not on the stack: a token given up after a timeout is only
 * completed (by the firmware, which writes its status) when the instance is
 * reset, after the function that issued it has returned. */
static struct net_token net_w;
static EFI_TCP4_CONNECTION_TOKEN net_ct;
static EFI_TCP4_IO_TOKEN net_tok;
static EFI_TCP4_TRANSMIT_DATA net_tx;
static EFI_TCP4_RECEIVE_DATA net_rx;
static EFI_TCP4_CLOSE_TOKEN net_close;

static void net_tcp_poll(void *tcp)
{
    ((EFI_TCP4 *)tcp)->Poll(tcp);
}

static int net_send(EFI_TCP4 *tcp, const void *data, size_t len, char *why, size_t n)
{
    const uint8_t *p = data;
    while (len) {
        size_t part = len < 65536 ? len : 65536;
        memset(&net_tx, 0, sizeof net_tx);
        memset(&net_tok, 0, sizeof net_tok);
        if (net_token_new(&net_w) != EFI_SUCCESS) {
            snprintf(why, n, "no event for sending");
            return -1;
        }
        net_tx.Push = TRUE;
        net_tx.DataLength = (UINT32)part;
        net_tx.FragmentCount = 1;
        net_tx.FragmentTable[0].FragmentLength = (UINT32)part;
        net_tx.FragmentTable[0].FragmentBuffer = (void *)p;
        net_tok.CompletionToken.Event = net_w.ev;
        net_tok.Packet.TxData = &net_tx;
        EFI_STATUS s = tcp->Transmit(tcp, &net_tok);
        if (s != EFI_SUCCESS)
            net_token_close(&net_w);
        int ok = s == EFI_SUCCESS && net_token_wait(&net_w, net_tcp_poll, tcp, NET_IO_SECONDS * 1000ull);
        if (s != EFI_SUCCESS || !ok || net_tok.CompletionToken.Status != EFI_SUCCESS) {
            snprintf(why, n, "sending failed (%s)", s != EFI_SUCCESS ? net_status_text(s)
                     : !ok ? "timed out" : net_status_text(net_tok.CompletionToken.Status));
            return -1;
        }
        p += part;
        len -= part;
    }
    return 0;
}

/* Read until the answer is complete (upload_answer_complete), the server
 * closes, or time runs out. */
static int net_receive(EFI_TCP4 *tcp, char *answer, size_t size, size_t *got,
                       int (*complete)(const char *, size_t), char *why, size_t n)
{
    struct net_clock c;
    net_clock_start(&c);
    *got = 0;
    while (*got + 1 < size && !complete(answer, *got)) {
        uint64_t left = NET_IO_SECONDS * 1000ull;
        uint64_t spent = net_clock_ms(&c);
        if (spent >= left) {
            snprintf(why, n, "no complete answer within %d s", NET_IO_SECONDS);
            return -1;
        }
        memset(&net_rx, 0, sizeof net_rx);
        memset(&net_tok, 0, sizeof net_tok);
        if (net_token_new(&net_w) != EFI_SUCCESS) {
            snprintf(why, n, "no event for receiving");
            return -1;
        }
        net_rx.DataLength = (UINT32)(size - 1 - *got);
        net_rx.FragmentCount = 1;
        net_rx.FragmentTable[0].FragmentLength = net_rx.DataLength;
        net_rx.FragmentTable[0].FragmentBuffer = answer + *got;
        net_tok.CompletionToken.Event = net_w.ev;
        net_tok.Packet.RxData = &net_rx;
        EFI_STATUS s = tcp->Receive(tcp, &net_tok);
        if (s != EFI_SUCCESS)
            net_token_close(&net_w);
        int ok = s == EFI_SUCCESS && net_token_wait(&net_w, net_tcp_poll, tcp, left - spent);
        if (s == EFI_CONNECTION_FIN || (ok && net_tok.CompletionToken.Status == EFI_CONNECTION_FIN))
            break;                      /* the server closed: what came is the answer */
        if (s != EFI_SUCCESS || !ok || net_tok.CompletionToken.Status != EFI_SUCCESS) {
            snprintf(why, n, "receiving failed (%s)", s != EFI_SUCCESS ? net_status_text(s)
                     : !ok ? "timed out" : net_status_text(net_tok.CompletionToken.Status));
            return -1;
        }
        *got += net_rx.DataLength;
    }
    answer[*got] = 0;
    return 0;
}



int net_exchange(const uint8_t ip[4], uint16_t port, const void *head, size_t head_len,
                 const void *body, size_t body_len, char *answer, size_t size, size_t *got,
                 char *why, size_t n)
{
    EFI_HANDLE child = NULL;
    EFI_TCP4 *tcp = NULL;
    EFI_STATUS s;
    int rc = -1;
    *got = 0;
    if (!net_sb) {
        snprintf(why, n, "the network is not up");
        return -1;
    }
    s = net_sb->CreateChild(net_sb, &child);
    if (s == EFI_SUCCESS)
        tcp = fw_handle_protocol(child, &net_tcp4);
    if (!tcp) {
        snprintf(why, n, "no TCP4 instance (%s)", fw_status_name(s));
        if (child)
            net_sb->DestroyChild(net_sb, child);
        return -1;
    }
    EFI_TCP4_CONFIG_DATA cd;
    memset(&cd, 0, sizeof cd);
    cd.TimeToLive = 64;
    cd.AccessPoint.UseDefaultAddress = TRUE;
    memcpy(cd.AccessPoint.RemoteAddress.Addr, ip, 4);
    cd.AccessPoint.RemotePort = port;
    cd.AccessPoint.ActiveFlag = TRUE;
    struct net_clock c;
    net_clock_start(&c);
    while ((s = tcp->Configure(tcp, &cd)) == EFI_NO_MAPPING && net_clock_ms(&c) < 3000)
        net_step(&c);
    if (s != EFI_SUCCESS) {
        snprintf(why, n, "TCP configuration failed (%s)", fw_status_name(s));
        goto out;
    }
    memset(&net_ct, 0, sizeof net_ct);
    if (net_token_new(&net_w) != EFI_SUCCESS) {
        snprintf(why, n, "no event for connecting");
        goto reset;
    }
    net_ct.CompletionToken.Event = net_w.ev;
    s = tcp->Connect(tcp, &net_ct);
    if (s != EFI_SUCCESS)
        net_token_close(&net_w);
    int ok = s == EFI_SUCCESS && net_token_wait(&net_w, net_tcp_poll, tcp, NET_CONNECT_SECONDS * 1000ull);
    if (s != EFI_SUCCESS || !ok || net_ct.CompletionToken.Status != EFI_SUCCESS) {
        if (s == EFI_SUCCESS && !ok)
            snprintf(why, n, "TCP connect timed out after %d s", NET_CONNECT_SECONDS);
        else
            snprintf(why, n, "TCP connect failed: %s",
                     net_status_text(s != EFI_SUCCESS ? s : net_ct.CompletionToken.Status));
        goto reset;
    }
    if (net_send(tcp, head, head_len, why, n) || (body_len && net_send(tcp, body, body_len, why, n)))
        goto reset;
    if (net_receive(tcp, answer, size, got, upload_answer_complete, why, n))
        goto reset;
    rc = 0;
    /* A graceful close, briefly; the reset below ends it either way. */
    memset(&net_close, 0, sizeof net_close);
    if (net_token_new(&net_w) == EFI_SUCCESS) {
        net_close.CompletionToken.Event = net_w.ev;
        if (tcp->Close(tcp, &net_close) == EFI_SUCCESS)
            net_token_wait(&net_w, net_tcp_poll, tcp, 1000);
        else
            net_token_close(&net_w);
    }
reset:
    tcp->Configure(tcp, NULL);          /* aborts what is still outstanding */
    net_token_close(&net_w);
out:
    net_sb->DestroyChild(net_sb, child);
    return rc;
}
