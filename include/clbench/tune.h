#ifndef CLBENCH_TUNE_H
#define CLBENCH_TUNE_H

/*
 * Tuned GEMM kernel parameters, kept per device in a cache file:
 * $CLBENCH_TUNING_FILE, else $XDG_CACHE_HOME/clbench/tuning.json, else
 * ~/.cache/clbench/tuning.json. An entry applies only to the device (name
 * and driver version), CLBlast version and clbench version it was found
 * with; anything else in the file, or a file that cannot be read as one, is
 * ignored with a one-line warning on stderr and never applied.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/device.h"

enum { CLB_TUNE_MAX_PARAMS = 20 };

struct clb_tune_params {
    size_t n;
    char name[CLB_TUNE_MAX_PARAMS][16];
    size_t value[CLB_TUNE_MAX_PARAMS];
};

/* The value of parameter `name`, or `fallback`. */
size_t clb_tune_get(const struct clb_tune_params *p, const char *name, size_t fallback);
void clb_tune_set(struct clb_tune_params *p, const char *name, size_t value);

/* The cache file's path into buf; -1 when no home folder is known. */
int clb_tuning_path(char *buf, size_t len);

/*
 * The stored parameters of `kernel` ("Xgemm", "clbench-gemm") in `precision`
 * for dev: true and *out (and *gflops, may be NULL) filled, or false.
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
#include "clbench/gemm.h"
#include "clbench/gemm_run.h"

/* A candidate is stored only when it beats the built-in choice by this factor. */
#define CLB_TUNE_MIN_GAIN 1.03

struct clb_tune_options {
    double budget_s;           /* wall time for the whole search on one device */
    uint64_t size;             /* M = N = K of the problem tuned on */
    enum clb_precision precision;
    bool clblast, own;         /* what to tune */
    unsigned runs;             /* timed calls per candidate */
    bool store;                /* write improvements to the cache as they are found */
    bool progress;             /* a line per candidate on stderr */
};

struct clb_tune_trial {
    const char *kernel;        /* "Xgemm" or CLB_OWN_GEMM_KERNEL */
    struct clb_tune_params params; /* n == 0: the library's built-in choice */
    enum clb_row_status status;
    char reason[256];
    double gflops;             /* verified figure from the median call */
    double seconds;            /* the trial's wall time, compile included */
};

struct clb_tune_result {
    const struct clb_device *device;
    struct clb_tune_trial *trials;
    size_t n_trials, cap;
    double default_gflops[2];  /* [0] CLBlast built-in, [1] clbench defaults; 0: not measured */
    double best_gflops[2];
    size_t best[2];            /* trial index of the best, SIZE_MAX when none */
    bool stored[2];
    bool interrupted;
};

/*
 * Searches CLBlast's Xgemm and clbench's kernel parameters on one device:
 * the built-in choices first, then known-good shapes, then random valid
 * ones, until the budget runs out. Every candidate's result is verified; a
 * failed one is never kept. Improvements are stored as found, so an
 * interrupted search keeps its best. -1 only when the problem cannot be set up.
 */
int clb_tune_device(const struct clb_device *dev, const struct clb_tune_options *opt,
                    struct clb_tune_result *out, struct clb_error *e);
void clb_tune_result_finish(struct clb_tune_result *r);

/* Whether a CLBlast Xgemm parameter set obeys the kernel's constraints on dev. */
bool clb_xgemm_params_valid(const struct clb_device *dev, enum clb_precision p,
                            const struct clb_tune_params *params);

#endif
