#ifndef CLBENCH_VERIFY_H
#define CLBENCH_VERIFY_H

/*
 * Checking a GEMM result against a reference computed in higher precision.
 *
 * Reference: exact-input products accumulated in long double (naive loops,
 * independent of any BLAS) for every entry when m*n*k <= CLB_VERIFY_FULL_MNK;
 * above that, fp32/fp16 inputs get a full reference from OpenBLAS's DGEMM on
 * the exactly widened inputs, and fp64 gets CLB_VERIFY_SAMPLES random entries
 * recomputed in long double.
 *
 * Error measures, with R the reference and S the entries' scale
 * S_ij = |alpha| sum_k |a_ik b_kj| + |beta| |c0_ij| (what the rounding errors
 * are proportional to, whatever cancellation R itself has):
 *   max abs error  max_ij |C_ij - R_ij|
 *   relative error ||C - R||_F / ||S||_F
 * Tolerances, with u the precision's unit roundoff and K the inner dimension:
 *   max abs error  <= 4 u K |alpha| max|A| max|B| + 4 u |beta| max|C0|
 *   relative error <= 8 u
 * A length-K sum of rounded terms drifts like u K times the entries' size
 * (a random walk over partial sums of size ~sqrt(K)), which puts the largest
 * of millions of entries near 1.3 u K and the normwise error near u: the
 * tolerances leave a margin of 3x and 8x for any summation order, and are
 * far below what a wrong tile, a lower precision or a missed edge produces.
 * A result passes when both hold and every entry is finite.
 */
#include <stdbool.h>
#include <stdint.h>

#include "clbench/gemm.h"

enum { CLB_VERIFY_SAMPLES = 2048 };
#define CLB_VERIFY_FULL_MNK (UINT64_C(1) << 27)

struct clb_verify_result {
    bool passed;
    double max_abs_err, rel_err; /* over the checked entries (see above) */
    double tol_abs, tol_rel;
    uint64_t checked; /* entries compared */
    bool full;        /* every entry, else a random sample */
};

struct clb_gemm_reference;

/* Computes the reference for data (may take seconds at large sizes). NULL on OOM. */
struct clb_gemm_reference *clb_gemm_reference_create(const struct clb_gemm_data *data,
                                                     uint64_t seed, struct clb_error *e);
void clb_gemm_reference_destroy(struct clb_gemm_reference *ref);

/* Host bytes clb_gemm_reference_create will hold at its peak for this problem. */
uint64_t clb_gemm_reference_bytes(struct clb_gemm_shape s, enum clb_precision p);

/* Compares c (m*n elements in data's precision) with the reference. */
void clb_gemm_verify(const struct clb_gemm_reference *ref, const void *c,
                     struct clb_verify_result *out);

#endif
