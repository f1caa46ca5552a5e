#include <CL/cl_half.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/core/gemm_data.h"
#include "clbench/util/rng.h"

bool clb_gemm_mode_is_default(const struct clb_gemm_mode *mode)
{
    return !mode || (!mode->trans_a && !mode->trans_b && !mode->col_major && !mode->ld_pad &&
                     !mode->offset);
}

const char *clb_gemm_mode_trans(const struct clb_gemm_mode *mode)
{
    static const char *const names[] = { "NN", "NT", "TN", "TT" };
    return mode ? names[2 * mode->trans_a + mode->trans_b] : names[0];
}

const char *clb_gemm_mode_layout(const struct clb_gemm_mode *mode)
{
    return mode && mode->col_major ? "col" : "row";
}

/* Appends " part" (no space first) to the string in buf, truncating. */
static void append(char *buf, size_t len, const char *part)
{
    const size_t used = strlen(buf);
    snprintf(buf + used, len - used, "%s%s", used ? " " : "", part);
}

void clb_gemm_mode_label(const struct clb_gemm_mode *mode, char *buf, size_t len)
{
    char part[32];

    if (!len)
        return;
    buf[0] = '\0';
    if (!mode)
        return;
    if (mode->trans_a || mode->trans_b)
        append(buf, len, clb_gemm_mode_trans(mode));
    if (mode->col_major)
        append(buf, len, "col");
    if (mode->ld_pad) {
        snprintf(part, sizeof(part), "ld+%" PRIu64, mode->ld_pad);
        append(buf, len, part);
    }
    if (mode->offset) {
        snprintf(part, sizeof(part), "off%" PRIu64, mode->offset);
        append(buf, len, part);
    }
}

void clb_gemm_layout(const struct clb_gemm_mode *mode, struct clb_gemm_shape s,
                     enum clb_gemm_matrix which, struct clb_gemm_matrix_layout *out)
{
    static const struct clb_gemm_mode none = { 0 };
    uint64_t rows, cols; /* of op(X) */
    bool trans;

    if (!mode)
        mode = &none;
    switch (which) {
    case CLB_GEMM_A:
        rows = s.m, cols = s.k, trans = mode->trans_a;
        break;
    case CLB_GEMM_B:
        rows = s.k, cols = s.n, trans = mode->trans_b;
        break;
    default:
        rows = s.m, cols = s.n, trans = false;
        break;
    }
    /* As stored: X^T when op transposes. */
    const uint64_t srows = trans ? cols : rows, scols = trans ? rows : cols;
    out->offset = mode->offset;
    out->line_len = mode->col_major ? srows : scols;
    out->lines = mode->col_major ? scols : srows;
    out->ld = out->line_len + mode->ld_pad;
    /* Along a stored line the step is 1; a line of op(X) is one of X unless exactly one of
     * the transpose and the column-major storage turns it. */
    if (trans == mode->col_major) {
        out->row_stride = out->ld;
        out->col_stride = 1;
    } else {
        out->row_stride = 1;
        out->col_stride = out->ld;
    }
    out->elems = out->offset + out->lines * out->ld;
}

bool clb_gemm_layout_sane(const struct clb_gemm_mode *mode, struct clb_gemm_shape s,
                          uint64_t max_elems, char *why, size_t len)
{
    for (int w = CLB_GEMM_A; w <= CLB_GEMM_C; w++) {
        struct clb_gemm_matrix_layout l;
        uint64_t body, elems;
        clb_gemm_layout(mode, s, (enum clb_gemm_matrix)w, &l);
        if (l.ld > (uint64_t)INT32_MAX) {
            snprintf(why, len, "the leading dimension of %c exceeds %d (BLAS index limit)",
                     "ABC"[w], INT32_MAX);
            return false;
        }
        if (__builtin_mul_overflow(l.lines, l.ld, &body) ||
            __builtin_add_overflow(body, l.offset, &elems) || elems > max_elems) {
            snprintf(why, len, "the buffer of %c has more than %" PRIu64 " elements", "ABC"[w],
                     max_elems);
            return false;
        }
    }
    return true;
}

/* Random values, never zero, into the matrix's entries in row-major order of op(X). */
static void fill(enum clb_precision p, void *m, const struct clb_gemm_matrix_layout *l,
                 uint64_t rows, uint64_t cols, uint64_t *state)
{
    for (uint64_t i = 0; i < rows; i++) {
        for (uint64_t j = 0; j < cols; j++) {
            const size_t at = clb_gemm_at(l, i, j);
            do {
                double u = (double)(clb_rng_next(state) >> 11) * 0x1p-53; /* [0, 1) */
                clb_gemm_store(p, m, at, 2.0 * u - 1.0);
            } while (clb_gemm_load(p, m, at) == 0.0);
        }
    }
}

/* The whole buffer CLB_GEMM_PAD_VALUE, where there is padding or an offset. */
static void pad(enum clb_precision p, void *m, const struct clb_gemm_matrix_layout *l)
{
    if (l->elems == l->lines * l->line_len)
        return;
    for (size_t i = 0; i < l->elems; i++)
        clb_gemm_store(p, m, i, CLB_GEMM_PAD_VALUE);
}

struct clb_gemm_data *clb_gemm_data_create(struct clb_gemm_shape shape, enum clb_precision p,
                                           double alpha, double beta, uint64_t seed,
                                           struct clb_error *e)
{
    return clb_gemm_data_create_mode(shape, p, alpha, beta, NULL, seed, e);
}

struct clb_gemm_data *clb_gemm_data_create_mode(struct clb_gemm_shape shape,
                                                enum clb_precision p, double alpha,
                                                double beta, const struct clb_gemm_mode *mode,
                                                uint64_t seed, struct clb_error *e)
{
    struct clb_gemm_data *d = calloc(1, sizeof(*d));
    size_t es = clb_precision_bytes(p);

    if (!d)
        goto oom;
    d->shape = shape;
    d->precision = p;
    d->alpha = alpha;
    d->beta = beta;
    if (mode)
        d->mode = *mode;
    clb_gemm_layout(&d->mode, shape, CLB_GEMM_A, &d->la);
    clb_gemm_layout(&d->mode, shape, CLB_GEMM_B, &d->lb);
    clb_gemm_layout(&d->mode, shape, CLB_GEMM_C, &d->lc);
    d->a = malloc(d->la.elems * es);
    d->b = malloc(d->lb.elems * es);
    d->c0 = malloc(d->lc.elems * es);
    if (!d->a || !d->b || !d->c0)
        goto oom;
    pad(p, d->a, &d->la);
    pad(p, d->b, &d->lb);
    pad(p, d->c0, &d->lc);
    fill(p, d->a, &d->la, shape.m, shape.k, &seed);
    fill(p, d->b, &d->lb, shape.k, shape.n, &seed);
    fill(p, d->c0, &d->lc, shape.m, shape.n, &seed);
    return d;

oom:
    clb_gemm_data_destroy(d);
    clb_error_set(e, "out of host memory for the input matrices");
    return NULL;
}

void clb_gemm_data_destroy(struct clb_gemm_data *d)
{
    if (!d)
        return;
    free(d->a);
    free(d->b);
    free(d->c0);
    free(d);
}
