/*
 * boot/net.h - the firmware's IPv4 network stack for the results upload
 * (boot/upload.c): bring a network card up (connect it when the firmware
 * left it unconnected, DHCP through EFI_IP4_CONFIG2), then one HTTP
 * exchange over EFI_TCP4 at a time.  Every wait is bounded.
 */
#ifndef BAREMARK_NET_H
#define BAREMARK_NET_H

#include <stddef.h>
#include <stdint.h>
#include <efi.h>

#define NET_DHCP_SECONDS    30         /* an address from DHCP */
#define NET_CONNECT_SECONDS 5          /* the TCP handshake */
#define NET_IO_SECONDS      15         /* sending a request, then its whole answer */

/* What the firmware offers, printed as one "network:" line, and a card
 * with an IPv4 address.  0, or -1 with the reason in `why`. */
int net_up(char *why, size_t n);

/* One exchange: connect to ip:port, send head then body, read the answer
 * (up to `size` bytes, until it is complete or the server closes).  0 with
 * *got bytes in `answer`, or -1 with the reason in `why` ("TCP connect
 * timed out after 5 s", "connection refused"...). */
int net_exchange(const uint8_t ip[4], uint16_t port, const void *head, size_t head_len,
                 const void *body, size_t body_len, char *answer, size_t size, size_t *got,
                 char *why, size_t n);

/* The card net_up chose (NULL before). */
EFI_HANDLE net_card(void);

/* The firmware has an EFI_TLS_SERVICE_BINDING (its HTTP protocol can do https). */
int net_tls_available(void);

/* The card has an EFI_HTTP_SERVICE_BINDING (the firmware's HTTP protocol). */
int net_http_available(void);

/* One POST through the firmware's EFI_HTTP_PROTOCOL (boot/net_http.c):
 * url in full ("http://A.B.C.D:P/api/runs"), nhdr {name, value} headers,
 * the body.  0 with the status code in *status (0: a code the protocol
 * does not name, such as 422) and *got bytes of the answer's body in
 * `answer`; -1 with the reason in `why`; NET_HTTP_REFUSED when the
 * protocol could not be used at all and nothing was sent (the caller may
 * go by TCP4 instead). */
#define NET_HTTP_REFUSED (-2)
int net_http_post(const char *url, const char *const (*hdr)[2], size_t nhdr, const void *body, size_t len,
                  int *status, char *answer, size_t size, size_t *got, char *why, size_t n);

/* The TSC's rate: the clock section's, else estimated once against the
 * firmware's Stall (*estimated then 1). */
uint64_t net_tsc_hz(int *estimated);

/* A completion token's event, shared by the TCP4 and HTTP paths: new
 * (done = 0, event created), wait (poll the protocol, at most `ms`; 1
 * when the firmware completed it, and the event is closed then; a token
 * given up stays open until the instance is reset), close. */
struct net_token { EFI_EVENT ev; volatile int done; };
EFI_STATUS net_token_new(struct net_token *t);
int net_token_wait(struct net_token *t, void (*poll)(void *), void *proto, uint64_t ms);
void net_token_close(struct net_token *t);

#define NET_HTTP_ERROR EFIERR(35)      /* EFI_HTTP_ERROR: an answer with an error status */
/* A network status as a reader knows it ("connection refused"), else its name or number. */
const char *net_status_text(EFI_STATUS s);

/* Release what net_up took (nothing stays configured but the card's policy). */
void net_down(void);

#endif
