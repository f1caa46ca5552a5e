#ifndef CLBENCH_BENCH_GEMM_RUN_H
#define CLBENCH_BENCH_GEMM_RUN_H

/*
 * The GEMM benchmark: every (precision, shape, backend, device) combination
 * measured the same way, into plain result rows that writers print.
 *
 * For each row: the inputs are made once per (precision, shape); the backend
 * allocates and uploads (untimed); the first call is timed on its own (it
 * includes kernel compilation) and its result verified; `warmup` untimed
 * calls follow; then at least `runs` timed calls, more until `min_time_s` of
 * measured time has passed. Each call is timed with a monotonic host clock
 * around the call and its completion (clFinish). With beta = 0 the result of
 * the last timed call is verified too. With `transfers`, `runs` more calls
 * are timed end to end: upload A, B, C + GEMM + download C.
 *
 * Every row of a run has the options' mode (transposes, layout, padding,
 * offsets: clbench/core/gemm_data.h); every backend is handed the buffers as
 * the mode lays them out, and each result is verified through the layout,
 * C's padding and offset included (clbench/bench/verify.h).
 */
#include <stdbool.h>
#include <stdint.h>

#include "clbench/backends/backend.h"
#include "clbench/bench/stats.h"
#include "clbench/bench/verify.h"
#include "clbench/core/row.h"
#include "clbench/core/types.h"


struct clb_gemm_options {
    const struct clb_gemm_shape *shapes;
    size_t n_shapes;
    const struct clb_shape_role *roles; /* per shape, or NULL: plain sizes */
    const enum clb_precision *precisions;
    size_t n_precisions;
    const struct clb_gemm_backend *const *backends;
    /* Per backend (may be NULL: none): run it untuned, its tuning part's built-in choice. */
    const bool *untuned;
    size_t n_backends;
    unsigned runs;      /* >= 1 */
    unsigned warmup;
    double min_time_s;  /* 0: exactly `runs` */
    double max_time_s;  /* 0: no limit; else rows not started by then are skipped */
    unsigned threads;   /* host backends; 0: all cores */
    bool transfers;
    uint64_t seed;
    double alpha, beta;
    struct clb_gemm_mode mode; /* how A, B and C lie in memory; all zero: the default */
    enum clb_code_path code_path; /* handed to the backends (clb_gemm_data.code_path) */
    bool progress;      /* "[3/12] gemm fp32 ..." lines on stderr */
    /*
     * Fleet runs: called before every step, whether or not this process has a
     * row there: each (precision, shape, backend, device slot), device
     * backends having max(device_slots, n_devices) slots, host backends one;
     * false ends the run as a signal does. NULL: only this process's signals.
     */
    bool (*step)(void *ctx);
    void *step_ctx;
    size_t device_slots;
    /*
     * Where stored tuned parameters come from (the command wires the tuning
     * cache here): true and *out filled when `kernel` (a tuning part's cache
     * name) has parameters for dev in precision p that apply to `shape` in `mode`;
     * *match says which size class, or why none applies. NULL: none, every
     * backend runs its defaults.
     */
    bool (*stored_params)(const struct clb_device *dev, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match);
};


/* Whether a row holds measured figures (OK or FAILED). */
bool clb_gemm_row_measured(const struct clb_row *row);

struct clb_gemm_results {
    struct clb_row *rows;
    size_t n_rows;
    const struct clb_gemm_backend *baseline; /* the host backend speedups are against */
    unsigned host_threads;
    /* Why the baseline runs slower than this CPU can (its handicap hook), "" when it does
     * not; handicap_level: the instruction-set level its kernels use. */
    char baseline_handicap[256];
    enum clb_cpu_level handicap_level;
    bool interrupted; /* a signal stopped the run: rows not started are absent */
};

/* The host backend speedups are against: the first of opt's backends that is not on a
 * device; NULL when there is none. */
const struct clb_gemm_backend *clb_gemm_baseline(const struct clb_gemm_options *opt);

/*
 * Runs every combination on `devices` (for device backends) and the host.
 * Faults are recorded per row and the run goes on; returns -1 only when
 * host memory for the results themselves runs out. After clb_interrupted()
 * it finishes the call in flight and returns what it measured so far.
 */
int clb_gemm_run(const struct clb_gemm_options *opt, struct clb_device *const *devices,
                 size_t n_devices, struct clb_gemm_results *out, struct clb_error *e);
void clb_gemm_results_finish(struct clb_gemm_results *r);


#endif
