#include "clbench/bench/verify.h"
#include "clbench/util/cpu.h"
#include "clbench/util/csum.h"
#include "clbench/util/rng.h"
#include "config.h"

#if HAVE_OPENBLAS
#include <cblas.h>
#endif
#include <float.h>
#include <pthread.h>
#include <stdatomic.h>
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

/*
 * The reference's arithmetic, chosen once for the build: long double with Neumaier's sums
 * (clb_csum) where long double is x87's 64-bit extended format, in hardware; elsewhere (IEEE
 * binary128, in software on aarch64, or no wider than double) compensated double (clb_dsum),
 * whose bound is the tighter where it matters (util/csum.h has both, and compares them).
 * -DCLB_VERIFY_COMPENSATED_DOUBLE=0 or 1 chooses either anywhere, to test and time both.
 *   wide           a value held beyond double: B x, y'A, the references, the sums
 *   struct acc     a compensated sum of products and the sum of their magnitudes
 *   acc_mul        adds x*y, doubles; returns it rounded to double
 *   acc_mulw       adds x*y, y wide (as acc_value leaves it)
 *   acc_err        a bound on |acc_value - the exact sum| after n terms
 *   acc_err_exact  the same where every term is exact in long double (products of fp32 or
 *                  fp16 inputs, of an input and a weight, of +-1 and a wide)
 */
#ifndef CLB_VERIFY_COMPENSATED_DOUBLE
#define CLB_VERIFY_COMPENSATED_DOUBLE (LDBL_MANT_DIG != 64)
#endif

#if CLB_VERIFY_COMPENSATED_DOUBLE
typedef struct clb_dd wide;
struct acc {
    struct clb_dsum sum;
};

static inline double acc_mul(struct acc *a, double x, double y)
{
    return clb_dsum_add_prod(&a->sum, x, y);
}

static inline double acc_mulw(struct acc *a, double x, wide y)
{
    return clb_dsum_add_prod_dd(&a->sum, x, y);
}

static inline wide acc_value(const struct acc *a)
{
    return clb_dsum_value(&a->sum);
}

static inline double acc_abs(const struct acc *a)
{
    return a->sum.abs;
}

static inline double acc_err_exact(const struct acc *a, uint64_t n)
{
    return clb_dsum_err(&a->sum, n);
}

static inline double acc_err(const struct acc *a, uint64_t n)
{
    return clb_dsum_err(&a->sum, n);
}

static inline wide wide_of(double x)
{
    return (wide){ x, 0 };
}

static inline double wide_double(wide w)
{
    return w.hi;
}
#else
/* long double's unit roundoff: 2^-64 on x86-64, 2^-113 where it is binary128. */
#define U_LD ((long double)LDBL_EPSILON / 2)

typedef long double wide;
struct acc {
    struct clb_csum sum;
    long double abs;
};

static inline double acc_mulw(struct acc *a, double x, wide y)
{
    const long double t = x * y;
    clb_csum_add(&a->sum, t);
    a->abs += fabsl(t);
    return (double)t;
}

static inline double acc_mul(struct acc *a, double x, double y)
{
    return acc_mulw(a, x, y);
}

static inline wide acc_value(const struct acc *a)
{
    return clb_csum_value(&a->sum);
}

static inline double acc_abs(const struct acc *a)
{
    return (double)a->abs;
}

static inline double acc_err_exact(const struct acc *a, uint64_t n)
{
    return clb_csum_err(acc_value(a), a->abs, n);
}

/*
 * Each product rounded once: exact on x86-64 where a weight of 5 bits times an input fits
 * long double's 64, but not for fp64 products, a wide factor, or where long double is double
 * (valgrind, other ABIs).
 */
static inline double acc_err(const struct acc *a, uint64_t n)
{
    return acc_err_exact(a, n) + (double)(U_LD * a->abs);
}

static inline wide wide_of(double x)
{
    return x;
}

static inline double wide_double(wide w)
{
    return (double)w;
}
#endif

/*
 * fma is an instruction on aarch64 (and wherever the build targets FMA), but the x86-64
 * baseline has none: there the loops of compensated double come twice, with FMA and
 * without, chosen at load time by the CPU (glibc's fma(), no instruction, in the latter).
 */
#if CLB_VERIFY_COMPENSATED_DOUBLE && defined(__x86_64__) && !defined(__FMA__) && \
    defined(__ELF__) && defined(__GNUC__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

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

/* alpha a + beta b, and a bound on the error it adds to a's and b's. */
static inline wide combine(double alpha, wide a, double beta, wide b, double *err)
{
    struct acc z = { 0 };

    acc_mulw(&z, alpha, a);
    acc_mulw(&z, beta, b);
    *err = acc_err(&z, 2);
    return acc_value(&z);
}

/* |a - b| in double, and a bound on its error beyond that last rounding (relative to it). */
static inline double distance(wide a, wide b, double *err)
{
    struct acc z = { 0 };

    acc_mulw(&z, 1, a);
    acc_mulw(&z, -1, b);
    *err = acc_err_exact(&z, 2);
    return fabs(wide_double(acc_value(&z)));
}

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

    if (mnk <= CLB_VERIFY_NAIVE_MNK ||
        (HAVE_OPENBLAS && p != CLB_FP64 && mnk <= CLB_VERIFY_DGEMM_MNK))
        return CLB_VERIFY_FULL;
    return CLB_VERIFY_FREIVALDS;
}

static enum clb_verify_source auto_source(struct clb_gemm_shape s, enum clb_precision p)
{
    if (clb_gemm_verify_method(s, p) == CLB_VERIFY_FREIVALDS)
        return CLB_VERIFY_SOURCE_FREIVALDS;
    return p == CLB_FP64 || mnk_or_max(s) <= CLB_VERIFY_NAIVE_MNK ? CLB_VERIFY_SOURCE_NAIVE
                                                                    : CLB_VERIFY_SOURCE_DGEMM;
}

uint64_t clb_gemm_reference_bytes(struct clb_gemm_shape s, enum clb_precision p,
                                  const struct clb_gemm_mode *mode)
{
    const enum clb_verify_source src = auto_source(s, p);
    /* Another mode: dense copies of op(A), op(B), C0, and of each result checked. */
    const uint64_t dense = clb_gemm_mode_is_default(mode)
                               ? 0
                               : (s.m * s.k + s.k * s.n + 2 * s.m * s.n) * clb_precision_bytes(p);

    /* Per vector: the weights, z, e, w (40 bytes an entry), verify's scratch (32), the
     * passes' per-output accumulators (64 a column, twice in the columns pass); B x and
     * y'A with their bounds (64 a k-term). */
    if (src == CLB_VERIFY_SOURCE_FREIVALDS)
        return dense + (s.m * 72 + s.n * 200 + s.k * 128) * CLB_VERIFY_VECTORS + s.m * 8;
    if (src == CLB_VERIFY_SOURCE_NAIVE) /* R, tolerance, variance */
        return dense + s.m * s.n * 24 + s.n * 24;
    /* and P while it is made, and the widened A and B */
    return dense + s.m * s.n * 32 + s.m * s.k * 8 + s.k * s.n * 8 + s.n * 24;
}

/* Entries (i, j) of op(X), rows x cols, from the buffer `src` through its layout, row-major. */
static void gather(const void *src, const struct clb_gemm_matrix_layout *l, uint64_t rows,
                   uint64_t cols, size_t es, void *dst)
{
    for (uint64_t i = 0; i < rows; i++)
        for (uint64_t j = 0; j < cols; j++)
            memcpy((char *)dst + (i * cols + j) * es, (const char *)src + clb_gemm_at(l, i, j) * es,
                   es);
}

/* The problem in the default mode, its inputs read through d's layouts; NULL: out of memory. */
static struct clb_gemm_data *dense_copy(const struct clb_gemm_data *d)
{
    const struct clb_gemm_shape s = d->shape;
    const size_t es = clb_precision_bytes(d->precision);
    struct clb_gemm_data *c = calloc(1, sizeof(*c));

    if (!c)
        return NULL;
    c->shape = s;
    c->precision = d->precision;
    c->alpha = d->alpha;
    c->beta = d->beta;
    clb_gemm_layout(&c->mode, s, CLB_GEMM_A, &c->la);
    clb_gemm_layout(&c->mode, s, CLB_GEMM_B, &c->lb);
    clb_gemm_layout(&c->mode, s, CLB_GEMM_C, &c->lc);
    c->a = malloc(s.m * s.k * es);
    c->b = malloc(s.k * s.n * es);
    c->c0 = malloc(s.m * s.n * es);
    if (!c->a || !c->b || !c->c0) {
        clb_gemm_data_destroy(c);
        return NULL;
    }
    gather(d->a, &d->la, s.m, s.k, es, c->a);
    gather(d->b, &d->lb, s.k, s.n, es, c->b);
    gather(d->c0, &d->lc, s.m, s.n, es, c->c0);
    return c;
}

/*
 * The absolute error one operation may add near zero, beyond u times its
 * result: the smallest normal number, as a device that flushes subnormals to
 * zero may (OpenCL allows it for fp16 and fp32 without CL_FP_DENORM).
 */
static double underflow_unit(enum clb_precision p)
{
    return p == CLB_FP16 ? 0x1p-14 : p == CLB_FP32 ? 0x1p-126 : 0x1p-1022;
}

/*
 * Operations whose underflow error reaches an entry: the K sums and products
 * (scaled by alpha) and alpha's product when alpha is not 0, beta's product
 * when beta is not 0. With both 0 the result must be exactly 0.
 */
static double underflow_ops(const struct clb_gemm_data *d, bool squared)
{
    const double k1 = (double)d->shape.k + 1;
    return (d->alpha != 0 ? (squared ? d->alpha * d->alpha : fabs(d->alpha)) * k1 + 1 : 0) +
           (d->beta != 0 ? 1 : 0);
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
    const double ul = underflow_unit(d->precision);
    const double v = r->u2_3 * (d->alpha * d->alpha * (k + 3) / 2 * p + 3 * ref * ref +
                                3 * d->beta * d->beta * c0 * c0) +
                     underflow_ops(d, true) * ul * ul / 3 + ref_err * ref_err;
    const double rigorous = gamma_n(k + 3, u) * (fabs(d->alpha) * s + fabs(d->beta * c0)) +
                            underflow_ops(d, false) * ul;

    *var = v;
    *tol = fmin(rigorous, LAMBDA_ENTRY * sqrt(v)) + ref_err;
}

/*
 * Splits [0, n) into ranges run on up to one thread per available CPU, each
 * calling fn(ctx, begin, end); small jobs (n * cost below a few million
 * operations) and ranges whose thread cannot start run on the caller.
 * Every output is written by the one range that owns it: no locks.
 */
typedef void (*range_fn)(void *ctx, uint64_t begin, uint64_t end);

struct range_job {
    pthread_t tid;
    range_fn fn;
    void *ctx;
    uint64_t begin, end;
};

static void *range_main(void *arg)
{
    struct range_job *j = arg;
    j->fn(j->ctx, j->begin, j->end);
    return NULL;
}

static void parallel_for(uint64_t n, uint64_t cost, range_fn fn, void *ctx)
{
    enum { MAX_THREADS = 256 };
    struct range_job jobs[MAX_THREADS];
    bool started[MAX_THREADS] = { false };
    uint64_t threads = clb_cpu_count_available();

    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    if (threads > n)
        threads = n;
    if (n * cost < (UINT64_C(1) << 22) || threads < 2) {
        fn(ctx, 0, n);
        return;
    }
    for (uint64_t t = 0; t < threads; t++)
        jobs[t] = (struct range_job){ .fn = fn, .ctx = ctx, .begin = n * t / threads,
                                      .end = n * (t + 1) / threads };
    for (uint64_t t = 1; t < threads; t++)
        started[t] = pthread_create(&jobs[t].tid, NULL, range_main, &jobs[t]) == 0;
    for (uint64_t t = 0; t < threads; t++)
        if (!started[t])
            fn(ctx, jobs[t].begin, jobs[t].end);
    for (uint64_t t = 1; t < threads; t++)
        if (started[t])
            pthread_join(jobs[t].tid, NULL);
}

/*
 * Entries [begin, end) of C, row-major, from the exact inputs, compensated: fp32 and fp16
 * products are exact in long double, fp64 products round by 2^-64 at most (and every product
 * is exact in compensated double). Each entry is computed the same way on whichever thread
 * owns it.
 */
FMA_CLONES static void naive_entries(void *ctx, uint64_t begin, uint64_t end)
{
    struct clb_gemm_reference *r = ctx;
    const struct clb_gemm_data *d = r->data;
    const struct clb_gemm_shape sh = d->shape;
    const enum clb_precision pr = d->precision;

    for (uint64_t at = begin; at < end; at++) {
        const uint64_t i = at / sh.n, j = at % sh.n;
        struct acc acc = { 0 };
        double p = 0;
        for (uint64_t q = 0; q < sh.k; q++) {
            const double t = acc_mul(&acc, clb_gemm_load(pr, d->a, i * sh.k + q),
                                     clb_gemm_load(pr, d->b, q * sh.n + j));
            p += t * t;
        }
        const double c0 = clb_gemm_load(pr, d->c0, at);
        double ref_err;
        const wide ref = combine(d->alpha, acc_value(&acc), d->beta, wide_of(c0), &ref_err);
        const double err =
            fabs(d->alpha) * (pr == CLB_FP64 ? acc_err(&acc, sh.k) : acc_err_exact(&acc, sh.k)) +
            ref_err;
        r->ref[at] = wide_double(ref);
        entry_tolerance(r, r->ref[at], acc_abs(&acc), p, c0, err, &r->tol[at], &r->var[at]);
    }
}

/* Every entry, on up to one thread per available CPU. */
static void full_naive(struct clb_gemm_reference *r)
{
    const struct clb_gemm_shape sh = r->data->shape;

    parallel_for(sh.m * sh.n, sh.k, naive_entries, r);
}

#if HAVE_OPENBLAS /* the DGEMM reference; without OpenBLAS the source falls back to naive loops */
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
#endif

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
#if HAVE_OPENBLAS
    else if (full_dgemm(r))
        return -1;
#endif
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

static int accs_init(struct accs *a, size_t n)
{
    a->sum = calloc(n, sizeof(*a->sum));
    a->sq = calloc(n, sizeof(*a->sq));
    a->carried = calloc(n, sizeof(*a->carried));
    return a->sum && a->sq && a->carried ? 0 : -1;
}

static void accs_finish(struct accs *a)
{
    free(a->sum);
    free(a->sq);
    free(a->carried);
}

/*
 * For columns [begin, end) of the rows x cols matrix `mat` (row-major, in
 * precision p) and every vector: sum_i w[v * rows + i] mat[i][j], streamed
 * row by row, into acc (V * (end - begin) accumulators, zeroed).
 */
FMA_CLONES static void weighted_column_sums(const void *mat, enum clb_precision p, uint64_t rows,
                                            uint64_t cols, const double *w, uint64_t begin,
                                            uint64_t end, struct accs *acc)
{
    const uint64_t len = end - begin;

    for (uint64_t i = 0; i < rows; i++) {
        for (uint64_t j = begin; j < end; j++) {
            const double value = clb_gemm_load(p, mat, i * cols + j);
            for (unsigned v = 0; v < V; v++) {
                const size_t at = v * len + (j - begin);
                const double t = acc_mul(&acc->sum[at], value, w[v * rows + i]);
                acc->sq[at] += t * t;
            }
        }
    }
}

/* Pass 1, over rows q of B: (B x)_q for every vector. */
FMA_CLONES static void pass_bx(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    const struct clb_gemm_data *d = job->r->data;
    const uint64_t n = d->shape.n, K = d->shape.k;
    const double *x = job->r->x;

    for (uint64_t q = begin; q < end; q++) {
        struct acc s[V] = { 0 };
        double sq[V] = { 0 };
        for (uint64_t j = 0; j < n; j++) {
            const double b = clb_gemm_load(d->precision, d->b, q * n + j);
            for (unsigned v = 0; v < V; v++) {
                const double t = acc_mul(&s[v], b, x[v * n + j]);
                sq[v] += t * t;
            }
        }
        for (unsigned v = 0; v < V; v++) {
            job->bx[v * K + q] = acc_value(&s[v]);
            job->bx_err[v * K + q] = acc_err(&s[v], n);
            job->bx_sq[v * K + q] = sq[v];
        }
    }
}

/* Pass 2, over rows i: alpha A (B x) + beta C0 x. */
FMA_CLONES static void pass_rows(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    struct clb_gemm_reference *r = job->r;
    const struct clb_gemm_data *d = r->data;
    const enum clb_precision pr = d->precision;
    const uint64_t m = d->shape.m, n = d->shape.n, K = d->shape.k;
    const double half_k3 = ((double)K + 3) / 2, alpha2 = d->alpha * d->alpha;
    const double ul = underflow_unit(pr), uvar = underflow_ops(d, true) * ul * ul / 3;

    for (uint64_t i = begin; i < end; i++) {
        struct acc ab[V] = { 0 }, c0x[V] = { 0 };
        double carried[V] = { 0 }, a2b2x2[V] = { 0 }, c02x2[V] = { 0 };
        for (uint64_t q = 0; q < K; q++) {
            const double a = clb_gemm_load(pr, d->a, i * K + q);
            for (unsigned v = 0; v < V; v++) {
                acc_mulw(&ab[v], a, job->bx[v * K + q]);
                carried[v] += fabs(a) * job->bx_err[v * K + q];
                a2b2x2[v] += a * a * job->bx_sq[v * K + q];
            }
        }
        for (uint64_t j = 0; d->beta != 0 && j < n; j++) {
            const double c0 = clb_gemm_load(pr, d->c0, i * n + j);
            for (unsigned v = 0; v < V; v++) {
                const double t = acc_mul(&c0x[v], c0, r->x[v * n + j]);
                c02x2[v] += t * t;
            }
        }
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * m + i;
            double z_err;
            r->zx[at] = combine(d->alpha, acc_value(&ab[v]), d->beta, acc_value(&c0x[v]), &z_err);
            r->ex[at] = fabs(d->alpha) * (acc_err(&ab[v], K) + carried[v]) +
                        fabs(d->beta) * acc_err(&c0x[v], n) + z_err;
            r->wx[at] = r->u2_3 * (alpha2 * half_k3 * a2b2x2[v] + 3 * d->beta * d->beta * c02x2[v]) +
                        uvar * r->x2[v];
        }
    }
}

/* Pass 3, over columns q of A: (y'A)_q, streaming A's rows. */
static void pass_ya(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    const struct clb_gemm_data *d = job->r->data;
    const uint64_t m = d->shape.m, K = d->shape.k, len = end - begin;
    struct accs acc;

    if (accs_init(&acc, V * len)) {
        job->oom = true;
        accs_finish(&acc);
        return;
    }
    weighted_column_sums(d->a, d->precision, m, K, job->r->y, begin, end, &acc);
    for (uint64_t q = begin; q < end; q++) {
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * len + (q - begin);
            job->ya[v * K + q] = acc_value(&acc.sum[at]);
            job->ya_err[v * K + q] = acc_err(&acc.sum[at], m);
            job->ya_sq[v * K + q] = acc.sq[at];
        }
    }
    accs_finish(&acc);
}

/* Pass 4, over columns j: alpha (y'A) B + beta y'C0, streaming B's and C0's rows. */
FMA_CLONES static void pass_cols(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    struct clb_gemm_reference *r = job->r;
    const struct clb_gemm_data *d = r->data;
    const enum clb_precision pr = d->precision;
    const uint64_t m = d->shape.m, n = d->shape.n, K = d->shape.k, len = end - begin;
    const double half_k3 = ((double)K + 3) / 2, alpha2 = d->alpha * d->alpha;
    const double ul = underflow_unit(pr), uvar = underflow_ops(d, true) * ul * ul / 3;
    struct accs ab = { 0 }, c0 = { 0 };

    if (accs_init(&ab, V * len) || accs_init(&c0, V * len)) {
        job->oom = true;
        accs_finish(&ab);
        accs_finish(&c0);
        return;
    }
    for (uint64_t q = 0; q < K; q++) {
        for (uint64_t j = begin; j < end; j++) {
            const double b = clb_gemm_load(pr, d->b, q * n + j);
            for (unsigned v = 0; v < V; v++) {
                const size_t at = v * len + (j - begin);
                acc_mulw(&ab.sum[at], b, job->ya[v * K + q]);
                ab.carried[at] += fabs(b) * job->ya_err[v * K + q];
                ab.sq[at] += job->ya_sq[v * K + q] * (b * b);
            }
        }
    }
    if (d->beta != 0)
        weighted_column_sums(d->c0, pr, m, n, r->y, begin, end, &c0);
    for (uint64_t j = begin; j < end; j++) {
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * len + (j - begin), out = v * n + j;
            double z_err;
            r->zy[out] = combine(d->alpha, acc_value(&ab.sum[at]), d->beta,
                                 acc_value(&c0.sum[at]), &z_err);
            r->ey[out] = fabs(d->alpha) * (acc_err(&ab.sum[at], K) + ab.carried[at]) +
                         fabs(d->beta) * acc_err(&c0.sum[at], m) + z_err;
            r->wy[out] = r->u2_3 * (alpha2 * half_k3 * ab.sq[at] +
                                    3 * d->beta * d->beta * c0.sq[at]) +
                         uvar * r->y2[v];
        }
    }
    accs_finish(&ab);
    accs_finish(&c0);
}

static int freivalds_create(struct clb_gemm_reference *r, uint64_t seed)
{
    const struct clb_gemm_shape sh = r->data->shape;
    const uint64_t m = sh.m, n = sh.n, K = sh.k;
    struct freivalds_job job = { .r = r };
    int rc = -1;

    job.bx = malloc(V * K * sizeof(*job.bx));
    job.ya = malloc(V * K * sizeof(*job.ya));
    job.bx_err = malloc(V * K * sizeof(*job.bx_err));
    job.ya_err = malloc(V * K * sizeof(*job.ya_err));
    job.bx_sq = malloc(V * K * sizeof(*job.bx_sq));
    job.ya_sq = malloc(V * K * sizeof(*job.ya_sq));
    r->x = malloc(V * n * sizeof(*r->x));
    r->y = malloc(V * m * sizeof(*r->y));
    r->zx = malloc(V * m * sizeof(*r->zx));
    r->zy = malloc(V * n * sizeof(*r->zy));
    r->ex = malloc(V * m * sizeof(*r->ex));
    r->ey = malloc(V * n * sizeof(*r->ey));
    r->wx = malloc(V * m * sizeof(*r->wx));
    r->wy = malloc(V * n * sizeof(*r->wy));
    r->res = malloc(V * (m + n) * sizeof(*r->res));
    r->res_err = malloc(V * (m + n) * sizeof(*r->res_err));
    r->res_var = malloc(V * (m + n) * sizeof(*r->res_var));
    r->res_ref = malloc(V * (m + n) * sizeof(*r->res_ref));
    r->bad_col = malloc(m * sizeof(*r->bad_col));
    if (!job.bx || !job.ya || !job.bx_err || !job.ya_err || !job.bx_sq || !job.ya_sq || !r->x ||
        !r->y || !r->zx || !r->zy || !r->ex || !r->ey || !r->wx || !r->wy || !r->res ||
        !r->res_err || !r->res_var || !r->res_ref || !r->bad_col)
        goto out;
    random_weights(r->x, V * n, &seed);
    random_weights(r->y, V * m, &seed);
    for (unsigned v = 0; v < V; v++) {
        for (uint64_t j = 0; j < n; j++)
            r->x2[v] += r->x[v * n + j] * r->x[v * n + j];
        for (uint64_t i = 0; i < m; i++)
            r->y2[v] += r->y[v * m + i] * r->y[v * m + i];
    }
    parallel_for(K, n * V, pass_bx, &job);
    parallel_for(m, (K + n) * V, pass_rows, &job);
    parallel_for(K, m * V, pass_ya, &job);
    parallel_for(n, (K + m) * V, pass_cols, &job);
    rc = job.oom ? -1 : 0;
out:
    free(job.bx);
    free(job.ya);
    free(job.bx_err);
    free(job.ya_err);
    free(job.bx_sq);
    free(job.ya_sq);
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
    r->stored = d;
    if (!clb_gemm_mode_is_default(&d->mode)) {
        if (!(r->logical = dense_copy(d)) ||
            !(r->c_dense = malloc(d->shape.m * d->shape.n * clb_precision_bytes(d->precision))))
            goto oom;
        d = r->logical;
    }
    if (src == CLB_VERIFY_SOURCE_AUTO)
        src = auto_source(d->shape, d->precision);
    /* DGEMM is no higher precision for fp64, and a build without OpenBLAS has none. */
    if (src == CLB_VERIFY_SOURCE_DGEMM && (d->precision == CLB_FP64 || !HAVE_OPENBLAS))
        src = CLB_VERIFY_SOURCE_NAIVE;
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
    clb_gemm_data_destroy(r->logical);
    free(r->c_dense);
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
    free(r->res);
    free(r->res_err);
    free(r->res_var);
    free(r->res_ref);
    free(r->bad_col);
    free(r);
}

/*
 * The check with the worst statistic/tolerance ratio so far, named at the
 * end. Sums of squares are compared as their square roots, so every ratio
 * is in units of an error's size.
 */
enum check { CHECK_NONE, CHECK_NONFINITE, CHECK_ENTRY, CHECK_ROW, CHECK_COLUMN, CHECK_ROWS,
             CHECK_COLUMNS, CHECK_NORM, CHECK_MEMORY, CHECK_OFFSET, CHECK_PADDING };

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

static void name_check(const struct clb_gemm_reference *r, const struct worst *w, char *buf,
                       size_t len)
{
    const unsigned long long i = w->i, j = w->j;

    switch (w->check) {
    case CHECK_OFFSET:
        snprintf(buf, len, "C's offset changed: element %llu of its buffer", i);
        break;
    case CHECK_PADDING:
        snprintf(buf, len, "C's padding changed: element %llu of its buffer, after %s %llu", i,
                 r->stored->mode.col_major ? "column" : "row", j);
        break;
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
    case CHECK_MEMORY:
        snprintf(buf, len, "nothing: out of host memory while verifying");
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

/* Verify, rows: C x for every vector, and where the first non-finite entry is. */
FMA_CLONES static void verify_rows(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    struct clb_gemm_reference *r = job->r;
    const struct clb_gemm_data *d = r->data;
    const uint64_t m = d->shape.m, n = d->shape.n;

    for (uint64_t i = begin; i < end; i++) {
        struct acc s[V] = { 0 };
        double sq[V] = { 0 };
        r->bad_col[i] = -1;
        for (uint64_t j = 0; j < n; j++) {
            /* Tested as a double: valgrind runs long double as double, where LDBL_MAX is
             * infinite and so is every infinity's magnitude test. */
            const double value = clb_gemm_load(d->precision, job->c, i * n + j);
            if (!isfinite(value) && r->bad_col[i] < 0)
                r->bad_col[i] = (int64_t)j;
            for (unsigned v = 0; v < V; v++) {
                const double t = acc_mul(&s[v], value, r->x[v * n + j]);
                sq[v] += t * t;
            }
        }
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * m + i;
            double d_err;
            r->res[at] = distance(acc_value(&s[v]), r->zx[at], &d_err);
            r->res_err[at] = r->ex[at] + acc_err(&s[v], n) + d_err;
            r->res_var[at] = r->wx[at] + r->u2_3 * 3 * sq[v];
            r->res_ref[at] = wide_double(r->zx[at]);
        }
    }
}

/* Verify, columns: y'C for every vector, streaming C's rows. */
static void verify_cols(void *ctx, uint64_t begin, uint64_t end)
{
    struct freivalds_job *job = ctx;
    struct clb_gemm_reference *r = job->r;
    const struct clb_gemm_data *d = r->data;
    const uint64_t m = d->shape.m, n = d->shape.n, len = end - begin;
    struct accs acc;

    if (accs_init(&acc, V * len)) {
        job->oom = true;
        accs_finish(&acc);
        return;
    }
    weighted_column_sums(job->c, d->precision, m, n, r->y, begin, end, &acc);
    for (uint64_t j = begin; j < end; j++) {
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * len + (j - begin), col = v * n + j, out = V * m + col;
            double d_err;
            r->res[out] = distance(acc_value(&acc.sum[at]), r->zy[col], &d_err);
            r->res_err[out] = r->ey[col] + acc_err(&acc.sum[at], m) + d_err;
            r->res_var[out] = r->wy[col] + r->u2_3 * 3 * acc.sq[at];
            r->res_ref[out] = wide_double(r->zy[col]);
        }
    }
    accs_finish(&acc);
}

static void verify_freivalds(const struct clb_gemm_reference *r, const void *c,
                             struct clb_verify_result *out, struct worst *w)
{
    const uint64_t m = r->data->shape.m, n = r->data->shape.n;
    /* The scratch arrays are the reference's own; verify is not reentrant. */
    struct freivalds_job job = { .r = (struct clb_gemm_reference *)r, .c = c };
    double excess2[2] = { 0, 0 }, var[2] = { 0, 0 }, res2 = 0, ref2 = 0, mx = 0;
    bool finite = true;

    parallel_for(m, n * V, verify_rows, &job);
    parallel_for(n, m * V, verify_cols, &job);
    if (job.oom) {
        consider(w, INFINITY, 1, CHECK_MEMORY, 0, 0);
        out->max_abs_err = out->rel_err = out->noise_ratio = NAN;
        return;
    }
    for (uint64_t i = 0; i < m; i++) {
        if (r->bad_col[i] >= 0) {
            consider(w, INFINITY, 1, CHECK_NONFINITE, i, (uint64_t)r->bad_col[i]);
            finite = false;
        }
    }
    for (uint64_t at = 0; at < V * (m + n); at++) {
        const bool row = at < V * m;
        const double res = r->res[at], e = r->res_err[at];
        consider(w, res, LAMBDA_RESIDUAL * sqrt(r->res_var[at]) + e, row ? CHECK_ROW : CHECK_COLUMN,
                 row ? at % m : 0, row ? 0 : (at - V * m) % n);
        excess2[!row] += fmax(0, res - e) * fmax(0, res - e);
        var[!row] += r->res_var[at];
        res2 += res * res;
        ref2 += r->res_ref[at] * r->res_ref[at];
        mx = fmax(mx, res);
    }
    consider(w, sqrt(excess2[0]), sqrt(tau((double)(V * m)) * var[0]), CHECK_ROWS, 0, 0);
    consider(w, sqrt(excess2[1]), sqrt(tau((double)(V * n)) * var[1]), CHECK_COLUMNS, 0, 0);
    out->max_abs_err = finite ? mx : INFINITY;
    out->rel_err = ref2 > 0 ? sqrt(res2 / ref2) : res2 > 0 ? INFINITY : 0;
    out->noise_ratio = var[0] + var[1] > 0 ? sqrt((excess2[0] + excess2[1]) / (var[0] + var[1]))
                       : excess2[0] + excess2[1] > 0 ? INFINITY
                                                     : 0;
}

/*
 * Every element of C's buffer outside the matrix (the offset, each line's
 * padding) must be as C0 had it, bit for bit: the first one changed fails.
 */
static void check_outside(const struct clb_gemm_reference *r, const void *c, struct worst *w)
{
    const struct clb_gemm_data *d = r->stored;
    const struct clb_gemm_matrix_layout *l = &d->lc;
    const size_t es = clb_precision_bytes(d->precision);
    const char *got = c, *want = d->c0;

    for (uint64_t at = 0; at < l->offset; at++) {
        if (memcmp(got + at * es, want + at * es, es)) {
            consider(w, INFINITY, 1, CHECK_OFFSET, at, 0);
            return;
        }
    }
    for (uint64_t line = 0; l->ld > l->line_len && line < l->lines; line++) {
        const uint64_t from = l->offset + line * l->ld + l->line_len,
                       to = l->offset + (line + 1) * l->ld;
        if (!memcmp(got + from * es, want + from * es, (to - from) * es))
            continue;
        for (uint64_t at = from; at < to; at++) {
            if (memcmp(got + at * es, want + at * es, es)) {
                consider(w, INFINITY, 1, CHECK_PADDING, at, line);
                return;
            }
        }
    }
}

void clb_gemm_verify(const struct clb_gemm_reference *r, const void *c,
                     struct clb_verify_result *out)
{
    struct worst w = { 0, CHECK_NONE, 0, 0 };

    memset(out, 0, sizeof(*out));
    out->method = r->method;
    out->checked = r->data->shape.m * r->data->shape.n;
    if (r->logical) {
        const struct clb_gemm_shape s = r->data->shape;
        check_outside(r, c, &w);
        gather(c, &r->stored->lc, s.m, s.n, clb_precision_bytes(r->data->precision),
               r->c_dense);
        c = r->c_dense;
    }
    if (r->method == CLB_VERIFY_FULL)
        verify_full(r, c, out, &w);
    else
        verify_freivalds(r, c, out, &w);
    out->worst_ratio = w.ratio;
    out->passed = w.ratio <= 1.0;
    if (!out->passed)
        name_check(r, &w, out->failed, sizeof(out->failed));
}
