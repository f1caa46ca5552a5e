#include "clbench/bench/verify.h"
#include "config.h"
#include "verify_parts.h"

#include <stdlib.h>
#include <string.h>

const char *clb_verify_method_name(enum clb_verify_method m)
{
    return m == CLB_VERIFY_FREIVALDS ? "freivalds" : "full";
}

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

void clb_vf_gather(const void *src, const struct clb_gemm_matrix_layout *l, uint64_t rows,
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
    clb_vf_gather(d->a, &d->la, s.m, s.k, es, c->a);
    clb_vf_gather(d->b, &d->lb, s.k, s.n, es, c->b);
    clb_vf_gather(d->c0, &d->lc, s.m, s.n, es, c->c0);
    return c;
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
    if (src == CLB_VERIFY_SOURCE_FREIVALDS ? clb_vf_freivalds_create(r, seed)
                                           : clb_vf_full_create(r, src))
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
