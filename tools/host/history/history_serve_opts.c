/*
 * tools/host/history/history_serve_opts.c - what `baremark history serve` reads
 * before it starts: the lab's key file and the --listen address.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "history_serve_opts.h"

int hs_read_key(const char *path, unsigned char *key, size_t *keylen)
{
    FILE *f = fopen(path, "rb");
    char buf[HS_KEY_MAX + 4];
    if (!f) {
        fprintf(stderr, "baremark history serve: --key-file %s: %s\n", path, strerror(errno));
        return 2;
    }
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
        n--;
    if (n == 0 || n > HS_KEY_MAX) {
        fprintf(stderr, "baremark history serve: --key-file %s: the key must be 1 to %d characters (it has %s)\n",
                path, HS_KEY_MAX, n ? "more" : "none");
        return 2;
    }
    for (size_t i = 0; i < n; i++)
        if (buf[i] < 0x20 || buf[i] > 0x7e) {
            fprintf(stderr, "baremark history serve: --key-file %s: the key must be printable ASCII (character %zu "
                    "is not)\n", path, i + 1);
            return 2;
        }
    memcpy(key, buf, n);
    *keylen = n;
    return 0;
}

/* ADDR:PORT (or [ADDR6]:PORT) into a socket address. */
int hs_listen_addr(const char *spec, struct sockaddr_storage *ss, int *v6)
{
    char host[128];
    const char *colon = strrchr(spec, ':');
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof host)
        return -1;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || port < 0 || port > 65535)
        return -1;
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    memset(ss, 0, sizeof *ss);
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;
        host[strlen(host) - 1] = 0;
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        *v6 = 1;
        return inet_pton(AF_INET6, host + 1, &a->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *a = (struct sockaddr_in *)ss;
    a->sin_family = AF_INET;
    a->sin_port = htons((uint16_t)port);
    *v6 = 0;
    return inet_pton(AF_INET, host, &a->sin_addr) == 1 ? 0 : -1;
}

/* A PEM file, whole, as a string (NULL with a line on stderr). */
char *hs_read_pem(const char *opt, const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0;
    if (f) {
        buf = malloc(1 << 20);
        n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
        fclose(f);
    }
    if (buf)
        buf[n] = 0;
    if (!buf || !n || !strstr(buf, "-----BEGIN ")) {
        fprintf(stderr, "baremark history serve: %s %s: %s\n", opt, path,
                !f ? strerror(errno) : "not a PEM file (no -----BEGIN line)");
        free(buf);
        return NULL;
    }
    return buf;
}
