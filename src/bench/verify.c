#include "clbench/verify.h"
#include "clbench/rng.h"

#include <cblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Thresholds in units of the modelled noise (see verify.h). */
#define LAMBDA_ENTRY 30.0
#define LAMBDA_RESIDUAL 10.0
enum { MIN_AGGREGATE = 16 };
/* Random vectors per direction: a rank-1 error (a dropped k-term) shows in the
 * residuals in proportion to its projection on them; with four, all four
 * projections are small together with a probability near 1e-3, and the row
 * and column directions are independent chances. */
enum { V = CLB_VERIFY_VECTORS };

/* long double's unit roundoff: 2^-64 on x86-64, 2^-113 where it is binary128. */
#define U_LD ((long double)LDBL_EPSILON / 2)

/*
 * How far a sum of N squared errors may exceed the modelled variance: the
 * model is an upper estimate (a correct result's ratio is 0.3 to 0.7), the
 * sum fluctuates like chi-square/N, and one entry whose partial sums
 * happened to wander far (their squares' sum has an exponential tail) can
 * dominate a short row alone: 400/N covers that in rows of 16 to 256 entries.
 */
static double tau(double n)
{
    return fmax(1.5 + 10.0 / sqrt(n), 400.0 / n);
}

const char *clb_verify_method_name(enum clb_verify_method m)
{
    return m == CLB_VERIFY_FREIVALDS ? "freivalds" : "full";
}

/*
 * Neumaier's compensated sum: the result is within 2u|s| + 4n^2u^2 sum|t|
 * of the exact sum, so a long reference sum costs no accuracy.
 */
struct csum {
    long double s, c;
};

static inline void csum_add(struct csum *a, long double v)
{
    long double t = a->s + v;
    a->c += fabsl(a->s) >= fabsl(v) ? (a->s - t) + v : (v - t) + a->s;
    a->s = t;
}

static inline long double csum_value(const struct csum *a)
{
    return a->s + a->c;
}

/* The bound above, for n terms whose magnitudes add up to `abs_sum`. */
static double csum_err(long double value, long double abs_sum, uint64_t n)
{
    long double nu = (long double)n * U_LD;
    return (double)(2 * U_LD * fabsl(value) + 4 * nu * nu * abs_sum);
}

struct clb_gemm_reference {
    const struct clb_gemm_data *data;
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
    long double *zx, *zy;   /* V*m: alpha A (B x) + beta C0 x;  V*n: alpha (y'A) B + beta y'C0 */
    double *ex, *ey;        /* their error bounds */
    double *wx, *wy;        /* modelled residual variance, but for the result's own rounding */
    struct csum *col_sum;   /* V*n: scratch for verify */
    long double *col_abs;
    double *col_sq;
};

static uint64_t mnk_or_max(struct clb_gemm_shape s)
{
    uint64_t mnk;
    if (__builtin_mul_overflow(s.m * s.n, s.k, &mnk))
        return UINT64_MAX;
    return mnk;
}

enum clb_verify_method clb_gemm_verify_method(struct clb_gemm_shape s, enum clb_precision p)
{
    const uint64_t mnk = mnk_or_max(s);

    if (mnk <= CLB_VERIFY_NAIVE_MNK || (p != CLB_FP64 && mnk <= CLB_VERIFY_DGEMM_MNK))
        return CLB_VERIFY_FULL;
    return s.m >= CLB_VERIFY_MIN_FREIVALDS && s.n >= CLB_VERIFY_MIN_FREIVALDS
               ? CLB_VERIFY_FREIVALDS
               : CLB_VERIFY_FULL;
}

static enum clb_verify_source auto_source(struct clb_gemm_shape s, enum clb_precision p)
{
    if (clb_gemm_verify_method(s, p) == CLB_VERIFY_FREIVALDS)
        return CLB_VERIFY_SOURCE_FREIVALDS;
    return p == CLB_FP64 || mnk_or_max(s) <= CLB_VERIFY_NAIVE_MNK ? CLB_VERIFY_SOURCE_NAIVE
                                                                    : CLB_VERIFY_SOURCE_DGEMM;
}

uint64_t clb_gemm_reference_bytes(struct clb_gemm_shape s, enum clb_precision p)
{
    const enum clb_verify_source src = auto_source(s, p);

    if (src == CLB_VERIFY_SOURCE_FREIVALDS) /* vectors and scratch */
        return ((s.m + s.n) * 128 + s.k * 160) * CLB_VERIFY_VECTORS;
    if (src == CLB_VERIFY_SOURCE_NAIVE) /* R, tolerance, variance */
        return s.m * s.n * 24 + s.n * 24;
    /* and P while it is made, and the widened A and B */
    return s.m * s.n * 32 + s.m * s.k * 8 + s.k * s.n * 8 + s.n * 24;
}

/* Rigorous bound gamma_n = n u / (1 - n u) of n roundings; infinite when n u >= 1. */
static double gamma_n(double n, double u)
{
    return n * u < 1.0 ? n * u / (1.0 - n * u) : INFINITY;
}

/*
 * Per entry: the tolerance and the modelled variance from R, S (sum |ab|),
 * P (sum (ab)^2), c0 and the reference's own error bound.
 */
static void entry_tolerance(const struct clb_gemm_reference *r, double ref, double s, double p,
                            double c0, double ref_err, double *tol, double *var)
{
    const struct clb_gemm_data *d = r->data;
    const double k = (double)d->shape.k;
    const double u = clb_precision_unit_roundoff(d->precision);
    const double v = r->u2_3 * (d->alpha * d->alpha * (k + 3) / 2 * p + 3 * ref * ref +
                                3 * d->beta * d->beta * c0 * c0) +
                     ref_err * ref_err;
    const double rigorous = gamma_n(k + 3, u) * (fabs(d->alpha) * s + fabs(d->beta * c0));

    *var = v;
    *tol = fmin(rigorous, LAMBDA_ENTRY * sqrt(v)) + ref_err;
}

/*
 * Every entry from the exact inputs in long double, compensated: fp32 and
 * fp16 products are exact there, fp64 products round by 2^-64 at most.
 */
static void full_naive(struct clb_gemm_reference *r)
{
    const struct clb_gemm_data *d = r->data;
    const struct clb_gemm_shape sh = d->shape;
    const enum clb_precision pr = d->precision;
    const long double product_u = pr == CLB_FP64 ? U_LD : 0;

    for (uint64_t i = 0; i < sh.m; i++) {
        for (uint64_t j = 0; j < sh.n; j++) {
            struct csum acc = { 0, 0 };
            long double s = 0, p = 0;
            for (uint64_t q = 0; q < sh.k; q++) {
                long double t = (long double)clb_gemm_load(pr, d->a, i * sh.k + q) *
                                (long double)clb_gemm_load(pr, d->b, q * sh.n + j);
                csum_add(&acc, t);
                s += fabsl(t);
                p += t * t;
            }
            const size_t at = i * sh.n + j;
            const long double ab = csum_value(&acc);
            const double c0 = clb_gemm_load(pr, d->c0, at);
            const long double ref = (long double)d->alpha * ab + (long double)d->beta * c0;
            const double err = fabs(d->alpha) * (csum_err(ab, s, sh.k) + (double)(product_u * s)) +
                               (double)(4 * U_LD * (fabsl(ref) + fabsl((long double)d->beta * c0)));
            r->ref[at] = (double)ref;
            entry_tolerance(r, (double)ref, (double)s, (double)p, c0, err, &r->tol[at],
                            &r->var[at]);
        }
    }
}

/* The matrix widened to double, optionally squared. */
static double *widen(const struct clb_gemm_data *d, const void *m, size_t count)
{
    double *w = malloc(count * sizeof(*w));
    for (size_t i = 0; w && i < count; i++)
        w[i] = clb_gemm_load(d->precision, m, i);
    return w;
}

static void square(double *v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        v[i] *= v[i];
}

/*
 * fp32/fp16: inputs and products are exact in double and DGEMM's rounding is
 * 2^-29 of fp32's; P comes from DGEMM of the squares, S is bounded by
 * sqrt(K P) (Cauchy-Schwarz) instead of costing a third DGEMM.
 */
static int full_dgemm(struct clb_gemm_reference *r)
{
    const struct clb_gemm_data *d = r->data;
    const struct clb_gemm_shape sh = d->shape;
    const size_t mn = sh.m * sh.n;
    double *a = widen(d, d->a, sh.m * sh.k), *b = widen(d, d->b, sh.k * sh.n);
    double *p = malloc(mn * sizeof(*p));
    int rc = -1;

    if (!a || !b || !p)
        goto out;
    for (size_t i = 0; i < mn; i++)
        r->ref[i] = clb_gemm_load(d->precision, d->c0, i);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)sh.m, (blasint)sh.n,
                (blasint)sh.k, d->alpha, a, (blasint)sh.k, b, (blasint)sh.n, d->beta, r->ref,
                (blasint)sh.n);
    square(a, sh.m * sh.k);
    square(b, sh.k * sh.n);
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)sh.m, (blasint)sh.n,
                (blasint)sh.k, 1.0, a, (blasint)sh.k, b, (blasint)sh.n, 0.0, p, (blasint)sh.n);
    const double k = (double)sh.k;
    for (size_t i = 0; i < mn; i++) {
        const double c0 = clb_gemm_load(d->precision, d->c0, i);
        const double s = sqrt(k * p[i]);
        const double err = gamma_n(k + 3, 0x1p-53) * (fabs(d->alpha) * s + fabs(d->beta * c0));
        entry_tolerance(r, r->ref[i], s, p[i], c0, err, &r->tol[i], &r->var[i]);
    }
    rc = 0;
out:
    free(a);
    free(b);
    free(p);
    return rc;
}

static int full_create(struct clb_gemm_reference *r, enum clb_verify_source src)
{
    const struct clb_gemm_shape sh = r->data->shape;
    const size_t mn = sh.m * sh.n;

    r->ref = malloc(mn * sizeof(*r->ref));
    r->tol = malloc(mn * sizeof(*r->tol));
    r->var = malloc(mn * sizeof(*r->var));
    r->row_var = calloc(sh.m, sizeof(*r->row_var));
    r->col_var = calloc(sh.n, sizeof(*r->col_var));
    r->col_err2 = calloc(sh.n, sizeof(*r->col_err2));
    if (!r->ref || !r->tol || !r->var || !r->row_var || !r->col_var || !r->col_err2)
        return -1;
    if (src == CLB_VERIFY_SOURCE_NAIVE)
        full_naive(r);
    else if (full_dgemm(r))
        return -1;
    for (uint64_t i = 0; i < sh.m; i++) {
        for (uint64_t j = 0; j < sh.n; j++) {
            const size_t at = i * sh.n + j;
            r->row_var[i] += r->var[at];
            r->col_var[j] += r->var[at];
            r->ref_norm2 += r->ref[at] * r->ref[at];
        }
        r->total_var += r->row_var[i];
    }
    return 0;
}

/* +-(1 + t/16), t in 0..15: never small, and exact in any product with an input. */
static void random_weights(double *w, size_t n, uint64_t *seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = clb_rng_next(seed);
        w[i] = (bits & 16 ? -1.0 : 1.0) * (1.0 + (double)(bits & 15) / 16.0);
    }
}

/*
 * The reference side of Freivalds' check, both directions. For each output
 * row i, with x the row weights (columns likewise with y):
 *   zx_i = alpha sum_k a_ik (B x)_k + beta (C0 x)_i      compensated, long double
 *   ex_i = a bound on zx_i's own error: the sums', the products' (one rounding
 *          each in long double) and (B x)'s carried through |A|
 *   wx_i = u^2/3 (alpha^2 (K+3)/2 sum_k a_ik^2 (B^2 x^2)_k + 3 beta^2 (C0^2 x^2)_i):
 *          the modelled variance of the residual, but for C's own rounding,
 *          which verify adds from the result itself
 * Weights times inputs are exact in long double (5 + 53 bits at most).
 */
struct vec_ref {
    struct csum *sum;   /* per output: the compensated sum */
    long double *abs;   /* sum of the terms' magnitudes */
    double *carried;    /* error carried in from an earlier product */
    double *sq;         /* sum of squared terms (weights included) */
};

static int vec_ref_init(struct vec_ref *v, size_t n)
{
    v->sum = calloc(n, sizeof(*v->sum));
    v->abs = calloc(n, sizeof(*v->abs));
    v->carried = calloc(n, sizeof(*v->carried));
    v->sq = calloc(n, sizeof(*v->sq));
    return v->sum && v->abs && v->carried && v->sq ? 0 : -1;
}

static void vec_ref_finish(struct vec_ref *v)
{
    free(v->sum);
    free(v->abs);
    free(v->carried);
    free(v->sq);
}

/* Error bound of entry i: the sum's, one rounding per product, what was carried. */
static double vec_ref_err(const struct vec_ref *v, size_t i, uint64_t terms, long double value)
{
    return csum_err(value, v->abs[i], terms) + (double)(U_LD * v->abs[i]) + v->carried[i];
}

static int freivalds_create(struct clb_gemm_reference *r, uint64_t seed)
{
    const struct clb_gemm_data *d = r->data;
    const enum clb_precision pr = d->precision;
    const uint64_t m = d->shape.m, n = d->shape.n, K = d->shape.k;
    const double half_k3 = ((double)K + 3) / 2, alpha2 = d->alpha * d->alpha;
    const double beta2_3 = 3 * d->beta * d->beta;
    struct vec_ref bx = { 0 }, ya = { 0 }, cols = { 0 }, c0y = { 0 };
    long double *bxv = malloc(V * K * sizeof(*bxv)), *yav = malloc(V * K * sizeof(*yav));
    double *bx_err = malloc(V * K * sizeof(*bx_err)), *ya_err = malloc(V * K * sizeof(*ya_err));
    int rc = -1;

    r->x = malloc(V * n * sizeof(*r->x));
    r->y = malloc(V * m * sizeof(*r->y));
    r->zx = malloc(V * m * sizeof(*r->zx));
    r->zy = malloc(V * n * sizeof(*r->zy));
    r->ex = malloc(V * m * sizeof(*r->ex));
    r->ey = malloc(V * n * sizeof(*r->ey));
    r->wx = malloc(V * m * sizeof(*r->wx));
    r->wy = malloc(V * n * sizeof(*r->wy));
    r->col_sum = malloc(V * n * sizeof(*r->col_sum));
    r->col_abs = malloc(V * n * sizeof(*r->col_abs));
    r->col_sq = malloc(V * n * sizeof(*r->col_sq));
    if (!bxv || !yav || !bx_err || !ya_err || !r->x || !r->y || !r->zx || !r->zy || !r->ex ||
        !r->ey || !r->wx || !r->wy || !r->col_sum || !r->col_abs || !r->col_sq ||
        vec_ref_init(&bx, V * K) || vec_ref_init(&ya, V * K) || vec_ref_init(&cols, V * n) ||
        vec_ref_init(&c0y, V * n))
        goto out;
    random_weights(r->x, V * n, &seed);
    random_weights(r->y, V * m, &seed);

    /* B x, row by row of B. */
    for (uint64_t q = 0; q < K; q++) {
        for (uint64_t j = 0; j < n; j++) {
            const long double b = clb_gemm_load(pr, d->b, q * n + j);
            for (unsigned v = 0; v < V; v++) {
                const long double t = b * r->x[v * n + j];
                csum_add(&bx.sum[v * K + q], t);
                bx.abs[v * K + q] += fabsl(t);
                bx.sq[v * K + q] += (double)(t * t);
            }
        }
        for (unsigned v = 0; v < V; v++) {
            bxv[v * K + q] = csum_value(&bx.sum[v * K + q]);
            bx_err[v * K + q] = csum_err(bxv[v * K + q], bx.abs[v * K + q], n);
        }
    }
    /* Rows: alpha A (B x) + beta C0 x. Along the way: y'A, and y'C0 for the columns. */
    for (uint64_t i = 0; i < m; i++) {
        struct csum ab[V] = { { 0, 0 } }, c0x[V] = { { 0, 0 } };
        long double ab_abs[V] = { 0 }, c0x_abs[V] = { 0 };
        double carried[V] = { 0 }, a2b2x2[V] = { 0 }, c02x2[V] = { 0 };
        for (uint64_t q = 0; q < K; q++) {
            const long double a = clb_gemm_load(pr, d->a, i * K + q);
            for (unsigned v = 0; v < V; v++) {
                const long double t = a * bxv[v * K + q], ty = a * r->y[v * m + i];
                csum_add(&ab[v], t);
                ab_abs[v] += fabsl(t);
                carried[v] += (double)fabsl(a) * bx_err[v * K + q];
                a2b2x2[v] += (double)(a * a) * bx.sq[v * K + q];
                csum_add(&ya.sum[v * K + q], ty);
                ya.abs[v * K + q] += fabsl(ty);
                ya.sq[v * K + q] += (double)(ty * ty);
            }
        }
        for (uint64_t j = 0; j < n; j++) {
            const long double c0 = clb_gemm_load(pr, d->c0, i * n + j);
            for (unsigned v = 0; v < V; v++) {
                const long double t = c0 * r->x[v * n + j], ty = c0 * r->y[v * m + i];
                csum_add(&c0x[v], t);
                c0x_abs[v] += fabsl(t);
                c02x2[v] += (double)(t * t);
                csum_add(&c0y.sum[v * n + j], ty);
                c0y.abs[v * n + j] += fabsl(ty);
                c0y.sq[v * n + j] += (double)(ty * ty);
            }
        }
        for (unsigned v = 0; v < V; v++) {
            const long double abv = csum_value(&ab[v]), c0xv = csum_value(&c0x[v]);
            const size_t at = v * m + i;
            r->zx[at] = (long double)d->alpha * abv + (long double)d->beta * c0xv;
            r->ex[at] = fabs(d->alpha) * (csum_err(abv, ab_abs[v], K) +
                                          (double)(U_LD * ab_abs[v]) + carried[v]) +
                        fabs(d->beta) * csum_err(c0xv, c0x_abs[v], n) +
                        (double)(4 * U_LD * fabsl(r->zx[at]));
            r->wx[at] = r->u2_3 * (alpha2 * half_k3 * a2b2x2[v] + beta2_3 * c02x2[v]);
        }
    }
    for (uint64_t q = 0; q < V * K; q++) {
        yav[q] = csum_value(&ya.sum[q]);
        ya_err[q] = csum_err(yav[q], ya.abs[q], m);
    }
    /* Columns: alpha (y'A) B + beta y'C0, streaming B by rows. */
    for (uint64_t q = 0; q < K; q++) {
        for (uint64_t j = 0; j < n; j++) {
            const long double b = clb_gemm_load(pr, d->b, q * n + j);
            for (unsigned v = 0; v < V; v++) {
                const long double t = yav[v * K + q] * b;
                csum_add(&cols.sum[v * n + j], t);
                cols.abs[v * n + j] += fabsl(t);
                cols.carried[v * n + j] += (double)fabsl(b) * ya_err[v * K + q];
                cols.sq[v * n + j] += ya.sq[v * K + q] * (double)(b * b);
            }
        }
    }
    for (uint64_t j = 0; j < V * n; j++) {
        const long double ayb = csum_value(&cols.sum[j]), c0 = csum_value(&c0y.sum[j]);
        r->zy[j] = (long double)d->alpha * ayb + (long double)d->beta * c0;
        r->ey[j] = fabs(d->alpha) * vec_ref_err(&cols, j, K, ayb) +
                   fabs(d->beta) * csum_err(c0, c0y.abs[j], m) +
                   (double)(4 * U_LD * fabsl(r->zy[j]));
        r->wy[j] = r->u2_3 * (alpha2 * half_k3 * cols.sq[j] + beta2_3 * c0y.sq[j]);
    }
    rc = 0;
out:
    vec_ref_finish(&bx);
    vec_ref_finish(&ya);
    vec_ref_finish(&cols);
    vec_ref_finish(&c0y);
    free(bxv);
    free(yav);
    free(bx_err);
    free(ya_err);
    return rc;
}

struct clb_gemm_reference *clb_gemm_reference_create(const struct clb_gemm_data *d,
                                                     uint64_t seed, struct clb_error *e)
{
    return clb_gemm_reference_create_from(d, seed, CLB_VERIFY_SOURCE_AUTO, e);
}

struct clb_gemm_reference *clb_gemm_reference_create_from(const struct clb_gemm_data *d,
                                                          uint64_t seed,
                                                          enum clb_verify_source src,
                                                          struct clb_error *e)
{
    struct clb_gemm_reference *r = calloc(1, sizeof(*r));
    const double u = clb_precision_unit_roundoff(d->precision);

    if (!r)
        goto oom;
    if (src == CLB_VERIFY_SOURCE_AUTO)
        src = auto_source(d->shape, d->precision);
    if (src == CLB_VERIFY_SOURCE_DGEMM && d->precision == CLB_FP64)
        src = CLB_VERIFY_SOURCE_NAIVE; /* DGEMM is no higher precision for fp64 */
    r->data = d;
    r->u2_3 = u * u / 3;
    r->method = src == CLB_VERIFY_SOURCE_FREIVALDS ? CLB_VERIFY_FREIVALDS : CLB_VERIFY_FULL;
    if (src == CLB_VERIFY_SOURCE_FREIVALDS ? freivalds_create(r, seed) : full_create(r, src))
        goto oom;
    return r;

oom:
    clb_gemm_reference_destroy(r);
    clb_error_set(e, "out of host memory for the verification reference");
    return NULL;
}

void clb_gemm_reference_destroy(struct clb_gemm_reference *r)
{
    if (!r)
        return;
    free(r->ref);
    free(r->tol);
    free(r->var);
    free(r->row_var);
    free(r->col_var);
    free(r->col_err2);
    free(r->x);
    free(r->y);
    free(r->zx);
    free(r->zy);
    free(r->ex);
    free(r->ey);
    free(r->wx);
    free(r->wy);
    free(r->col_sum);
    free(r->col_abs);
    free(r->col_sq);
    free(r);
}

/*
 * The check with the worst statistic/tolerance ratio so far, named at the
 * end. Sums of squares are compared as their square roots, so every ratio
 * is in units of an error's size.
 */
enum check { CHECK_NONE, CHECK_NONFINITE, CHECK_ENTRY, CHECK_ROW, CHECK_COLUMN, CHECK_ROWS,
             CHECK_COLUMNS, CHECK_NORM };

struct worst {
    double ratio;
    enum check check;
    uint64_t i, j;
};

static void consider(struct worst *w, double stat, double limit, enum check check, uint64_t i,
                     uint64_t j)
{
    /* Anything not a number fails: NaN compares false with everything. */
    double ratio = isnan(stat) || isnan(limit) ? INFINITY
                   : limit > 0                 ? stat / limit
                   : stat > 0                  ? INFINITY
                                               : 0;
    if (isnan(ratio))
        ratio = INFINITY;
    if (ratio > w->ratio) {
        *w = (struct worst){ ratio, check, i, j };
    }
}

static void name_check(const struct worst *w, char *buf, size_t len)
{
    const unsigned long long i = w->i, j = w->j;

    switch (w->check) {
    case CHECK_NONFINITE:
        snprintf(buf, len, "non-finite entry (%llu, %llu)", i, j);
        break;
    case CHECK_ENTRY:
        snprintf(buf, len, "entry (%llu, %llu)", i, j);
        break;
    case CHECK_ROW:
        snprintf(buf, len, "row %llu", i);
        break;
    case CHECK_COLUMN:
        snprintf(buf, len, "column %llu", j);
        break;
    case CHECK_ROWS:
        snprintf(buf, len, "all rows together");
        break;
    case CHECK_COLUMNS:
        snprintf(buf, len, "all columns together");
        break;
    case CHECK_NORM:
        snprintf(buf, len, "all entries together");
        break;
    case CHECK_NONE:
        buf[0] = '\0';
        break;
    }
}

static void verify_full(const struct clb_gemm_reference *r, const void *c,
                        struct clb_verify_result *out, struct worst *w)
{
    const struct clb_gemm_data *d = r->data;
    const uint64_t m = d->shape.m, n = d->shape.n;
    double total = 0, mx = 0;

    memset(r->col_err2, 0, n * sizeof(*r->col_err2));
    for (uint64_t i = 0; i < m; i++) {
        double row = 0;
        for (uint64_t j = 0; j < n; j++) {
            const size_t at = i * n + j;
            const double got = clb_gemm_load(d->precision, c, at);
            double err = fabs(got - r->ref[at]);
            if (!isfinite(got)) {
                err = INFINITY;
                consider(w, INFINITY, 1, CHECK_NONFINITE, i, j);
            }
            consider(w, err, r->tol[at], CHECK_ENTRY, i, j);
            mx = fmax(mx, err);
            row += err * err;
            r->col_err2[j] += err * err;
        }
        if (n >= MIN_AGGREGATE)
            consider(w, sqrt(row), sqrt(tau((double)n) * r->row_var[i]), CHECK_ROW, i, 0);
        total += row;
    }
    for (uint64_t j = 0; m >= MIN_AGGREGATE && j < n; j++)
        consider(w, sqrt(r->col_err2[j]), sqrt(tau((double)m) * r->col_var[j]), CHECK_COLUMN, 0,
                 j);
    if (m * n >= MIN_AGGREGATE)
        consider(w, sqrt(total), sqrt(tau((double)(m * n)) * r->total_var), CHECK_NORM, 0, 0);
    out->max_abs_err = mx;
    out->rel_err = r->ref_norm2 > 0 ? sqrt(total / r->ref_norm2) : total > 0 ? INFINITY : 0;
    out->noise_ratio = r->total_var > 0 ? sqrt(total / r->total_var) : total > 0 ? INFINITY : 0;
}

static void verify_freivalds(const struct clb_gemm_reference *r, const void *c,
                             struct clb_verify_result *out, struct worst *w)
{
    const struct clb_gemm_data *d = r->data;
    const enum clb_precision pr = d->precision;
    const uint64_t m = d->shape.m, n = d->shape.n;
    double excess2 = 0, var = 0, col_excess2 = 0, col_var = 0, res2 = 0, ref2 = 0, mx = 0;
    bool finite = true;

    memset(r->col_sum, 0, V * n * sizeof(*r->col_sum));
    memset(r->col_abs, 0, V * n * sizeof(*r->col_abs));
    memset(r->col_sq, 0, V * n * sizeof(*r->col_sq));
    for (uint64_t i = 0; i < m; i++) {
        struct csum s[V] = { { 0, 0 } };
        long double abs_sum[V] = { 0 };
        double sq[V] = { 0 };
        for (uint64_t j = 0; j < n; j++) {
            /* Tested as a double: valgrind runs long double as double, where LDBL_MAX is
             * infinite and so is every infinity's magnitude test. */
            const double value = clb_gemm_load(pr, c, i * n + j);
            const long double got = value;
            if (!isfinite(value)) {
                consider(w, INFINITY, 1, CHECK_NONFINITE, i, j);
                finite = false;
            }
            for (unsigned v = 0; v < V; v++) {
                const long double t = got * r->x[v * n + j], ty = got * r->y[v * m + i];
                csum_add(&s[v], t);
                abs_sum[v] += fabsl(t);
                sq[v] += (double)(t * t);
                csum_add(&r->col_sum[v * n + j], ty);
                r->col_abs[v * n + j] += fabsl(ty);
                r->col_sq[v * n + j] += (double)(ty * ty);
            }
        }
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * m + i;
            const long double cx = csum_value(&s[v]);
            const double res = fabs((double)(cx - r->zx[at]));
            const double e = r->ex[at] + csum_err(cx, abs_sum[v], n);
            const double wv = r->wx[at] + r->u2_3 * 3 * sq[v];
            consider(w, res, LAMBDA_RESIDUAL * sqrt(wv) + e, CHECK_ROW, i, 0);
            excess2 += fmax(0, res - e) * fmax(0, res - e);
            var += wv;
            res2 += res * res;
            ref2 += (double)(r->zx[at] * r->zx[at]);
            mx = fmax(mx, res);
        }
    }
    consider(w, sqrt(excess2), sqrt(tau((double)(V * m)) * var), CHECK_ROWS, 0, 0);
    for (uint64_t at = 0; at < V * n; at++) {
        const long double cy = csum_value(&r->col_sum[at]);
        const double res = fabs((double)(cy - r->zy[at]));
        const double e = r->ey[at] + csum_err(cy, r->col_abs[at], m);
        const double wv = r->wy[at] + r->u2_3 * 3 * r->col_sq[at];
        consider(w, res, LAMBDA_RESIDUAL * sqrt(wv) + e, CHECK_COLUMN, 0, at % n);
        col_excess2 += fmax(0, res - e) * fmax(0, res - e);
        col_var += wv;
        res2 += res * res;
        ref2 += (double)(r->zy[at] * r->zy[at]);
        mx = fmax(mx, res);
    }
    consider(w, sqrt(col_excess2), sqrt(tau((double)(V * n)) * col_var), CHECK_COLUMNS, 0, 0);
    out->max_abs_err = finite ? mx : INFINITY;
    out->rel_err = ref2 > 0 ? sqrt(res2 / ref2) : res2 > 0 ? INFINITY : 0;
    out->noise_ratio = var + col_var > 0 ? sqrt((excess2 + col_excess2) / (var + col_var))
                                         : excess2 + col_excess2 > 0 ? INFINITY : 0;
}

void clb_gemm_verify(const struct clb_gemm_reference *r, const void *c,
                     struct clb_verify_result *out)
{
    struct worst w = { 0, CHECK_NONE, 0, 0 };

    memset(out, 0, sizeof(*out));
    out->method = r->method;
    out->checked = r->data->shape.m * r->data->shape.n;
    if (r->method == CLB_VERIFY_FULL)
        verify_full(r, c, out, &w);
    else
        verify_freivalds(r, c, out, &w);
    out->worst_ratio = w.ratio;
    out->passed = w.ratio <= 1.0;
    if (!out->passed)
        name_check(&w, out->failed, sizeof(out->failed));
}
