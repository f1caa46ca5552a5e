#include <CL/cl_half.h>
#include <stdlib.h>

#include "clbench/core/gemm_data.h"
#include "clbench/util/rng.h"

double clb_gemm_load(enum clb_precision p, const void *m, size_t i)
{
    switch (p) {
    case CLB_FP64:
        return ((const double *)m)[i];
    case CLB_FP16:
        return clb_half_to_double(((const cl_half *)m)[i]);
    default:
        return ((const float *)m)[i];
    }
}

static void store(enum clb_precision p, void *m, size_t i, double v)
{
    switch (p) {
    case CLB_FP64:
        ((double *)m)[i] = v;
        break;
    case CLB_FP16:
        ((cl_half *)m)[i] = cl_half_from_float((float)v, CL_HALF_RTE);
        break;
    default:
        ((float *)m)[i] = (float)v;
        break;
    }
}

static void fill(enum clb_precision p, void *m, size_t count, uint64_t *state)
{
    for (size_t i = 0; i < count; i++) {
        do {
            double u = (double)(clb_rng_next(state) >> 11) * 0x1p-53; /* [0, 1) */
            store(p, m, i, 2.0 * u - 1.0);
        } while (clb_gemm_load(p, m, i) == 0.0);
    }
}

struct clb_gemm_data *clb_gemm_data_create(struct clb_gemm_shape shape, enum clb_precision p,
                                           double alpha, double beta, uint64_t seed,
                                           struct clb_error *e)
{
    struct clb_gemm_data *d = calloc(1, sizeof(*d));
    size_t es = clb_precision_bytes(p);

    if (!d)
        goto oom;
    d->shape = shape;
    d->precision = p;
    d->alpha = alpha;
    d->beta = beta;
    d->a = malloc(shape.m * shape.k * es);
    d->b = malloc(shape.k * shape.n * es);
    d->c0 = malloc(shape.m * shape.n * es);
    if (!d->a || !d->b || !d->c0)
        goto oom;
    fill(p, d->a, shape.m * shape.k, &seed);
    fill(p, d->b, shape.k * shape.n, &seed);
    fill(p, d->c0, shape.m * shape.n, &seed);
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
