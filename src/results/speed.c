#include "clbench/results/speed.h"

#include <stdlib.h>
#include <string.h>

/* One device: its name and id, and in a fleet file the same rank's ("0:0" on every node). */
static bool same_device(const struct clb_speed_row *r, const struct clb_device_speed *s)
{
    return !strcmp(r->device, s->device) && !strcmp(r->device_id, s->device_id) &&
           r->rank == s->rank;
}

/* The entry of r's device, added when new; NULL when out of room. */
static struct clb_device_speed *entry(const struct clb_speed_row *r,
                                      struct clb_device_speed *out, size_t *n, size_t cap)
{
    for (size_t i = 0; i < *n; i++)
        if (same_device(r, &out[i]))
            return &out[i];
    if (*n == cap)
        return NULL;
    out[*n] = (struct clb_device_speed){ .device = r->device, .device_id = r->device_id,
                                         .host = r->host, .rank = r->rank,
                                         .precision = CLB_PRECISION_NONE };
    return &out[(*n)++];
}

static bool prefill_row(const struct clb_row *r)
{
    return r->role.role && r->role.phase && !strcmp(r->role.phase, "prefill") && r->has_value &&
           r->median_s > 0 && r->benchmark == CLB_BENCH_GEMM;
}

size_t clb_speed_rows_of_file(const struct clb_result_file *f, struct clb_speed_row *rows)
{
    size_t n = 0;

    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        const bool triad = clb_result_row_is_triad(r) && r->has_value;
        if (!triad && !prefill_row(r))
            continue;
        rows[n++] = (struct clb_speed_row){ .device = r->device_name, .device_id = r->device_id,
                                            .host = r->host, .rank = r->rank,
                                            .backend = r->backend, .precision = r->precision,
                                            .triad = triad, .bandwidth_gbps = r->value,
                                            .prefill = !triad, .per_layer = r->role.per_layer,
                                            .m = r->shape.m, .n = r->shape.n, .k = r->shape.k,
                                            .median_s = r->median_s };
    }
    return n;
}

/* Whether a row's precision is the one asked for (none asked: every one is). */
static bool preferred(enum clb_precision precision, enum clb_precision want)
{
    return want == CLB_PRECISION_NONE || precision == want;
}

size_t clb_speeds_of_rows(const struct clb_speed_row *rows, size_t n_rows,
                          enum clb_precision precision,
                          struct clb_device_speed *out, size_t cap)
{
    size_t n = 0;

    for (size_t i = 0; i < n_rows; i++) {
        const struct clb_speed_row *r = &rows[i];
        struct clb_device_speed *s;
        if (r->triad && (s = entry(r, out, &n, cap)) &&
            !s->bandwidth_gbps) /* either precision's: the same bytes per second */
            s->bandwidth_gbps = r->bandwidth_gbps;
        if (!r->prefill || !(s = entry(r, out, &n, cap)))
            continue;
        /* This backend's layer on this device: its rows' time and work together. */
        double flops = 0, seconds = 0;
        unsigned roles = 0;
        for (size_t j = 0; j < n_rows; j++) {
            const struct clb_speed_row *q = &rows[j];
            if (q->prefill && same_device(q, s) && !strcmp(q->backend, r->backend) &&
                q->precision == r->precision) {
                flops += q->per_layer * 2.0 * (double)q->m * (double)q->n * (double)q->k;
                seconds += q->per_layer * q->median_s;
                roles++;
            }
        }
        const double gflops = flops / seconds * 1e-9;
        /* The precision asked for beats another; then a whole layer part of one; then the
         * faster backend. */
        const bool want = preferred(r->precision, precision),
                   had = s->backend && preferred(s->precision, precision);
        if (!s->backend || want > had ||
            (want == had && (roles > s->prefill_roles ||
                             (roles == s->prefill_roles && gflops > s->prefill_gflops)))) {
            s->backend = r->backend;
            s->precision = r->precision;
            s->prefill_gflops = gflops;
            s->prefill_roles = roles;
        }
    }
    return n;
}

size_t clb_result_speeds(const struct clb_result_file *f, enum clb_precision precision,
                         struct clb_device_speed *out, size_t cap)
{
    struct clb_speed_row *rows = calloc(f->n_rows + 1, sizeof(*rows));

    if (!rows)
        return 0;
    const size_t n = clb_speeds_of_rows(rows, clb_speed_rows_of_file(f, rows), precision, out,
                                        cap);
    free(rows);
    return n;
}
