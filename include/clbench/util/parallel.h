#ifndef CLBENCH_UTIL_PARALLEL_H
#define CLBENCH_UTIL_PARALLEL_H

/* A parallel for over the CPUs this process may run on (src/util/parallel.c). */
#include <stdint.h>

/* One range [begin, end) of a job's outputs; ctx is the job's. */
typedef void (*clb_range_fn)(void *ctx, uint64_t begin, uint64_t end);

/*
 * Splits [0, n) into ranges run on up to one thread per available CPU
 * (clb_cpu_count_available, at most 256), each calling fn(ctx, begin, end),
 * and returns when all have run. Small jobs (n * cost, cost being about the
 * operations one output takes, below 2^22) and ranges whose thread cannot
 * start run on the caller. There are no locks: every output must be written
 * by the one range that owns it.
 */
void clb_parallel_for(uint64_t n, uint64_t cost, clb_range_fn fn, void *ctx);

#endif
