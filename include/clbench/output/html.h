#ifndef CLBENCH_OUTPUT_HTML_H
#define CLBENCH_OUTPUT_HTML_H

/*
 * `clbench report`: one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched) from one or more result files: GFLOP/s against
 * size per device and backend, speedup over the CPU baseline, the runs, the
 * devices and every result.
 */
#include <stdio.h>

#include "clbench/results/resultfile.h"

/* Returns 0, or -1 when writing failed. */
int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files);

#endif
