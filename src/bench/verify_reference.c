#include "clbench/util/parallel.h"
#include "clbench/util/rng.h"
#include "config.h"
#include "verify_parts.h"

#if HAVE_OPENBLAS
#include <cblas.h>
#endif
#include <math.h>
#include <stdlib.h>

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
        clb_vf_entry_tolerance(r, r->ref[at], acc_abs(&acc), p, c0, err, &r->tol[at], &r->var[at]);
    }
}

/* Every entry, on up to one thread per available CPU. */
static void full_naive(struct clb_gemm_reference *r)
{
    const struct clb_gemm_shape sh = r->data->shape;

    clb_parallel_for(sh.m * sh.n, sh.k, naive_entries, r);
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
        const double err = clb_vf_gamma_n(k + 3, 0x1p-53) * (fabs(d->alpha) * s + fabs(d->beta * c0));
        clb_vf_entry_tolerance(r, r->ref[i], s, p[i], c0, err, &r->tol[i], &r->var[i]);
    }
    rc = 0;
out:
    free(a);
    free(b);
    free(p);
    return rc;
}

#endif

int clb_vf_full_create(struct clb_gemm_reference *r, enum clb_verify_source src)
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


int clb_vf_accs_init(struct accs *a, size_t n)
{
    a->sum = calloc(n, sizeof(*a->sum));
    a->sq = calloc(n, sizeof(*a->sq));
    a->carried = calloc(n, sizeof(*a->carried));
    return a->sum && a->sq && a->carried ? 0 : -1;
}

void clb_vf_accs_finish(struct accs *a)
{
    free(a->sum);
    free(a->sq);
    free(a->carried);
}

FMA_CLONES void clb_vf_weighted_column_sums(const void *mat, enum clb_precision p,
                                            uint64_t rows, uint64_t cols, const double *w,
                                            uint64_t begin, uint64_t end, struct accs *acc)
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
    const double ul = clb_vf_underflow_unit(pr), uvar = clb_vf_underflow_ops(d, true) * ul * ul / 3;

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

    if (clb_vf_accs_init(&acc, V * len)) {
        job->oom = true;
        clb_vf_accs_finish(&acc);
        return;
    }
    clb_vf_weighted_column_sums(d->a, d->precision, m, K, job->r->y, begin, end, &acc);
    for (uint64_t q = begin; q < end; q++) {
        for (unsigned v = 0; v < V; v++) {
            const size_t at = v * len + (q - begin);
            job->ya[v * K + q] = acc_value(&acc.sum[at]);
            job->ya_err[v * K + q] = acc_err(&acc.sum[at], m);
            job->ya_sq[v * K + q] = acc.sq[at];
        }
    }
    clb_vf_accs_finish(&acc);
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
    const double ul = clb_vf_underflow_unit(pr), uvar = clb_vf_underflow_ops(d, true) * ul * ul / 3;
    struct accs ab = { 0 }, c0 = { 0 };

    if (clb_vf_accs_init(&ab, V * len) || clb_vf_accs_init(&c0, V * len)) {
        job->oom = true;
        clb_vf_accs_finish(&ab);
        clb_vf_accs_finish(&c0);
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
        clb_vf_weighted_column_sums(d->c0, pr, m, n, r->y, begin, end, &c0);
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
    clb_vf_accs_finish(&ab);
    clb_vf_accs_finish(&c0);
}

int clb_vf_freivalds_create(struct clb_gemm_reference *r, uint64_t seed)
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
    clb_parallel_for(K, n * V, pass_bx, &job);
    clb_parallel_for(m, (K + n) * V, pass_rows, &job);
    clb_parallel_for(K, m * V, pass_ya, &job);
    clb_parallel_for(n, (K + m) * V, pass_cols, &job);
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
