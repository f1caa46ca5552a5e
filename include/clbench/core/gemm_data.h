#ifndef CLBENCH_CORE_GEMM_DATA_H
#define CLBENCH_CORE_GEMM_DATA_H

/* The inputs of one GEMM problem, made once on the host and shared by every backend. */
#include <stddef.h>
#include <stdint.h>

#include "clbench/core/types.h"
#include "clbench/util/error.h"

/* Host copies of one problem's inputs, made once and shared by every backend. */
struct clb_gemm_data {
    struct clb_gemm_shape shape;
    enum clb_precision precision;
    double alpha, beta;
    void *a, *b, *c0; /* owned; c0 is C before the call */
};

/*
 * Fills A, B and C0 with values uniform in [-1, 1] from `seed` (never zeros),
 * rounded to the precision. NULL with e set when host memory runs out.
 */
struct clb_gemm_data *clb_gemm_data_create(struct clb_gemm_shape shape, enum clb_precision p,
                                           double alpha, double beta, uint64_t seed,
                                           struct clb_error *e);
void clb_gemm_data_destroy(struct clb_gemm_data *d);

/* Element i of a matrix in precision p, as a double (exact). */
double clb_gemm_load(enum clb_precision p, const void *m, size_t i);

#endif
