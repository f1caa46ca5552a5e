#ifndef CLBENCH_COMMANDS_GEMM_CONFIG_H
#define CLBENCH_COMMANDS_GEMM_CONFIG_H

/*
 * The config of `gemm` and `run` (commands/gemm.c, their hooks): its option
 * table, each option's default in it, and the checks of what it says that
 * need no device.
 */
#include <stdbool.h>
#include <stdint.h>

#include "clbench/cli/cli.h"
#include "clbench/cli/gemm_args.h"
#include "shapes.h"

/* What the options say; the strings are borrowed from argv. */
struct gemm_config {
    struct clb_common common;
    struct clb_shape_list sizes;
    struct clb_shape_list mnk;
    struct clb_precision_list precisions;
    struct clb_backend_list backends;
    unsigned runs, warmup, threads;
    double min_time_s, max_time_s, alpha, beta;
    uint64_t seed;
    struct clb_gemm_mode mode;         /* --trans, --layout, --ld, --offset */
    enum clb_code_path code_path;      /* --code-path */
    bool transfers;
    bool no_peak;
    bool untuned;
    const char *output;
    const char *blas_core;
    struct clb_shapes shapes;          /* --shapes, --context, --batch, --price, --prices */
};

/* The option table of both commands (config: struct gemm_config). */
extern const struct clb_option clb_gemm_options[];

/*
 * Checks cfg without a device and completes it: the sizes (--shapes', --mnk,
 * or the default), --untuned's rows beside the tuned ones. 0, or a usage
 * error printed on one line and 2.
 */
int clb_gemm_config_validate(struct gemm_config *cfg);

#endif
