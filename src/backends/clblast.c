/*
 * GEMM through CLBlast on an OpenCL device. CLBlast may launch several
 * kernels per call (pad, transpose, GEMM) and its returned event covers only
 * one, so the call is timed by the caller's host clock around clFinish.
 * Its tuning part searches Xgemm's parameters, applied through
 * CLBlastOverrideParameters, which stays in force for the whole process.
 */
#include <CL/cl_half.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "clbench/backends/backend.h"
#include "clbench/util/rng.h"
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

/* CLBlastOverrideParameters for Xgemm, once per distinct parameter set. */
static int override(cl_device_id dev, enum clb_precision p, const struct clb_tune_params *params,
                    struct clb_error *e)
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

enum which_params {
    BUILT_IN, /* CLBlast's own choice; refused once an override is active (it cannot be undone) */
    STORED,   /* the tuning cache's, if any: applied where CLBlast takes them, else a warning */
    EXACT,    /* the tuner's candidate: applied, or the create fails */
};

static void *create(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, enum which_params which,
                    const struct clb_tune_params *params, struct clb_error *e)
{
    struct clblast_state *s = calloc(1, sizeof(*s));

    if (!s) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    if (which == EXACT) {
        if (override(dev->id, data->precision, params, e)) {
            free(s);
            return NULL;
        }
    } else if (which == BUILT_IN && find_applied(dev->id, data->precision)) {
        clb_error_set(e, "tuned CLBlast parameters are already active for this device and "
                         "precision in this process: untuned figures cannot be taken");
        free(s);
        return NULL;
    } else if (which == STORED && params) {
        struct clb_error oe;
        if (override(dev->id, data->precision, params, &oe) == 0)
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
                            const struct clb_gemm_data *data, const struct clb_tune_params *stored,
                            struct clb_error *e)
{
    return create(dev, env, data, STORED, stored, e);
}

static void *clblast_create_untuned(const struct clb_device *dev, const struct clb_cl_env *env,
                                    const struct clb_gemm_data *data,
                                    const struct clb_tune_params *stored, struct clb_error *e)
{
    (void)stored; /* it has no tuning part: always NULL */
    return create(dev, env, data, BUILT_IN, NULL, e);
}

static void *clblast_create_with(const struct clb_device *dev, const struct clb_cl_env *env,
                                 const struct clb_gemm_data *data,
                                 const struct clb_tune_params *params, struct clb_error *e)
{
    return create(dev, env, data, params->n ? EXACT : BUILT_IN, params, e);
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

static const char *const xgemm_names[] = { "GEMMK", "KREG", "KWG", "KWI", "MDIMA", "MDIMC",
                                           "MWG",   "NDIMB", "NDIMC", "NWG", "SA", "SB",
                                           "STRM",  "STRN", "VWM", "VWN", NULL };
enum { N_XGEMM = sizeof(xgemm_names) / sizeof(xgemm_names[0]) - 1 };

/*
 * Known-good starting points (KWG KWI MDIMA MDIMC MWG NDIMB NDIMC NWG SA SB
 * STRM STRN VWM VWN), tried before random ones. For CPUs: first the two best
 * the search found at n = 2048 on a 2-core Zen 4 through pocl 3.1 (3.99x and
 * 2.4x CLBlast's default there), then the shapes CLBlast's published
 * database lists as best for Intel CPUs. For GPUs: its entries for GPUs of
 * several generations.
 */
static const size_t cpu_starts[][14] = {
    { 32, 2, 8, 8, 64, 16, 8, 64, 1, 1, 0, 0, 8, 4 },
    { 16, 2, 8, 8, 128, 8, 8, 128, 1, 1, 1, 0, 1, 8 },
    { 32, 2, 8, 8, 32, 8, 8, 64, 0, 0, 0, 0, 4, 4 },
    { 32, 8, 16, 16, 64, 32, 32, 64, 0, 1, 1, 0, 1, 2 },
    { 32, 2, 32, 8, 128, 8, 8, 128, 1, 1, 1, 1, 2, 8 },
    { 32, 2, 16, 32, 32, 8, 8, 64, 0, 1, 0, 0, 1, 8 },
    { 32, 2, 32, 16, 64, 32, 8, 64, 0, 1, 1, 0, 1, 1 },
    { 16, 2, 8, 8, 128, 16, 8, 128, 0, 1, 1, 1, 1, 8 },
    { 32, 8, 32, 32, 64, 32, 16, 64, 1, 1, 1, 0, 2, 2 },
};
static const size_t gpu_starts[][14] = {
    { 32, 2, 16, 16, 64, 8, 8, 64, 1, 1, 0, 0, 4, 4 },
    { 16, 2, 8, 16, 64, 8, 8, 128, 1, 1, 1, 0, 4, 8 },
    { 16, 2, 32, 16, 128, 32, 8, 128, 1, 1, 1, 0, 4, 1 },
    { 32, 2, 16, 8, 64, 8, 8, 64, 1, 1, 1, 1, 4, 8 },
    { 16, 2, 32, 16, 64, 16, 8, 128, 1, 1, 0, 1, 2, 8 },
    { 16, 2, 16, 16, 64, 16, 8, 128, 1, 1, 1, 0, 4, 8 },
};
/* Random candidates after the starts, while the budget lasts. */
enum { N_RANDOM = 1000 };

static void xgemm_params(const size_t v[14], struct clb_tune_params *p)
{
    memset(p, 0, sizeof(*p));
    clb_tune_set(p, "GEMMK", 0);
    clb_tune_set(p, "KREG", 1);
    for (size_t i = 2; i < N_XGEMM; i++)
        clb_tune_set(p, xgemm_names[i], v[i - 2]);
}

static void random_xgemm(uint64_t *rng, struct clb_tune_params *p)
{
    static const size_t kwg[] = { 16, 32 }, kwi[] = { 2, 8 }, dim[] = { 8, 16, 32 },
                        wg[] = { 16, 32, 64, 128 }, bit[] = { 0, 1 }, vw[] = { 1, 2, 4, 8 };
#define PICK(a) a[clb_rng_next(rng) % (sizeof(a) / sizeof(a[0]))]
    const size_t v[14] = { PICK(kwg), PICK(kwi), PICK(dim), PICK(dim), PICK(wg),
                           PICK(dim), PICK(dim), PICK(wg),  PICK(bit), PICK(bit),
                           PICK(bit), PICK(bit), PICK(vw),  PICK(vw) };
#undef PICK
    xgemm_params(v, p);
}

static bool xgemm_candidate(const struct clb_device *dev, enum clb_precision p, size_t index,
                            uint64_t *rng, struct clb_tune_params *out)
{
    const bool cpu = (clb_device_u64(dev, CLB_PROP_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
    const size_t n_starts = cpu ? sizeof(cpu_starts) / sizeof(cpu_starts[0])
                                : sizeof(gpu_starts) / sizeof(gpu_starts[0]);

    (void)p;
    if (index == 0)
        memset(out, 0, sizeof(*out));
    else if (index <= n_starts)
        xgemm_params(cpu ? cpu_starts[index - 1] : gpu_starts[index - 1], out);
    else if (index <= n_starts + N_RANDOM)
        random_xgemm(rng, out);
    else
        return false;
    return true;
}

static bool xgemm_valid(const struct clb_device *dev, enum clb_precision p,
                        const struct clb_tune_params *t)
{
#define G(x) clb_tune_get(t, #x, 0)
    const size_t kwg = G(KWG), kwi = G(KWI), mdima = G(MDIMA), mdimc = G(MDIMC), mwg = G(MWG),
                 ndimb = G(NDIMB), ndimc = G(NDIMC), nwg = G(NWG), vwm = G(VWM), vwn = G(VWN);
#undef G
    const uint64_t wg = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    const uint64_t local = clb_device_u64(dev, CLB_PROP_LOCAL_MEM_BYTES);
    const size_t es = clb_precision_bytes(p);

    if (t->n == 0)
        return true;
    if (!kwg || !kwi || !mdima || !mdimc || !mwg || !ndimb || !ndimc || !nwg || !vwm || !vwn)
        return false;
    if (mwg % (mdimc * vwm) || nwg % (ndimc * vwn) || mwg % (mdima * vwm) ||
        nwg % (ndimb * vwn) || kwg % kwi)
        return false;
    if ((mdimc * ndimc) % mdima || (mdimc * ndimc) % ndimb ||
        kwg % ((mdimc * ndimc) / mdima) || kwg % ((mdimc * ndimc) / ndimb))
        return false;
    if (mdimc * ndimc > wg)
        return false;
    return (clb_tune_get(t, "SA", 0) * kwg * mwg + clb_tune_get(t, "SB", 0) * kwg * nwg) * es <=
           local;
}

static const struct clb_gemm_tuning xgemm_tuning = {
    .kernel = "Xgemm",
    .label = "CLBlast Xgemm",
    .params = xgemm_names,
    .budget_share = 1.0,
    .next_candidate = xgemm_candidate,
    .valid = xgemm_valid,
    .create_with = clblast_create_with,
};

const struct clb_gemm_backend clb_backend_clblast = {
    .name = "clblast",
    .summary = "CLBlast's GEMM on each selected device, with stored tuning",
    .on_device = true,
    .info = clblast_info,
    .supports = clblast_supports,
    .create = clblast_create,
    .upload = clblast_upload,
    .run = clblast_run,
    .download = clblast_download,
    .destroy = clblast_destroy,
    .tuned = clblast_tuned,
    .tuning = &xgemm_tuning,
};

/* CLBlast with its built-in parameters even when tuned ones are stored (--untuned). */
const struct clb_gemm_backend clb_backend_clblast_untuned = {
    .name = "clblast-untuned",
    .summary = "CLBlast with its built-in parameters; only when named or with --untuned",
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
