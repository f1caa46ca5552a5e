/* The CPU baseline: OpenBLAS's SGEMM/DGEMM on host memory. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/backends/backend.h"
#include "clbench/backends/blascore.h"
#include "clbench/cl/env.h"
#include "clbench/util/cpu.h"
#include "identity.h"

struct openblas_state {
    const struct clb_gemm_data *data;
    void *c; /* C's buffer (data->lc.elems), the output */
};

static void openblas_info(struct clb_library_info *out)
{
    const char *config = openblas_get_config();
    const struct clb_blas_core_state *s = clb_blas_core_state();
    char version[32] = "unknown";

    /* The config string starts "OpenBLAS 0.3.21 ...". */
    sscanf(config, "OpenBLAS %31s", version);
    snprintf(out->library, sizeof(out->library), "%s", CLB_OPENBLAS_LIBRARY);
    snprintf(out->version, sizeof(out->version), "%s", version);
    clb_library_str(out, "core", s->core);
    clb_library_int(out, "threads", openblas_get_num_threads());
    clb_library_int(out, "threads_available", clb_cpu_count_available());
    clb_library_str(out, "config", config);
    clb_library_str(out, "core_check.cpu_isa", clb_cpu_level_name(s->cpu_level));
    clb_library_str(out, "core_check.core_isa",
                    s->core_known ? clb_cpu_level_name(s->core_level) : NULL);
    clb_library_bool(out, "core_check.older_than_cpu", s->older);
    clb_library_str(out, "core_check.chosen_by", clb_blas_core_source_name(s->source));
    clb_library_str(out, "core_check.openblas_picked", s->picked[0] ? s->picked : NULL);
    clb_library_str(out, "core_check.requested", s->requested[0] ? s->requested : NULL);
    clb_library_str(out, "core_check.note", s->note[0] ? s->note : NULL);
}

static bool openblas_handicap(char *why, size_t len, enum clb_cpu_level *level)
{
    const struct clb_blas_core_state *s = clb_blas_core_state();

    if (!s->older || !s->core_known)
        return false;
    *level = s->core_level;
    snprintf(why, len, "OpenBLAS runs core %s (%s kernels) on this %s CPU%s%s%s", s->core,
             clb_cpu_level_name(s->core_level), clb_cpu_level_name(s->cpu_level),
             s->best[0] ? "; core " : "", s->best, s->best[0] ? " would use all of it" : "");
    return true;
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
    memcpy(s->c, d->c0, d->lc.elems * clb_precision_bytes(d->precision));
    return 0;
}

static void *openblas_create(const struct clb_device *dev, const struct clb_cl_env *env,
                             const struct clb_gemm_data *data,
                             const struct clb_tune_params *stored, struct clb_error *e)
{
    struct openblas_state *s = calloc(1, sizeof(*s));

    (void)dev;
    (void)env;
    (void)stored;
    if (!s || !(s->c = malloc(data->lc.elems * clb_precision_bytes(data->precision)))) {
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
    const blasint lda = (blasint)d->la.ld, ldb = (blasint)d->lb.ld, ldc = (blasint)d->lc.ld;
    const enum CBLAS_ORDER order = d->mode.col_major ? CblasColMajor : CblasRowMajor;
    const enum CBLAS_TRANSPOSE ta = d->mode.trans_a ? CblasTrans : CblasNoTrans;
    const enum CBLAS_TRANSPOSE tb = d->mode.trans_b ? CblasTrans : CblasNoTrans;

    (void)e;
    /* Offsets are where each matrix starts in its buffer. */
    if (d->precision == CLB_FP64)
        cblas_dgemm(order, ta, tb, m, n, k, d->alpha, (const double *)d->a + d->la.offset, lda,
                    (const double *)d->b + d->lb.offset, ldb, d->beta,
                    (double *)s->c + d->lc.offset, ldc);
    else
        cblas_sgemm(order, ta, tb, m, n, k, (float)d->alpha, (const float *)d->a + d->la.offset,
                    lda, (const float *)d->b + d->lb.offset, ldb, (float)d->beta,
                    (float *)s->c + d->lc.offset, ldc);
    return 0;
}

static int openblas_download(void *state, void *c, struct clb_error *e)
{
    struct openblas_state *s = state;

    (void)e;
    memcpy(c, s->c, s->data->lc.elems * clb_precision_bytes(s->data->precision));
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
    openblas_set_num_threads((int)(n ? n : clb_cpu_count_available()));
}

static unsigned openblas_get_threads(void)
{
    return (unsigned)openblas_get_num_threads();
}

const struct clb_gemm_backend clb_backend_openblas = {
    .name = CLB_OPENBLAS_NAME,
    .summary = CLB_OPENBLAS_SUMMARY,
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
    .handicap = openblas_handicap,
};
