#include "clbench/util/parallel.h"
#include "verify_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
            consider(w, sqrt(row), sqrt(clb_vf_tau((double)n) * r->row_var[i]), CHECK_ROW, i, 0);
        total += row;
    }
    for (uint64_t j = 0; m >= MIN_AGGREGATE && j < n; j++)
        consider(w, sqrt(r->col_err2[j]), sqrt(clb_vf_tau((double)m) * r->col_var[j]),
                 CHECK_COLUMN, 0, j);
    if (m * n >= MIN_AGGREGATE)
        consider(w, sqrt(total), sqrt(clb_vf_tau((double)(m * n)) * r->total_var), CHECK_NORM, 0,
                 0);
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

    if (clb_vf_accs_init(&acc, V * len)) {
        job->oom = true;
        clb_vf_accs_finish(&acc);
        return;
    }
    clb_vf_weighted_column_sums(job->c, d->precision, m, n, r->y, begin, end, &acc);
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
    clb_vf_accs_finish(&acc);
}

static void verify_freivalds(const struct clb_gemm_reference *r, const void *c,
                             struct clb_verify_result *out, struct worst *w)
{
    const uint64_t m = r->data->shape.m, n = r->data->shape.n;
    /* The scratch arrays are the reference's own; verify is not reentrant. */
    struct freivalds_job job = { .r = (struct clb_gemm_reference *)r, .c = c };
    double excess2[2] = { 0, 0 }, var[2] = { 0, 0 }, res2 = 0, ref2 = 0, mx = 0;
    bool finite = true;

    clb_parallel_for(m, n * V, verify_rows, &job);
    clb_parallel_for(n, m * V, verify_cols, &job);
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
    consider(w, sqrt(excess2[0]), sqrt(clb_vf_tau((double)(V * m)) * var[0]), CHECK_ROWS, 0, 0);
    consider(w, sqrt(excess2[1]), sqrt(clb_vf_tau((double)(V * n)) * var[1]), CHECK_COLUMNS, 0, 0);
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
        clb_vf_gather(c, &r->stored->lc, s.m, s.n, clb_precision_bytes(r->data->precision),
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
