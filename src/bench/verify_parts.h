#ifndef CLBENCH_BENCH_VERIFY_PARTS_H
#define CLBENCH_BENCH_VERIFY_PARTS_H

/*
 * Private to src/bench/verify*.c: the reference every part reads, and what
 * each part offers the others.
 *   verify.c            the method, the reference's creation and its bytes
 *   verify_reference.c  the reference's products: full (naive, DGEMM), Freivalds' vectors
 *   verify_tolerance.c  the tolerance model: what a correct result's error may reach
 *   verify_check.c      the comparisons of a result against the reference
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clbench/bench/verify.h"
#include "verify_arith.h"

/* Thresholds in units of the modelled noise (see verify.h). */
#define LAMBDA_ENTRY 30.0
#define LAMBDA_RESIDUAL 10.0
enum { MIN_AGGREGATE = 16 };
/* Random vectors per direction: a rank-1 error (a dropped k-term) shows in the
 * residuals in proportion to its projection on them; with four, all four
 * projections are small together with a probability near 1e-3, and the row
 * and column directions are independent chances. */
enum { V = CLB_VERIFY_VECTORS };

struct clb_gemm_reference {
    /* The problem as the checks below see it: op(A), op(B) and C0 dense and row-major (the
     * default mode). It is the caller's data in the default mode; in any other, `logical`,
     * gathered from the caller's buffers (`stored`) through their layouts. */
    const struct clb_gemm_data *data;
    const struct clb_gemm_data *stored;
    struct clb_gemm_data *logical; /* owned; NULL in the default mode */
    void *c_dense;                 /* m*n: verify's scratch for C read through its layout */
    enum clb_verify_method method;
    double u2_3; /* u^2 / 3: the variance of one rounding, per unit of |x|^2 */

    /* full */
    double *ref;            /* m*n: R */
    double *tol;            /* m*n: per-entry tolerance */
    double *var;            /* m*n: modelled variance v_ij (alpha and beta may scale it far from 1) */
    double *row_var, *col_var;
    double total_var, ref_norm2;
    double *col_err2;       /* n: scratch for verify */

    /* freivalds: V vectors per direction, vector v's entries at [v * length + i] */
    double *x, *y;          /* V*n and V*m random weights */
    double x2[V], y2[V];    /* sum of each vector's squared weights */
    wide *zx, *zy;          /* V*m: alpha A (B x) + beta C0 x;  V*n: alpha (y'A) B + beta y'C0 */
    double *ex, *ey;        /* their error bounds */
    double *wx, *wy;        /* modelled residual variance, but for the result's own rounding */
    /* verify's scratch, V*m rows then V*n columns: residual, its reference error bound,
     * modelled variance, reference value; and per row the first non-finite column or -1 */
    double *res, *res_err, *res_var, *res_ref;
    int64_t *bad_col;
};

/* The layout's entries (i, j) of op(X), rows x cols, from `src` into dst, dense and
 * row-major; es bytes an element. */
void clb_vf_gather(const void *src, const struct clb_gemm_matrix_layout *l, uint64_t rows,
                   uint64_t cols, size_t es, void *dst);

/* The tolerance model (verify_tolerance.c; verify.h gives the formulas). */
double clb_vf_tau(double n);
double clb_vf_underflow_unit(enum clb_precision p);
double clb_vf_underflow_ops(const struct clb_gemm_data *d, bool squared);
double clb_vf_gamma_n(double n, double u);
void clb_vf_entry_tolerance(const struct clb_gemm_reference *r, double ref, double s, double p,
                            double c0, double ref_err, double *tol, double *var);

/* The reference's products into r (r->data, r->u2_3 and r->method set): 0, or -1 when out
 * of host memory (what was allocated is r's, for clb_gemm_reference_destroy). */
int clb_vf_full_create(struct clb_gemm_reference *r, enum clb_verify_source src);
int clb_vf_freivalds_create(struct clb_gemm_reference *r, uint64_t seed);

/*
 * The reference side of Freivalds' check, both directions, in four passes
 * that each stream one input once. For each output row i and vector x (the
 * columns likewise with y):
 *   zx_i = alpha sum_k a_ik (B x)_k + beta (C0 x)_i      compensated, wide
 *   ex_i = a bound on zx_i's own error: the sums', the products' (one rounding
 *          each in long double; none in compensated double) and (B x)'s carried through |A|
 *   wx_i = u^2/3 (alpha^2 (K+3)/2 sum_k a_ik^2 (B^2 x^2)_k + 3 beta^2 (C0^2 x^2)_i):
 *          the modelled variance of the residual, but for C's own rounding,
 *          which verify adds from the result itself
 * Weights times inputs are exact in long double (5 + 53 bits at most), and every product of
 * doubles in compensated double.
 */
struct freivalds_job {
    struct clb_gemm_reference *r;
    const void *c;                  /* verify: the result */
    wide *bx, *ya;                  /* V*K: B x and y'A */
    double *bx_err, *ya_err;        /* their error bounds */
    double *bx_sq, *ya_sq;          /* sum_j b_kj^2 x_j^2, sum_i y_i^2 a_ik^2 */
    atomic_bool oom;                /* a range could not get its scratch memory */
};

/* Per-output accumulators for a range of outputs, V vectors each. */
struct accs {
    struct acc *sum;
    double *sq, *carried;
};

/* accs of n outputs, zeroed: 0, or -1 when out of memory (clb_vf_accs_finish either way). */
int clb_vf_accs_init(struct accs *a, size_t n);
void clb_vf_accs_finish(struct accs *a);

/*
 * For columns [begin, end) of the rows x cols matrix `mat` (row-major, in
 * precision p) and every vector: sum_i w[v * rows + i] mat[i][j], streamed
 * row by row, into acc (V * (end - begin) accumulators, zeroed).
 */
void clb_vf_weighted_column_sums(const void *mat, enum clb_precision p, uint64_t rows,
                                 uint64_t cols, const double *w, uint64_t begin,
                                 uint64_t end, struct accs *acc);

#endif
