#include "clbench/results/roofline.h"

#include <stdlib.h>
#include <string.h>

const enum clb_precision clb_roof_precision[CLB_ROOF_PRECISIONS] = { CLB_FP32, CLB_FP64,
                                                                    CLB_FP16 };

static double elem_bytes(enum clb_precision precision)
{
    return precision == CLB_FP64 ? 8 : precision == CLB_FP16 ? 2 : 4;
}

/* A verified figure of `device` from the rank of of_rank (in a single run, any row). */
static bool measured_on(const struct clb_row *r, const char *device,
                        const struct clb_row *of_rank)
{
    return !strcmp(r->device_name, device) && r->has_value && r->rank == of_rank->rank;
}

int clb_roofline_of(const struct clb_result_file *f, const char *device,
                    const struct clb_row *of_rank, struct clb_roofline *roof)
{
    memset(roof, 0, sizeof(*roof));
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        if (!measured_on(r, device, of_rank))
            continue;
        if (clb_result_row_is_triad(r))
            roof->bandwidth = r->value;
        for (int p = 0; p < CLB_ROOF_PRECISIONS; p++)
            if (r->benchmark == CLB_BENCH_PEAK && r->headline &&
                r->precision == clb_roof_precision[p])
                roof->peak[p] = r->best > 0 ? r->best : r->value;
    }
    if (roof->bandwidth <= 0 || (roof->peak[0] <= 0 && roof->peak[1] <= 0 && roof->peak[2] <= 0)) {
        memset(roof, 0, sizeof(*roof));
        return 0;
    }
    if (!(roof->points = calloc(f->n_rows + 1, sizeof(*roof->points))))
        return -1;
    for (size_t i = 0; i < f->n_rows; i++) {
        const struct clb_row *r = &f->rows[i];
        if (!measured_on(r, device, of_rank) || r->benchmark != CLB_BENCH_GEMM || !r->shape.m)
            continue;
        const double ai = 2.0 * r->shape.m * r->shape.n * r->shape.k /
                          (((double)r->shape.m * r->shape.k + (double)r->shape.k * r->shape.n + 2.0 * r->shape.m * r->shape.n) *
                           elem_bytes(r->precision));
        const int p = r->precision == CLB_FP64 ? 1 : r->precision == CLB_FP16 ? 2 : 0;
        roof->points[roof->n_points++] = (struct clb_roof_point){ r, ai, p };
    }
    return 1;
}

void clb_roofline_finish(struct clb_roofline *r)
{
    free(r->points);
    r->points = NULL;
    r->n_points = 0;
}
