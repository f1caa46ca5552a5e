#ifndef CLBENCH_OUTPUT_MICRO_H
#define CLBENCH_OUTPUT_MICRO_H

/* Peak, bandwidth, transfer and latency rows: table, result document, CSV. Writers only read. */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "clbench/bench/micro.h"
#include "clbench/cli/cli.h"
#include "clbench/output/result.h"

struct clb_micro_report {
    const struct clb_run_meta *meta;
    const struct clb_micro_results *results;
    struct clb_device *const *devices;
    size_t n_devices;
    unsigned runs;
    bool verbose; /* peak: every vector width, not only the best */
    bool host_time; /* bandwidth: a column of the host-clock figures beside the device's */
    bool collective; /* the rows are MPI collectives (clbench collective): their own table */
};

/* Peak, bandwidth, transfer and latency rows: table, result document, or CSV. */
int clb_micro_write(FILE *out, enum clb_format fmt, const struct clb_micro_report *r);
/* The rows as result-document entries, appended to `results` (for `clbench run`). */
int clb_micro_rows_json(const struct clb_micro_results *res, json_t *results);
/* The table alone (no libraries or notes), for `clbench run`. */
int clb_micro_write_table(FILE *out, const struct clb_micro_results *res, bool verbose);

#endif
