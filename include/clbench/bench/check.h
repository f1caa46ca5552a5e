#ifndef CLBENCH_BENCH_CHECK_H
#define CLBENCH_BENCH_CHECK_H

#include <stdbool.h>

#include "clbench/cl/device.h"

/* What `clbench devices --check` found for one device. */
struct clb_check_result {
    bool ok;
    double seconds;         /* wall time for context, build, run and read-back */
    struct clb_error error; /* why, when !ok */
};

/*
 * Builds kernels/check.cl on dev, runs it on `n` elements and compares every
 * output with the host's exact result. Never fails itself: the outcome is in
 * *out.
 */
void clb_device_check(const struct clb_device *dev, unsigned n, struct clb_check_result *out);

#endif
