/*
 * tools/host/history/history_serve.h - `baremark history serve`: the lab's results
 * server (docs/results-server.md).  Runs arrive signed (HMAC-SHA256 of the
 * body with the lab's key) and go into the history exactly as `history
 * add` stores a file; the history's pages and a JSON API are served beside.
 *
 *   history_serve.c        the HTTP server (libmicrohttpd), uploads, refusals,
 *                          the deadline watchdog
 *   history_serve_pages.c  GET: the machines page, the history page, the API;
 *                          the answers' JSON
 *   history_serve_opts.c   the key file, the --listen address
 */
#ifndef BAREMARK_HISTORY_SERVE_H
#define BAREMARK_HISTORY_SERVE_H

int history_serve_main(int argc, char **argv);

#endif
