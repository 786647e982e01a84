/*
 * tools/host/history/history_serve_opts.h - the key file, the --listen address and
 * the TLS files of `baremark history serve` (history_serve_opts.c).
 */
#ifndef BAREMARK_HISTORY_SERVE_OPTS_H
#define BAREMARK_HISTORY_SERVE_OPTS_H

#include <stddef.h>
#include <sys/socket.h>

#define HS_KEY_MAX 128      /* the key's characters, at most */

/* The key file's line (1-HS_KEY_MAX printable ASCII characters; a final
 * newline is not part of it) into key; 0, or 2 with one line on stderr. */
int hs_read_key(const char *path, unsigned char *key, size_t *keylen);
/* --tls-cert / --tls-key: a PEM file, whole, as a malloc'd string; NULL
 * with one line on stderr naming the option and the file. */
char *hs_read_pem(const char *opt, const char *path);
/* ADDR:PORT or [ADDR6]:PORT into ss (*v6 set for IPv6); 0 or -1. */
int hs_listen_addr(const char *spec, struct sockaddr_storage *ss, int *v6);

#endif
