#ifndef CLBENCH_BENCH_VERIFY_H
#define CLBENCH_BENCH_VERIFY_H

/*
 * Checking a GEMM result C = alpha*op(A)*op(B) + beta*C0, every entry, at
 * every size, against a reference computed in higher precision.
 *
 * In any mode but the default (clbench/core/gemm_data.h: transposes,
 * column-major storage, padded leading dimensions, offsets) the reference
 * reads op(A), op(B) and C0 through their layouts into dense copies, and each
 * result's C is read through its layout the same way; every element of C's
 * buffer outside the matrix (the offset, the padding of each line) must also
 * be as C0 had it, bit for bit, or the result fails ("C's padding changed:
 * element 40 of its buffer, after row 2").
 *
 * Two methods, chosen by size (clb_gemm_verify_method):
 *
 * The reference's arithmetic: long double with compensated sums where it is x87's
 * 64-bit extended format (x86-64, in hardware), else compensated double (aarch64, whose
 * long double is binary128 in software): error-free transformations with fma, each sum
 * with its own bound (clbench/util/csum.h). CLB_VERIFY_COMPENSATED_DOUBLE=1 or 0 at build
 * time overrides the choice (the unit tests build both on x86-64).
 *
 * full       the reference R_ij of every entry: products of the exact inputs
 *            summed in the reference's arithmetic (naive loops, independent of any BLAS)
 *            while m*n*k <= CLB_VERIFY_NAIVE_MNK; above that, for fp32 and
 *            fp16 (whose inputs and products are exact in double) OpenBLAS's
 *            DGEMM on the widened inputs while m*n*k <= CLB_VERIFY_DGEMM_MNK
 *            (in a build with OpenBLAS; without it, Freivalds above the naive limit).
 * freivalds  everywhere else: CLB_VERIFY_VECTORS random vectors x (n) and as
 *            many y (m), with entries +-(1 + t/16);
 *            the row residuals r = C x - (alpha A (B x) + beta C0 x) and the
 *            column residuals t = y'C - (alpha (y'A) B + beta y'C0), in
 *            the reference's arithmetic, so the reference's own error
 *            is bounded and negligible. Every entry of C enters each vector's
 *            row and column residuals with a weight of at least 1 in
 *            magnitude: O(mn + mk + kn) per vector, in passes that each
 *            stream one matrix once, spread over every available CPU.
 *
 * Tolerances come from the rounding the result must contain, computed from
 * the actual data, with u the precision's unit roundoff and K = k:
 *   rigorous, per entry:  |E_ij| <= gamma_(K+3) (|alpha| S_ij + |beta| |c0_ij|) + N_u l
 *                         with S_ij = sum_k |a_ik b_kj|, gamma_n = n u/(1 - n u)
 *   modelled variance:    v_ij = u^2/3 (alpha^2 (K+3)/2 P_ij + 3 R_ij^2
 *                                        + 3 beta^2 c0_ij^2) + N_u2 l^2/3,
 *                         P_ij = sum_k (a_ik b_kj)^2
 * where l is the smallest normal number (2^-14, 2^-126, 2^-1022): near zero
 * an operation may err by that much more, subnormals flushed to zero (OpenCL
 * allows it for fp16 and fp32), over N_u = |alpha| (K+1) + 1 operations
 * for alpha's part and 1 for beta's, where they are not 0 (N_u2 likewise
 * with alpha^2).
 * v_ij is the variance of the error of a sequential sum of zero-mean terms
 * in round-to-nearest (each of the K additions errs by up to u times its
 * partial sum, uniformly; the partial sums' squares add up to about
 * (K+1)/2 P_ij), plus the product, alpha/beta and store roundings: an upper
 * estimate for any usual summation order (blocked, pairwise, split-K sums
 * have smaller partial sums). Checks, with E = C - R:
 *   full:       per entry |E_ij| <= min(rigorous, 30 sqrt(v_ij));
 *               per row (n >= 16 entries) and per column (m >= 16) and over
 *               all entries: sum E^2 <= tau(N) sum v,
 *               tau(N) = max(1.5 + 10/sqrt(N), 400/N)
 *   freivalds:  per row and vector |r_i| <= 10 sqrt(w_i) + e_i, w_i = sum_j v_ij x_j^2
 *               and e_i the reference's bounded error; over all rows and vectors
 *               sum (|r_i| - e_i)+^2 <= tau(4m) sum w_i; the same for columns.
 * One entry per row that is off by more than the row's noise, one zeroed
 * tile, a dropped k-term (fp16 at K = 1024 too), a lower precision, a
 * missed edge: each fails. A correct result's noise ratio (below) is about
 * 0.2 to 0.8. Everything assumes round-to-nearest, which OpenCL's full
 * profile requires for fp32 and fp64 and every GPU vendor uses for fp16.
 */
#include <stdbool.h>
#include <stdint.h>

#include "clbench/backends/backend.h"
#include "clbench/core/row.h"

/* Full reference up to these sizes (m*n*k); see above. */
#define CLB_VERIFY_NAIVE_MNK (UINT64_C(1) << 27)
#define CLB_VERIFY_DGEMM_MNK (UINT64_C(1) << 36)
/* Random vectors per direction in Freivalds' check. */
enum { CLB_VERIFY_VECTORS = 4 };



const char *clb_verify_method_name(enum clb_verify_method m); /* "full", "freivalds" */
enum clb_verify_method clb_gemm_verify_method(struct clb_gemm_shape s, enum clb_precision p);


struct clb_gemm_reference;

/*
 * Computes what verifying data's result needs (seconds at large sizes):
 * the full reference and per-entry tolerances, or Freivalds' vectors. `seed`
 * draws the random vectors. NULL with e set when host memory runs out.
 * `data` is borrowed and must outlive the reference.
 */
struct clb_gemm_reference *clb_gemm_reference_create(const struct clb_gemm_data *data,
                                                     uint64_t seed, struct clb_error *e);
void clb_gemm_reference_destroy(struct clb_gemm_reference *ref);

/* Where the reference comes from; AUTO is what clb_gemm_reference_create uses. */
enum clb_verify_source {
    CLB_VERIFY_SOURCE_AUTO,
    CLB_VERIFY_SOURCE_NAIVE,     /* full, loops in the reference's arithmetic */
    CLB_VERIFY_SOURCE_DGEMM,     /* full, DGEMM on widened inputs (fp32 and fp16 only;
                                    naive in a build without OpenBLAS) */
    CLB_VERIFY_SOURCE_FREIVALDS,
};

/* The same with the source forced, so tests can reach every method at small sizes. */
struct clb_gemm_reference *clb_gemm_reference_create_from(const struct clb_gemm_data *data,
                                                          uint64_t seed,
                                                          enum clb_verify_source source,
                                                          struct clb_error *e);

/* Host bytes clb_gemm_reference_create holds at its peak for this problem (mode NULL: default). */
uint64_t clb_gemm_reference_bytes(struct clb_gemm_shape s, enum clb_precision p,
                                  const struct clb_gemm_mode *mode);

/*
 * Checks c (C's whole buffer as data's mode lays it out: data->lc.elems
 * elements in its precision; in the default mode m*n, row-major) against the
 * reference.
 */
void clb_gemm_verify(const struct clb_gemm_reference *ref, const void *c,
                     struct clb_verify_result *out);

#endif
