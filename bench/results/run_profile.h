/*
 * bench/results/run_profile.h - the profile a results document's run used,
 * read the same way by every reader (the run summary, `show`, `history`,
 * `fleet`, the report).  docs/results-schema.md, top level: the image
 * decides the profile once, before the sections (bench/config/config.h,
 * config_profile_settle), and writes it once, as the top-level "profile":
 * "quick" or "full".
 *
 * Files of older images lack that member; each section then carried its
 * own copy.  Only the one a committed fixture still needs is read as a
 * fallback (methods.profile: tests/fixtures/run-guess.json); a file with
 * neither states no profile (never settings.profile, the one asked for,
 * which may be "auto").
 */
#ifndef BAREMARK_RUN_PROFILE_H
#define BAREMARK_RUN_PROFILE_H

#include <stddef.h>

#include "json_read.h"

/* The members that may say the profile, dotted paths in the order they
 * are tried; NULL-terminated.  The first is today's; the other is only in
 * files of older images. */
extern const char *const run_profile_members[];

/* The document's profile into out (jval_str: cut to cap - 1 bytes; "" when
 * no member says one): 1 when found. */
int run_profile_read_jr(struct jval doc, char *out, size_t cap);

#endif
