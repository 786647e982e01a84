/*
 * boot/upload.h - the run's results sent home (boot/upload.c,
 * docs/results-upload.md): at the end of the run, after the summary and
 * the files, every run on the results volume that \baremark\uploaded.txt
 * does not list (this one, and any earlier one the server never
 * acknowledged) goes to RESULTS, signed with RESULTS_KEY.
 */
#ifndef BAREMARK_UPLOAD_H
#define BAREMARK_UPLOAD_H

/* Nothing when url is empty.  Never stops the run: one line per problem. */
/* via: BM_VIA_*; ca: RESULTS_CA, a PEM file on the boot volume ("" none) */
void upload_runs(const char *url, const char *key, int via, const char *ca);

#endif
