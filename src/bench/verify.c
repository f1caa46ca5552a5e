#include "clbench/verify.h"
#include "clbench/rng.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Above this, even fp32's DGEMM reference costs too long; sample instead. */
#define FULL_DGEMM_MNK (UINT64_C(1) << 36)

struct clb_gemm_reference {
    const struct clb_gemm_data *data;
    double *full;        /* m*n reference values, or NULL when sampled */
    uint64_t *idx;       /* sampled entry indices (row-major) */
    double *val;         /* their reference values */
    size_t n_samples;
    double scale_norm2;  /* sum of S_ij^2 over the entries checked */
    double tol_abs, tol_rel;
};

static double max_abs(const struct clb_gemm_data *d, const void *m, size_t count)
{
    double mx = 0.0;
    for (size_t i = 0; i < count; i++) {
        double v = fabs(clb_gemm_load(d->precision, m, i));
        if (v > mx)
            mx = v;
    }
    return mx;
}

/*
 * One entry and its scale in long double from the exact inputs: independent
 * of any BLAS. Returns R_ij; *scale gets S_ij.
 */
static double entry(const struct clb_gemm_data *d, uint64_t i, uint64_t j, double *scale)
{
    const struct clb_gemm_shape s = d->shape;
    const enum clb_precision p = d->precision;
    long double acc = 0.0L, mag = 0.0L;

    for (uint64_t q = 0; q < s.k; q++) {
        long double t = (long double)clb_gemm_load(p, d->a, i * s.k + q) *
                        (long double)clb_gemm_load(p, d->b, q * s.n + j);
        acc += t;
        mag += fabsl(t);
    }
    long double c0 = clb_gemm_load(p, d->c0, i * s.n + j);
    *scale = (double)(fabsl((long double)d->alpha) * mag + fabsl((long double)d->beta * c0));
    return (double)((long double)d->alpha * acc + (long double)d->beta * c0);
}

static int full_naive(struct clb_gemm_reference *r)
{
    const struct clb_gemm_data *d = r->data;
    double scale;

    for (uint64_t i = 0; i < d->shape.m; i++) {
        for (uint64_t j = 0; j < d->shape.n; j++) {
            r->full[i * d->shape.n + j] = entry(d, i, j, &scale);
            r->scale_norm2 += scale * scale;
        }
    }
    return 0;
}

static double *widen(const struct clb_gemm_data *d, const void *m, size_t count, bool absolute)
{
    double *w = malloc(count * sizeof(*w));
    for (size_t i = 0; w && i < count; i++) {
        w[i] = clb_gemm_load(d->precision, m, i);
        if (absolute)
            w[i] = fabs(w[i]);
    }
    return w;
}

/* C = alpha op(A) op(B) + beta C in double, on widened (optionally |x|) inputs. */
static int dgemm_widened(const struct clb_gemm_data *d, bool absolute, double *c)
{
    const struct clb_gemm_shape s = d->shape;
    double *a = widen(d, d->a, s.m * s.k, absolute), *b = widen(d, d->b, s.k * s.n, absolute);
    int rc = -1;

    if (a && b) {
        for (size_t i = 0; i < s.m * s.n; i++) {
            c[i] = clb_gemm_load(d->precision, d->c0, i);
            if (absolute)
                c[i] = fabs(c[i]);
        }
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)s.m, (blasint)s.n,
                    (blasint)s.k, absolute ? fabs(d->alpha) : d->alpha, a, (blasint)s.k, b,
                    (blasint)s.n, absolute ? fabs(d->beta) : d->beta, c, (blasint)s.n);
        rc = 0;
    }
    free(a);
    free(b);
    return rc;
}

/* fp32/fp16 inputs are exact in double, and DGEMM's rounding is ~2^-29 of fp32's. */
static int full_dgemm(struct clb_gemm_reference *r)
{
    const struct clb_gemm_data *d = r->data;
    const size_t count = d->shape.m * d->shape.n;
    double *scale = malloc(count * sizeof(*scale));
    int rc = -1;

    if (scale && dgemm_widened(d, false, r->full) == 0 && dgemm_widened(d, true, scale) == 0) {
        for (size_t i = 0; i < count; i++)
            r->scale_norm2 += scale[i] * scale[i];
        rc = 0;
    }
    free(scale);
    return rc;
}

/* Random entries, plus the whole last row and column, where edge tiles go wrong. */
static int sampled(struct clb_gemm_reference *r, uint64_t seed)
{
    const struct clb_gemm_shape s = r->data->shape;
    size_t cap = CLB_VERIFY_SAMPLES + s.m + s.n;
    double scale;

    r->idx = malloc(cap * sizeof(*r->idx));
    r->val = malloc(cap * sizeof(*r->val));
    if (!r->idx || !r->val)
        return -1;
    for (size_t t = 0; t < CLB_VERIFY_SAMPLES; t++)
        r->idx[r->n_samples++] = clb_rng_next(&seed) % (s.m * s.n);
    for (uint64_t j = 0; j < s.n; j++)
        r->idx[r->n_samples++] = (s.m - 1) * s.n + j;
    for (uint64_t i = 0; i < s.m; i++)
        r->idx[r->n_samples++] = i * s.n + s.n - 1;
    for (size_t t = 0; t < r->n_samples; t++) {
        r->val[t] = entry(r->data, r->idx[t] / s.n, r->idx[t] % s.n, &scale);
        r->scale_norm2 += scale * scale;
    }
    return 0;
}

enum ref_mode { REF_NAIVE, REF_DGEMM, REF_SAMPLED };

static enum ref_mode ref_mode(struct clb_gemm_shape s, enum clb_precision p)
{
    uint64_t mnk;

    if (__builtin_mul_overflow(s.m * s.n, s.k, &mnk))
        return REF_SAMPLED;
    if (mnk <= CLB_VERIFY_FULL_MNK)
        return REF_NAIVE;
    return p != CLB_FP64 && mnk <= FULL_DGEMM_MNK ? REF_DGEMM : REF_SAMPLED;
}

uint64_t clb_gemm_reference_bytes(struct clb_gemm_shape s, enum clb_precision p)
{
    switch (ref_mode(s, p)) {
    case REF_NAIVE:
        return s.m * s.n * 8;
    case REF_DGEMM: /* reference, scale, and the widened A and B */
        return (2 * s.m * s.n + s.m * s.k + s.k * s.n) * 8;
    case REF_SAMPLED:
        break;
    }
    return (CLB_VERIFY_SAMPLES + s.m + s.n) * 16;
}

struct clb_gemm_reference *clb_gemm_reference_create(const struct clb_gemm_data *d,
                                                     uint64_t seed, struct clb_error *e)
{
    const struct clb_gemm_shape s = d->shape;
    const enum ref_mode mode = ref_mode(s, d->precision);
    const double u = clb_precision_unit_roundoff(d->precision);
    struct clb_gemm_reference *r = calloc(1, sizeof(*r));
    int rc;

    if (!r)
        goto oom;
    r->data = d;
    r->tol_abs = 4.0 * u * (double)s.k * fabs(d->alpha) * max_abs(d, d->a, s.m * s.k) *
                     max_abs(d, d->b, s.k * s.n) +
                 4.0 * u * fabs(d->beta) * max_abs(d, d->c0, s.m * s.n);
    r->tol_rel = 8.0 * u;
    if (mode != REF_SAMPLED) {
        if (!(r->full = malloc(s.m * s.n * sizeof(*r->full))))
            goto oom;
        rc = mode == REF_NAIVE ? full_naive(r) : full_dgemm(r);
    } else {
        rc = sampled(r, seed);
    }
    if (rc != 0)
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
    free(r->full);
    free(r->idx);
    free(r->val);
    free(r);
}

void clb_gemm_verify(const struct clb_gemm_reference *r, const void *c,
                     struct clb_verify_result *out)
{
    const struct clb_gemm_data *d = r->data;
    const size_t count = r->full ? d->shape.m * d->shape.n : r->n_samples;
    double err2 = 0.0, mx = 0.0;
    bool finite = true;

    for (size_t t = 0; t < count; t++) {
        uint64_t i = r->full ? t : r->idx[t];
        double want = r->full ? r->full[t] : r->val[t];
        double got = clb_gemm_load(d->precision, c, i);
        double diff = fabs(got - want);
        if (!isfinite(got)) {
            finite = false;
            diff = INFINITY;
        }
        if (diff > mx)
            mx = diff;
        err2 += diff * diff;
    }
    memset(out, 0, sizeof(*out));
    out->max_abs_err = mx;
    out->rel_err = r->scale_norm2 > 0.0 ? sqrt(err2 / r->scale_norm2) : sqrt(err2);
    out->tol_abs = r->tol_abs;
    out->tol_rel = r->tol_rel;
    out->checked = count;
    out->full = r->full != NULL;
    out->passed = finite && mx <= r->tol_abs && out->rel_err <= r->tol_rel;
}
