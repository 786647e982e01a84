/*
 * bench/methods/fields_methods.h - words the methods member's fields share
 * with the comparisons' (bench/methods/fields_methods.c,
 * bench/compare/fields_compare.c).
 */
#ifndef BAREMARK_FIELDS_METHODS_H
#define BAREMARK_FIELDS_METHODS_H

/* bench/methods/methods.c methods_status_name() */
#define METHODS_STATUSES "ok|bad_input|calibration_overhead|benchmark_overhead|too_short|inconclusive|" \
                         "unsupported|fault|no_memory"

#endif
