#ifndef CLBENCH_RESULTS_ROOFLINE_H
#define CLBENCH_RESULTS_ROOFLINE_H

/*
 * A device's roofline from a result file: the measured peak of each precision
 * as the flat roof (its fastest verified call, the statistic every limit
 * takes; the headline in files that lack it), the measured triad bandwidth as
 * the slope (performance = intensity x bandwidth), and each GEMM result at
 * its arithmetic intensity: 2mnk FLOP over the (m*k + k*n + 2*m*n) elements a
 * cache-perfect GEMM must move.
 */
#include <stddef.h>

#include "clbench/results/resultfile.h"

enum { CLB_ROOF_PRECISIONS = 3 };
/* The roofs' precisions, in the order of clb_roofline.peak: fp32, fp64, fp16. */
extern const enum clb_precision clb_roof_precision[CLB_ROOF_PRECISIONS];

struct clb_roof_point {
    const struct clb_row *row; /* a verified GEMM row (borrowed) */
    double intensity;                 /* FLOP/byte */
    int precision;                    /* index into clb_roof_precision (fp32 for others) */
};

struct clb_roofline {
    double peak[CLB_ROOF_PRECISIONS]; /* GFLOP/s, 0: not measured */
    double bandwidth;                 /* the triad's GB/s */
    struct clb_roof_point *points;    /* owned (clb_roofline_finish) */
    size_t n_points;
};

/*
 * device's roofline from of_rank's rank (in a single run's file, any row).
 * Returns 1 with r filled when it has a bandwidth and a peak, 0 when not (r
 * empty), -1 out of memory.
 */
int clb_roofline_of(const struct clb_result_file *f, const char *device,
                    const struct clb_row *of_rank, struct clb_roofline *r);
void clb_roofline_finish(struct clb_roofline *r);

#endif
