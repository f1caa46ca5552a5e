#ifndef CLBENCH_OUTPUT_GEMM_H
#define CLBENCH_OUTPUT_GEMM_H

/*
 * GEMM results (`clbench gemm`, `run`): table with a summary, result document, CSV. Writers
 * only read.
 */
#include <stdbool.h>
#include <stdio.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/cli/cli.h"
#include "clbench/output/result.h"

struct clb_micro_results;

struct clb_gemm_report {
    const struct clb_run_meta *meta;
    const struct clb_micro_results *micro; /* peak/bandwidth rows measured alongside, or NULL */
    bool show_micro;                       /* table: print them before the GEMM table */
    const struct clb_gemm_results *results;
    const struct clb_gemm_options *options;
    struct clb_device *const *devices; /* the selected devices */
    size_t n_devices;
    const char *shapes;                /* --shapes MODEL's name, or NULL */
    uint64_t context, batch;           /* with shapes: its prefill and decode tokens */
    /* With shapes: --price/--prices (clbench/results/prices.h), the estimates' costs; NULL: none. */
    const struct clb_prices *prices;
};

/*
 * GEMM results: a table with a summary (table), one JSON document with
 * the libraries, host, devices and every row's raw figures (json), or one
 * line per row (csv). Returns 0, or -1 when writing failed.
 */
int clb_gemm_write(FILE *out, enum clb_format fmt, const struct clb_gemm_report *r);

#endif
