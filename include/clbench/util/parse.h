#ifndef CLBENCH_UTIL_PARSE_H
#define CLBENCH_UTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

#include "clbench/util/error.h"

/*
 * Strict number parsing for options and files: the whole string must be a
 * decimal number in [min, max]; no sign, spaces, empty string or trailing text.
 */
int clb_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out,
                  struct clb_error *e);
/* A size in bytes: "4096", "64K", "256M", "1G" (binary: K = 1024), > 0. */
int clb_parse_bytes(const char *s, uint64_t *out, struct clb_error *e);
/* A finite decimal number in [min, max]. */
int clb_parse_double(const char *s, double min, double max, double *out, struct clb_error *e);

/* Whether needle is a substring of hay, ignoring ASCII case (an empty needle: yes; NULL hay: no). */
bool clb_contains_nocase(const char *hay, const char *needle);

#endif
