#ifndef CLBENCH_BACKENDS_CLBENCH_GEMM_H
#define CLBENCH_BACKENDS_CLBENCH_GEMM_H

/*
 * clbench's own GEMM backend (src/backends/clbench_gemm.c, kernels/gemm.cl)
 * beyond the backend interface: which program a set of its parameters
 * builds, so that the code generated for a device can be checked without
 * one (tests/source/gemm_gpu_configs.c: the defaults and every tune
 * candidate its tuning part offers for a described device).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/core/types.h"

/*
 * For `params` (a candidate of clb_backend_clbench's tuning part, or what
 * the tuning cache stores) in precision p: the name of the GEMM kernel
 * function the backend runs, into kernel (kernel_len bytes), and exactly the
 * options it passes to clBuildProgram, into options (options_len bytes;
 * 192 always suffice). False, with both left empty, when the parameters
 * name no variant (VARIANT other than 0 or 2); whether they are valid on a
 * device is the tuning part's valid().
 */
bool clb_clbench_gemm_program(const struct clb_tune_params *params, enum clb_precision p,
                              char *kernel, size_t kernel_len, char *options,
                              size_t options_len);

#endif
