/*
 * GEMM through CLBlast on an OpenCL device. CLBlast may launch several
 * kernels per call (pad, transpose, GEMM) and its returned event covers only
 * one, so the call is timed by the caller's host clock around clFinish.
 */
#include <CL/cl_half.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "clbench/clblast_tune.h"
#include "clbench/gemm.h"
#include "clbench/tune.h"
#include "config.h"

static const char *clblast_status_name(CLBlastStatusCode s)
{
#define S(x) { x, #x }
    static const struct {
        CLBlastStatusCode code;
        const char *name;
    } names[] = {
        S(CLBlastNotImplemented),        S(CLBlastInvalidMatrixA),
        S(CLBlastInvalidMatrixB),        S(CLBlastInvalidMatrixC),
        S(CLBlastInvalidDimension),      S(CLBlastInvalidLeadDimA),
        S(CLBlastInvalidLeadDimB),       S(CLBlastInvalidLeadDimC),
        S(CLBlastInsufficientMemoryA),   S(CLBlastInsufficientMemoryB),
        S(CLBlastInsufficientMemoryC),   S(CLBlastInsufficientMemoryTemp),
        S(CLBlastInvalidOverrideKernel), S(CLBlastMissingOverrideParameter),
        S(CLBlastInvalidLocalMemUsage),  S(CLBlastNoHalfPrecision),
        S(CLBlastNoDoublePrecision),     S(CLBlastDatabaseError),
        S(CLBlastUnknownError),          S(CLBlastUnexpectedError),
    };
#undef S
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (names[i].code == s)
            return names[i].name;
    /* The rest are OpenCL's own codes. */
    return clb_cl_errname((cl_int)s);
}

struct clblast_state {
    const struct clb_gemm_data *data;
    cl_command_queue queue;
    struct clb_gemm_buffers m;
    bool tuned;
};

/*
 * CLBlastOverrideParameters is process-wide per device and precision, and
 * makes CLBlast recompile: remember what is applied so it is done once, and
 * so the untuned variant can tell when it can no longer be measured.
 */
static struct applied {
    cl_device_id dev;
    enum clb_precision p;
    struct clb_tune_params params;
} applied[16];
static size_t n_applied;

static const struct applied *find_applied(cl_device_id dev, enum clb_precision p)
{
    for (size_t i = 0; i < n_applied; i++)
        if (applied[i].dev == dev && applied[i].p == p)
            return &applied[i];
    return NULL;
}

static CLBlastPrecision clblast_precision(enum clb_precision p)
{
    return p == CLB_FP64 ? CLBlastPrecisionDouble
                         : p == CLB_FP16 ? CLBlastPrecisionHalf : CLBlastPrecisionSingle;
}

int clb_clblast_override(cl_device_id dev, enum clb_precision p,
                         const struct clb_tune_params *params, struct clb_error *e)
{
    const struct applied *a = find_applied(dev, p);
    const char *names[CLB_TUNE_MAX_PARAMS];

    if (a && a->params.n == params->n &&
        !memcmp(a->params.value, params->value, params->n * sizeof(params->value[0])))
        return 0;
    if (!a && n_applied == sizeof(applied) / sizeof(applied[0])) {
        clb_error_set(e, "more than %zu device and precision pairs tuned in one process",
                      sizeof(applied) / sizeof(applied[0]));
        return -1;
    }
    for (size_t i = 0; i < params->n; i++)
        names[i] = params->name[i];
    CLBlastStatusCode st = CLBlastOverrideParameters(dev, "Xgemm", clblast_precision(p),
                                                     params->n, names, params->value);
    if (st != CLBlastSuccess) {
        clb_error_set(e, "CLBlastOverrideParameters: %s (%d)", clblast_status_name(st), (int)st);
        return -1;
    }
    /* Recorded as soon as CLBlast holds it: from here on untuned figures are impossible. */
    struct applied *w = a ? (struct applied *)a : &applied[n_applied++];
    w->dev = dev;
    w->p = p;
    w->params = *params;
    /* Programs compiled with the previous parameters must not be reused with the new ones. */
    st = CLBlastClearCache();
    if (st != CLBlastSuccess) {
        clb_error_set(e, "CLBlastClearCache: %s (%d)", clblast_status_name(st), (int)st);
        return -1;
    }
    return 0;
}

static void clblast_info(struct clb_library_info *out)
{
    snprintf(out->library, sizeof(out->library), "CLBlast");
    /* CLBlast has no run-time version query: this is the version built against. */
    snprintf(out->version, sizeof(out->version), "%s", CLBENCH_CLBLAST_VERSION);
    clb_library_str(out, "version_source", "build");
}

static bool clblast_supports(const struct clb_device *dev, enum clb_precision p, char *why,
                             size_t why_len)
{
    if (p == CLB_FP64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
        snprintf(why, why_len, "device has no fp64 (cl_khr_fp64)");
        return false;
    }
    if (p == CLB_FP16 && !clb_device_bool(dev, CLB_PROP_FP16)) {
        snprintf(why, why_len, "device has no fp16 (cl_khr_fp16)");
        return false;
    }
    return true;
}

static int clblast_upload(void *state, struct clb_error *e)
{
    struct clblast_state *s = state;
    return clb_gemm_buffers_upload(&s->m, s->queue, s->data, e);
}

static void clblast_destroy(void *state)
{
    struct clblast_state *s = state;

    if (!s)
        return;
    clb_gemm_buffers_release(&s->m);
    free(s);
}

/*
 * Parameters: NULL with use_tuning: the stored tuning if any (the "clblast"
 * backend); NULL without: CLBlast's built-in choice ("clblast-untuned");
 * otherwise exactly these (the tuner's candidates).
 */
static void *create(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, bool use_tuning,
                    const struct clb_tune_params *explicit_params, struct clb_error *e)
{
    struct clblast_state *s = calloc(1, sizeof(*s));
    struct clb_tune_params params;

    if (!s) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    if (explicit_params) {
        if (clb_clblast_override(dev->id, data->precision, explicit_params, e)) {
            free(s);
            return NULL;
        }
    } else if (!use_tuning && find_applied(dev->id, data->precision)) {
        clb_error_set(e, "tuned CLBlast parameters are already active for this device and "
                         "precision in this process: untuned figures cannot be taken");
        free(s);
        return NULL;
    } else if (use_tuning &&
               clb_tuning_lookup(dev, "Xgemm", clb_precision_name(data->precision), &params,
                                 NULL)) {
        struct clb_error oe;
        if (clb_clblast_override(dev->id, data->precision, &params, &oe) == 0)
            s->tuned = true;
        else
            fprintf(stderr, "clbench: warning: stored CLBlast tuning not applied: %s\n", oe.msg);
    }
    s->data = data;
    s->queue = env->queue;
    if (clb_gemm_buffers_create(&s->m, env, data, e)) {
        clblast_destroy(s);
        return NULL;
    }
    return s;
}

static void *clblast_create(const struct clb_device *dev, const struct clb_cl_env *env,
                            const struct clb_gemm_data *data, struct clb_error *e)
{
    return create(dev, env, data, true, NULL, e);
}

static void *clblast_create_untuned(const struct clb_device *dev, const struct clb_cl_env *env,
                                    const struct clb_gemm_data *data, struct clb_error *e)
{
    return create(dev, env, data, false, NULL, e);
}

void *clb_clblast_create_with(const struct clb_device *dev, const struct clb_cl_env *env,
                              const struct clb_gemm_data *data,
                              const struct clb_tune_params *params, struct clb_error *e)
{
    return create(dev, env, data, false, params, e);
}

static bool clblast_tuned(void *state)
{
    return ((struct clblast_state *)state)->tuned;
}

static int clblast_run(void *state, struct clb_error *e)
{
    struct clblast_state *s = state;
    const struct clb_gemm_data *d = s->data;
    const size_t m = d->shape.m, n = d->shape.n, k = d->shape.k;
    /* Fault injection: a leading dimension of C its buffer cannot hold. */
    const size_t ldc = clb_fault("CLBLAST") ? n + 1 : n;
    CLBlastStatusCode st;
    const char *call;

    switch (d->precision) {
    case CLB_FP64:
        call = "CLBlastDgemm";
        st = CLBlastDgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n,
                          k, d->alpha, s->m.a, 0, k, s->m.b, 0, n, d->beta, s->m.c, 0, ldc, &s->queue,
                          NULL);
        break;
    case CLB_FP16:
        call = "CLBlastHgemm";
        st = CLBlastHgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n,
                          k, cl_half_from_float((float)d->alpha, CL_HALF_RTE), s->m.a, 0, k,
                          s->m.b, 0, n, cl_half_from_float((float)d->beta, CL_HALF_RTE), s->m.c, 0,
                          ldc, &s->queue, NULL);
        break;
    default:
        call = "CLBlastSgemm";
        st = CLBlastSgemm(CLBlastLayoutRowMajor, CLBlastTransposeNo, CLBlastTransposeNo, m, n,
                          k, (float)d->alpha, s->m.a, 0, k, s->m.b, 0, n, (float)d->beta, s->m.c, 0,
                          ldc, &s->queue, NULL);
        break;
    }
    if (st != CLBlastSuccess) {
        clb_error_set(e, "%s: %s (%d)", call, clblast_status_name(st), (int)st);
        return -1;
    }
    return clb_cl_check(e, "clFinish", clb_cl_finish(s->queue)) ? -1 : 0;
}

static int clblast_download(void *state, void *c, struct clb_error *e)
{
    struct clblast_state *s = state;
    return clb_gemm_buffers_download(&s->m, s->queue, s->data, c, e);
}

const struct clb_gemm_backend clb_backend_clblast = {
    .name = "clblast",
    .on_device = true,
    .info = clblast_info,
    .supports = clblast_supports,
    .create = clblast_create,
    .upload = clblast_upload,
    .run = clblast_run,
    .download = clblast_download,
    .destroy = clblast_destroy,
    .tuned = clblast_tuned,
};

/* CLBlast with its built-in parameters even when tuned ones are stored (--untuned). */
const struct clb_gemm_backend clb_backend_clblast_untuned = {
    .name = "clblast-untuned",
    .on_device = true,
    .explicit_only = true,
    .runs_first = true,
    .info = clblast_info,
    .supports = clblast_supports,
    .create = clblast_create_untuned,
    .upload = clblast_upload,
    .run = clblast_run,
    .download = clblast_download,
    .destroy = clblast_destroy,
};
