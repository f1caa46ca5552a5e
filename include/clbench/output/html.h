#ifndef CLBENCH_OUTPUT_HTML_H
#define CLBENCH_OUTPUT_HTML_H

/*
 * `clbench report`: one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched) from one or more result files: GFLOP/s against
 * size per device and backend, speedup over the CPU baseline, the runs, the
 * devices and every result.
 *
 * A fleet file (clb_result_file.fleet) adds a Fleet section: per figure (the
 * rows of every rank with one benchmark, case, backend, precision, device,
 * metric and config) a bar per rank ("host r<rank>"), its median line, its
 * stragglers red and marked "straggler", a rank without a verified figure
 * named by its status instead of drawn, and a caption with sum (higher-is-
 * better metrics only), min, median, max and the threshold. Charts go to the
 * figures with a straggler or such a rank, then to the headline ones (a GEMM
 * backend's largest size per precision and device, a peak's best width, any
 * other benchmark's figure), at most 24; a table lists every figure. Its line
 * chart draws the fleet median, its speedup bars are per rank, its roofline is
 * the first rank's, and the results table gains host, rank and the row's
 * distance from its fleet median.
 */
#include <stdio.h>

#include "clbench/results/resultfile.h"

/* Returns 0, or -1 when writing failed. */
int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files);

#endif
