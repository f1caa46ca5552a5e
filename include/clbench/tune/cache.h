#ifndef CLBENCH_TUNE_CACHE_H
#define CLBENCH_TUNE_CACHE_H

/*
 * Tuned GEMM kernel parameters, kept per device, precision and size class in
 * a cache file: $CLBENCH_TUNING_FILE, else
 * $XDG_CACHE_HOME/clbench/tuning.json, else ~/.cache/clbench/tuning.json.
 * An entry applies only to the device (name and driver version), CLBlast
 * version and clbench version it was found with, and only to problems
 * within a factor of 2 of the size it was tuned at (the nearest such entry
 * wins) and of the shape class it was tuned on (clb_tune_shape_class: tune
 * measures square NN row-major problems, so a tall, wide or skinny problem,
 * transposes or column-major storage get the built-in choice and a note
 * saying why); anything else in the file, or a file that cannot be read as one, is
 * ignored with a one-line warning on stderr and never applied.
 *
 * Backends know nothing of this file: the GEMM runner looks their entry up
 * and hands it to their create (struct clb_gemm_backend), and the search
 * (tune/search.h) tries what their tuning part (struct clb_gemm_tuning)
 * offers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/cl/device.h"
#include "clbench/core/types.h"
#include "clbench/util/error.h"

/* An entry applies to problems whose size is within this factor of its own. */
#define CLB_TUNE_SIZE_REACH 2.0

/*
 * The shape class of a problem: its aspect, "square" when its largest
 * dimension is within CLB_TUNE_SIZE_REACH of its smallest (else
 * "non-square"), then its transposes and layout: "square NN row",
 * "non-square TN col". mode NULL: NN, row-major. Into buf (32 bytes suffice).
 */
struct clb_gemm_mode;
void clb_tune_shape_class(struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          char *buf, size_t len);
/* The class of every problem tune measures (its entries' "class"; an entry without one). */
#define CLB_TUNE_CLASS "square NN row"

/* The cache file's path into buf; -1 when no home folder is known. */
int clb_tuning_path(char *buf, size_t len);

/*
 * The stored parameters of `kernel` (a tuning part's kernel: "Xgemm",
 * "clbench-gemm") in `precision` for dev that apply to `shape` in `mode`
 * (NULL: NN, row-major): entries of its shape class only. True with *out
 * filled and match->size the size they were tuned at; else false, with
 * match->note saying why when this device has entries that do not reach
 * the shape, are of another shape class, or the nearest says the built-in
 * choice won.
 */
bool clb_tuning_lookup(const struct clb_device *dev, const char *kernel, enum clb_precision precision,
                       struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                       struct clb_tune_params *out, struct clb_tune_match *match);

/* The same lookup in a cache given as text (for fuzzing the reader). */
bool clb_tuning_lookup_text(const char *text, size_t len, const struct clb_device *dev,
                            const char *kernel, enum clb_precision precision,
                            struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                            struct clb_tune_params *out, struct clb_tune_match *match);

/*
 * Adds or replaces the entry of (dev, kernel, precision, size), of class
 * CLB_TUNE_CLASS (the problems tune measures): parameters
 * p that ran at `gflops` where the built-in choice ran at `default_gflops`.
 * No parameters (p->n == 0) record that the built-in choice won at that
 * size: a lookup whose nearest entry is such one finds nothing to apply
 * (and says so in its note), rather than a farther size's parameters.
 * Writes the file atomically; -1 with e set on failure.
 */
int clb_tuning_store(const struct clb_device *dev, const char *kernel, enum clb_precision precision,
                     uint64_t size, const struct clb_tune_params *p, double gflops,
                     double default_gflops, struct clb_error *e);

#endif
