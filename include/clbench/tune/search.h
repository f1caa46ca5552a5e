#ifndef CLBENCH_TUNE_SEARCH_H
#define CLBENCH_TUNE_SEARCH_H

/*
 * `clbench tune`'s search: for one device, precision and size, the
 * candidates every backend's tuning part offers, each verified and timed.
 * A backend's best goes to the cache (tune/cache.h) only when it beats the
 * built-in choice by CLB_TUNE_MIN_GAIN in the search and again when both
 * are measured once more, one after the other, in the same process. It
 * knows no backend by name.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/backends/backend.h"
#include "clbench/cl/device.h"
#include "clbench/core/types.h"
#include "clbench/tune/cache.h"

/* A candidate is stored only when it beats the built-in choice by this factor. */
#define CLB_TUNE_MIN_GAIN 1.03

struct clb_tune_options {
    double budget_s;           /* wall time for this search: one device, precision, size */
    uint64_t size;             /* M = N = K of the problem tuned on */
    enum clb_precision precision;
    /* The backends to search, NULL-terminated (the registry, from the caller): those with a
     * tuning part are searched; borrowed. */
    const struct clb_gemm_backend *const *backends;
    /* Search only this one of them (it has a tuning part); NULL: every one that has. */
    const struct clb_gemm_backend *only;
    unsigned runs;             /* timed calls per candidate */
    bool store;                /* write each size's confirmed winner to the cache */
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
    size_t n_trials;           /* candidates it ran */
    double seconds;            /* their wall time, confirmation included */
    /* The confirmation: best and built-in measured again (0: not run). */
    double confirm_best_gflops, confirm_default_gflops;
    bool builtin_won;          /* others ran, none beat the built-in choice by the margin */
    bool stored;               /* an entry was written: the best's parameters, or none when
                                * builtin_won (the built-in choice stays at this size) */
    char note[256];            /* what it skipped or why nothing was stored, else "" */
};

struct clb_tune_result {
    const struct clb_device *device;
    enum clb_precision precision;
    uint64_t size;
    struct clb_tune_trial *trials; /* owned, in the order they ran */
    size_t n_trials, cap;
    /* Owned: one per registered backend with a tuning part, in registry order, searched or not. */
    struct clb_tune_outcome *outcomes;
    size_t n_outcomes;
    bool interrupted;
    double budget_s;           /* the time this search was given (opt->budget_s), seconds */
    double setup_s;            /* of it, what setting up took before the first candidate
                                * (context, inputs, reference), on clb_now_s's clock */
};

/*
 * Searches the parameters of every backend with a tuning part (or
 * opt->only) on one device: each one's built-in choice first, then
 * known-good shapes, then random valid ones, until the budget runs out.
 * Every candidate's result is verified; a failed one is never kept. The
 * best is measured again beside the built-in choice and stored only when it
 * still wins by CLB_TUNE_MIN_GAIN; else, when other candidates ran, that the
 * built-in choice won is stored for this size. An interrupted search stores
 * nothing. -1 only when the problem cannot be set up.
 */
int clb_tune_device(const struct clb_device *dev, const struct clb_tune_options *opt,
                    struct clb_tune_result *out, struct clb_error *e);
void clb_tune_result_finish(struct clb_tune_result *r);

#endif
