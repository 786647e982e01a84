/*
 * bench/results/run_profile.c - the profile a results document's run used
 * (run_profile.h).
 */
#include "run_profile.h"

const char *const run_profile_members[] = {
    "profile",                  /* decided once, written once: every current file */
    "methods.profile",          /* older images' methods copy: tests/fixtures/run-guess.json
                                   and test_truth_fixtures.sh's document still have it */
    NULL,
};

int run_profile_read_jr(struct jval doc, char *out, size_t cap)
{
    for (size_t i = 0; run_profile_members[i]; i++)
        if (jval_str(jval_path(doc, run_profile_members[i]), out, cap))
            return 1;
    return 0;
}
