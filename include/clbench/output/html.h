#ifndef CLBENCH_OUTPUT_HTML_H
#define CLBENCH_OUTPUT_HTML_H

/*
 * `clbench report`: one self-contained HTML page (inline CSS and SVG, no
 * script, nothing fetched) from one or more result files: GFLOP/s against
 * square size per device and backend, the other shapes (a model's layer from
 * --shapes, --mnk) as bars per shape on a chart of their own, speedup over
 * the CPU baseline, the runs, the devices and every result. Labels and
 * legends wrap to fit their SVG (src/output/report/svg.c).
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
 *
 * "Datasheet vs measured": for each device of each file (a fleet file's
 * first rank) with a verified row that carries a datasheet figure, one bar
 * chart of its headline figures (a peak's best width per precision, the
 * triad per precision, the fastest GEMM row per precision), each as a
 * percentage of the figure it is held against: a vendor's datasheet, or for
 * a CPU the peak derived from its cores, FMA units and measured clock
 * ("derived peak"). Absent when no row has one.
 *
 * "Bandwidth by array size": for each device (a fleet file's first rank) and
 * precision of each file with triad rows of at least two sizes from
 * `bandwidth --sizes` (cases "fp32 triad 8 MiB"; rows without a size are no
 * sweep's), GB/s against bytes per array (log scale), a line per kernel, and
 * where the caches stop helping (results/sweep.h) as a dashed marker
 * between the last cached size and the next, with the finding under the chart
 * in the words `bandwidth` prints under its table.
 *
 * "Estimates for MODEL": for a `gemm`/`run --shapes MODEL` file, the speed
 * estimates the command computed (struct clb_html_estimates), as `fit
 * --from` prints them, with their inputs and formulas.
 */
#include <stddef.h>
#include <stdio.h>

#include "clbench/output/fit.h"
#include "clbench/results/resultfile.h"

/*
 * One file's estimates (the command fills it; the writer only reads):
 * fit.request, fit.estimate (memory), fit.speeds (clb_file_speed_estimates),
 * fit.measured_shapes (options.shapes) and fit.from (the file). A file that
 * is no --shapes run has fit.measured_shapes NULL: nothing is written. One
 * that is but gets no table (a mixture of experts, a model this build does
 * not know, no figures to estimate from) has fit.n_speeds 0 and `none`, the
 * reason, printed in its place.
 */
struct clb_html_estimates {
    struct clb_fit_request request; /* what fit.request points to */
    struct clb_fit_report fit;
    char none[512];
};

/*
 * estimates: n_files entries, one per file in order, or NULL for none.
 * Returns 0, or -1 when writing failed.
 */
int clb_html_report(FILE *out, struct clb_result_file *const *files, size_t n_files,
                    const struct clb_html_estimates *estimates);

#endif
