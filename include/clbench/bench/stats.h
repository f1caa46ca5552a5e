#ifndef CLBENCH_BENCH_STATS_H
#define CLBENCH_BENCH_STATS_H

#include <stddef.h>

#include "clbench/core/row.h" /* struct clb_stats */


/* Summarises samples[0..n) (not modified). All zero when n == 0. */
void clb_stats_compute(const double *samples, size_t n, struct clb_stats *out);

#endif
