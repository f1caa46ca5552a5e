#ifndef CLBENCH_UTIL_ERROR_H
#define CLBENCH_UTIL_ERROR_H

#include <stddef.h>

/*
 * A one-line reason carried up from where a failure happened to where it is
 * reported (a table cell, a JSON field, stderr). Functions that can fail take
 * a `struct clb_error *` (never NULL) and fill it before returning non-zero.
 */
struct clb_error {
    char msg[512];
};

/* Process exit codes shared by every command. */
enum clb_exit {
    CLB_EXIT_OK = 0,
    CLB_EXIT_FAILURE = 1, /* a runtime fault or a failed verification */
    CLB_EXIT_USAGE = 2,   /* bad command line or bad input file */
};

void clb_error_set(struct clb_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prepends "PREFIX: " to the message already in e. */
void clb_error_prefix(struct clb_error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
