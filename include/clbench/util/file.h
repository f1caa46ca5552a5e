#ifndef CLBENCH_UTIL_FILE_H
#define CLBENCH_UTIL_FILE_H

#include <stdio.h>

#include "clbench/util/error.h"

/*
 * Writes through a temporary file in the same folder, renamed over `path`
 * only when `write` succeeded: a failed run never leaves half a file where a
 * good one was. The file gets the mode a plain fopen would give it.
 * Returns 0, or -1 with e naming the file.
 */
int clb_write_file_atomic(const char *path, int (*write)(FILE *out, const void *ctx),
                          const void *ctx, struct clb_error *e);

#endif
