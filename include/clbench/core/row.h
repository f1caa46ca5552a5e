#ifndef CLBENCH_CORE_ROW_H
#define CLBENCH_CORE_ROW_H

/*
 * What a measured figure is, as every room names it: the benchmark that
 * measured it (with enum clb_precision of clbench/core/types.h, the number
 * type). Names appear only as the result document writes them
 * (docs/result-schema.md); rooms compare the enums, and the file reader
 * (clbench/results/resultfile.h) turns a document's names into them.
 */
#include "clbench/core/types.h"

enum clb_benchmark {
    CLB_BENCH_OTHER,      /* read from a file: a name this build does not know */
    CLB_BENCH_GEMM,
    CLB_BENCH_PEAK,
    CLB_BENCH_BANDWIDTH,
    CLB_BENCH_TRANSFER,
    CLB_BENCH_LATENCY,
    CLB_BENCH_COLLECTIVE,
    CLB_BENCH_COUNT
};

/* "gemm", "peak", ...; NULL for OTHER. */
const char *clb_benchmark_name(enum clb_benchmark b);
/* The benchmark called name; CLB_BENCH_OTHER for NULL or a name not in the table. */
enum clb_benchmark clb_benchmark_from_name(const char *name);

#endif
