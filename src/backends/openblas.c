/* The CPU baseline: OpenBLAS's SGEMM/DGEMM on host memory. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/gemm.h"

struct openblas_state {
    const struct clb_gemm_data *data;
    void *c; /* m*n, the output */
};

static json_t *openblas_info(void)
{
    const char *config = openblas_get_config();
    char version[32] = "unknown";

    /* The config string starts "OpenBLAS 0.3.21 ...". */
    sscanf(config, "OpenBLAS %31s", version);
    return json_pack("{s:s, s:s, s:s, s:i, s:s}", "library", "OpenBLAS", "version", version,
                     "core", openblas_get_corename(), "threads", openblas_get_num_threads(),
                     "config", config);
}

static bool openblas_supports(const struct clb_device *dev, enum clb_precision p, char *why,
                              size_t why_len)
{
    (void)dev;
    if (p == CLB_FP16) {
        snprintf(why, why_len, "OpenBLAS has no fp16 GEMM");
        return false;
    }
    return true;
}

static int openblas_upload(void *state, struct clb_error *e)
{
    struct openblas_state *s = state;
    const struct clb_gemm_data *d = s->data;

    (void)e;
    /* A and B are read in place; only C changes, so only C is reset. */
    memcpy(s->c, d->c0, d->shape.m * d->shape.n * clb_precision_bytes(d->precision));
    return 0;
}

static void *openblas_create(const struct clb_device *dev, const struct clb_cl_env *env,
                             const struct clb_gemm_data *data, struct clb_error *e)
{
    struct openblas_state *s = calloc(1, sizeof(*s));

    (void)dev;
    (void)env;
    if (!s || !(s->c = malloc(data->shape.m * data->shape.n * clb_precision_bytes(data->precision)))) {
        free(s);
        clb_error_set(e, "out of host memory for C");
        return NULL;
    }
    s->data = data;
    openblas_upload(s, e);
    return s;
}

static int openblas_run(void *state, struct clb_error *e)
{
    struct openblas_state *s = state;
    const struct clb_gemm_data *d = s->data;
    const blasint m = (blasint)d->shape.m, n = (blasint)d->shape.n, k = (blasint)d->shape.k;

    (void)e;
    if (d->precision == CLB_FP64)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, d->alpha, d->a, k,
                    d->b, n, d->beta, s->c, n);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, (float)d->alpha, d->a,
                    k, d->b, n, (float)d->beta, s->c, n);
    return 0;
}

static int openblas_download(void *state, void *c, struct clb_error *e)
{
    struct openblas_state *s = state;

    (void)e;
    memcpy(c, s->c, s->data->shape.m * s->data->shape.n * clb_precision_bytes(s->data->precision));
    return 0;
}

static void openblas_destroy(void *state)
{
    struct openblas_state *s = state;

    if (!s)
        return;
    free(s->c);
    free(s);
}

static void openblas_set_threads(unsigned n)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    openblas_set_num_threads(n ? (int)n : (int)(cores > 0 ? cores : 1));
}

static unsigned openblas_get_threads(void)
{
    return (unsigned)openblas_get_num_threads();
}

const struct clb_gemm_backend clb_backend_openblas = {
    .name = "openblas",
    .on_device = false,
    .info = openblas_info,
    .supports = openblas_supports,
    .create = openblas_create,
    .upload = openblas_upload,
    .run = openblas_run,
    .download = openblas_download,
    .destroy = openblas_destroy,
    .set_threads = openblas_set_threads,
    .get_threads = openblas_get_threads,
};
