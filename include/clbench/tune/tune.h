#ifndef CLBENCH_TUNE_TUNE_H
#define CLBENCH_TUNE_TUNE_H

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
 * below tries what their tuning part (struct clb_gemm_tuning) offers.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/cl/device.h"
#include "clbench/backends/backend.h"
#include "clbench/bench/gemm_run.h"

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

/* ---- The search (src/tune/search.c) ---- */

/* A candidate is stored only when it beats the built-in choice by this factor. */
#define CLB_TUNE_MIN_GAIN 1.03

struct clb_tune_options {
    double budget_s;           /* wall time for the whole search on one device */
    uint64_t size;             /* M = N = K of the problem tuned on */
    enum clb_precision precision;
    /* The backends to search, NULL-terminated (the registry, from the caller): those with a
     * tuning part are searched; borrowed. */
    const struct clb_gemm_backend *const *backends;
    /* Search only this one of them (it has a tuning part); NULL: every one that has. */
    const struct clb_gemm_backend *only;
    unsigned runs;             /* timed calls per candidate */
    bool store;                /* write improvements to the cache as they are found */
    bool progress;             /* a line per candidate on stderr */
};

struct clb_tune_trial {
    const struct clb_gemm_backend *backend;
    const char *kernel;        /* its tuning part's kernel: "Xgemm", "clbench-gemm" */
    struct clb_tune_params params; /* n == 0: the library's built-in choice */
    enum clb_row_status status;
    char reason[256];
    double gflops;             /* verified figure from the median call */
    double seconds;            /* the trial's wall time, compile included */
};

/* What the search found for one tunable backend. */
struct clb_tune_outcome {
    const struct clb_gemm_backend *backend;
    double default_gflops;     /* its first (built-in) candidate's; 0: not measured */
    double best_gflops;
    size_t best;               /* trial index of the best, SIZE_MAX when none */
    bool stored;
};

struct clb_tune_result {
    const struct clb_device *device;
    struct clb_tune_trial *trials; /* owned, in the order they ran */
    size_t n_trials, cap;
    /* Owned: one per registered backend with a tuning part, in registry order, searched or not. */
    struct clb_tune_outcome *outcomes;
    size_t n_outcomes;
    bool interrupted;
};

/*
 * Searches the parameters of every backend with a tuning part (or
 * opt->only) on one device: each one's built-in choice first, then
 * known-good shapes, then random valid ones, until the budget runs out.
 * Every candidate's result is verified; a failed one is never kept.
 * Improvements are stored as found, so an interrupted search keeps its
 * best. -1 only when the problem cannot be set up.
 */
int clb_tune_device(const struct clb_device *dev, const struct clb_tune_options *opt,
                    struct clb_tune_result *out, struct clb_error *e);
void clb_tune_result_finish(struct clb_tune_result *r);

#endif
