#ifndef CLBENCH_BENCH_LATENCY_H
#define CLBENCH_BENCH_LATENCY_H

/*
 * Launch latency with kernels/latency.cl: an empty kernel's round trip and its
 * enqueue-to-start time (src/bench/latency.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"

/*
 * Measures one device in `env` and appends its rows; faults land in rows.
 * Needs a queue with CL_QUEUE_PROFILING_ENABLE for its enqueue-to-start figure.
 */
int clb_latency_run(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_micro_options *opt, struct clb_micro_results *out);

#endif
