#include "clbench/core/row.h"

#include <string.h>

static const char *const benchmark_names[CLB_BENCH_COUNT] = {
    [CLB_BENCH_GEMM] = "gemm",         [CLB_BENCH_PEAK] = "peak",
    [CLB_BENCH_BANDWIDTH] = "bandwidth", [CLB_BENCH_TRANSFER] = "transfer",
    [CLB_BENCH_LATENCY] = "latency",   [CLB_BENCH_COLLECTIVE] = "collective",
};

const char *clb_benchmark_name(enum clb_benchmark b)
{
    return (unsigned)b < CLB_BENCH_COUNT ? benchmark_names[b] : NULL;
}

enum clb_benchmark clb_benchmark_from_name(const char *name)
{
    for (unsigned b = CLB_BENCH_GEMM; name && b < CLB_BENCH_COUNT; b++)
        if (!strcmp(benchmark_names[b], name))
            return (enum clb_benchmark)b;
    return CLB_BENCH_OTHER;
}
