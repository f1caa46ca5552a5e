#ifndef CLBENCH_BENCH_STATS_H
#define CLBENCH_BENCH_STATS_H

#include <stddef.h>

/* Summary of repeated timings (any unit; the samples' own). */
struct clb_stats {
    size_t n;
    double median, min, max, mean;
    double cv; /* coefficient of variation: sample stddev / mean (0 for n < 2) */
};

/* Summarises samples[0..n) (not modified). All zero when n == 0. */
void clb_stats_compute(const double *samples, size_t n, struct clb_stats *out);

#endif
