#ifndef CLBENCH_TUNE_CACHE_H
#define CLBENCH_TUNE_CACHE_H

/*
 * Tuned GEMM kernel parameters, kept per device in a cache file:
 * $CLBENCH_TUNING_FILE, else $XDG_CACHE_HOME/clbench/tuning.json, else
 * ~/.cache/clbench/tuning.json. An entry applies only to the device (name
 * and driver version), CLBlast version and clbench version it was found
 * with; anything else in the file, or a file that cannot be read as one, is
 * ignored with a one-line warning on stderr and never applied.
 *
 * Backends know nothing of this file: the GEMM runner looks their entry up
 * and hands it to their create (struct clb_gemm_backend), and the search
 * search (tune/search.h) tries what their tuning part (struct clb_gemm_tuning)
 * offers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/cl/device.h"
#include "clbench/core/types.h"
#include "clbench/util/error.h"

/* The cache file's path into buf; -1 when no home folder is known. */
int clb_tuning_path(char *buf, size_t len);

/*
 * The stored parameters of `kernel` (a tuning part's kernel: "Xgemm",
 * "clbench-gemm") in `precision` for dev: true and *out (and *gflops, may be
 * NULL) filled, or false.
 */
bool clb_tuning_lookup(const struct clb_device *dev, const char *kernel, const char *precision,
                       struct clb_tune_params *out, double *gflops);

/* The same lookup in a cache given as text (for fuzzing the reader). */
bool clb_tuning_lookup_text(const char *text, size_t len, const struct clb_device *dev,
                            const char *kernel, const char *precision,
                            struct clb_tune_params *out);

/* Adds or replaces one entry, writing the file atomically. -1 with e set on failure. */
int clb_tuning_store(const struct clb_device *dev, const char *kernel, const char *precision,
                     const struct clb_tune_params *p, double gflops, uint64_t size,
                     struct clb_error *e);

#endif
