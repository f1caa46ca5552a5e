/*
 * GEMM through CLBlast on an OpenCL device. CLBlast may launch several
 * kernels per call (pad, transpose, GEMM) and its returned event covers only
 * one, so the call is timed by the caller's host clock around clFinish.
 * Its tuning part searches Xgemm's parameters, applied through
 * CLBlastOverrideParameters together with the GEMM routine's choice of
 * kernel, so what is tuned is what runs (see apply()).
 */
#include <CL/cl_half.h>
#include <clblast_c.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "clbench/backends/backend.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/util/rng.h"
#include "clbench/util/units.h"
#include "clblast_params.h"
#include "config.h"
#include "identity.h"

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
    bool direct; /* CLBlast's rule picks XgemmDirect for this shape, as its parameters stand */
    uint64_t temp_bytes; /* the temporary buffer CLBlast allocates per call (GemmTempBufferSize) */
    char entry[80];      /* how its database covers the device, when not "" (clb_clblast_lookup) */
};

/*
 * CLBlastOverrideParameters is process-wide per device and precision, and
 * stays until overridden again. So every create sets exactly what its row
 * needs: CLBlast's own values (read once, before any override, through
 * RetrieveParameters), a stored configuration or a candidate. A tuned
 * configuration is one of Xgemm's (the indirect kernel) and holds only
 * where Xgemm runs: it comes with GemmRoutine's XGEMM_MIN_INDIRECT_SIZE at
 * 0, so CLBlast's rule (XgemmDirect when m*n*k < size^3) never picks the
 * direct kernel, whose parameters it does not set.
 */
static struct in_force {
    cl_device_id dev;
    enum clb_precision p;
    struct clb_tune_params builtin;  /* CLBlast's own Xgemm parameters here */
    size_t builtin_threshold;        /* and its XGEMM_MIN_INDIRECT_SIZE */
    struct clb_tune_params xgemm;    /* what is in force now */
    size_t threshold;
} in_force[16];
static size_t n_in_force;

static CLBlastPrecision clblast_precision(enum clb_precision p)
{
    return p == CLB_FP64 ? CLBlastPrecisionDouble
                         : p == CLB_FP16 ? CLBlastPrecisionHalf : CLBlastPrecisionSingle;
}

static const char THRESHOLD[] = "XGEMM_MIN_INDIRECT_SIZE";

static CLBlastTranspose clblast_trans(bool t)
{
    return t ? CLBlastTransposeYes : CLBlastTransposeNo;
}

/* The device and precision's entry, reading CLBlast's own values on first use; NULL with e set. */
static struct in_force *device_params(cl_device_id dev, enum clb_precision p,
                                      struct clb_error *e)
{
    struct clb_tune_params routine;
    int st;

    for (size_t i = 0; i < n_in_force; i++)
        if (in_force[i].dev == dev && in_force[i].p == p)
            return &in_force[i];
    if (n_in_force == sizeof(in_force) / sizeof(in_force[0])) {
        clb_error_set(e, "more than %zu device and precision pairs in one process",
                      sizeof(in_force) / sizeof(in_force[0]));
        return NULL;
    }
    struct in_force *f = &in_force[n_in_force];
    memset(f, 0, sizeof(*f));
    if ((st = clb_clblast_retrieve(dev, "Xgemm", clblast_precision(p), &f->builtin)) ||
        (st = clb_clblast_retrieve(dev, "GemmRoutine", clblast_precision(p), &routine))) {
        clb_error_set(e, "CLBlast RetrieveParameters: %s (%d)",
                      clblast_status_name((CLBlastStatusCode)st), st);
        return NULL;
    }
    f->dev = dev;
    f->p = p;
    f->builtin_threshold = clb_tune_get(&routine, THRESHOLD, 0);
    f->xgemm = f->builtin;
    f->threshold = f->builtin_threshold;
    n_in_force++;
    return f;
}

static bool same_params(const struct clb_tune_params *a, const struct clb_tune_params *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (clb_tune_get(b, a->name[i], SIZE_MAX) != a->value[i])
            return false;
    return true;
}

static int override(cl_device_id dev, enum clb_precision p, const char *kernel,
                    const struct clb_tune_params *params, struct clb_error *e)
{
    const char *names[CLB_TUNE_MAX_PARAMS];

    for (size_t i = 0; i < params->n; i++)
        names[i] = params->name[i];
    CLBlastStatusCode st = CLBlastOverrideParameters(dev, kernel, clblast_precision(p),
                                                     params->n, names, params->value);
    if (st != CLBlastSuccess) {
        clb_error_set(e, "CLBlastOverrideParameters(%s): %s (%d)", kernel,
                      clblast_status_name(st), (int)st);
        return -1;
    }
    return 0;
}

/*
 * Puts `xgemm` (NULL: CLBlast's own) in force for dev and precision p, with
 * the direct kernel ruled out for a tuned configuration; CLBlast compiles
 * anew afterwards. Then reads back what CLBlast holds: *threshold is the
 * XGEMM_MIN_INDIRECT_SIZE its rule will use.
 */
static int apply(cl_device_id dev, enum clb_precision p, const struct clb_tune_params *xgemm,
                 size_t *threshold, struct clb_error *e)
{
    struct in_force *f = device_params(dev, p, e);
    struct clb_tune_params routine;
    bool changed = false;

    if (!f)
        return -1;
    const struct clb_tune_params *want = xgemm ? xgemm : &f->builtin;
    const size_t want_threshold = xgemm ? 0 : f->builtin_threshold;
    if (!same_params(want, &f->xgemm)) {
        if (override(dev, p, "Xgemm", want, e))
            return -1;
        f->xgemm = *want;
        changed = true;
    }
    if (want_threshold != f->threshold) {
        memset(&routine, 0, sizeof(routine));
        clb_tune_set(&routine, THRESHOLD, want_threshold);
        if (override(dev, p, "GemmRoutine", &routine, e))
            return -1;
        f->threshold = want_threshold;
        changed = true;
    }
    /* Programs compiled with the previous parameters must not be reused with the new ones. */
    CLBlastStatusCode st = changed ? CLBlastClearCache() : CLBlastSuccess;
    if (st != CLBlastSuccess) {
        clb_error_set(e, "CLBlastClearCache: %s (%d)", clblast_status_name(st), (int)st);
        return -1;
    }
    int rst = clb_clblast_retrieve(dev, "GemmRoutine", clblast_precision(p), &routine);
    if (rst) {
        clb_error_set(e, "CLBlast RetrieveParameters: %s (%d)",
                      clblast_status_name((CLBlastStatusCode)rst), rst);
        return -1;
    }
    *threshold = clb_tune_get(&routine, THRESHOLD, 0);
    return 0;
}

/* CLBlast's rule (Xgemm<T>::UseDirectKernel): the direct kernel when m*n*k < size^3. */
static bool uses_direct(struct clb_gemm_shape s, size_t threshold)
{
    const long double t = (long double)threshold;
    return (long double)s.m * s.n * s.k < t * t * t;
}

static void clblast_info(struct clb_library_info *out)
{
    snprintf(out->library, sizeof(out->library), "%s", CLB_CLBLAST_LIBRARY);
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

/*
 * The bytes of the temporary buffer CLBlast allocates in each call for this
 * problem on queue's device, with the parameters now in force: padded or
 * transposed copies of A, B and C for its indirect kernel (0 for the direct
 * one). -1 with e set when CLBlast cannot tell.
 */
static int temp_buffer_bytes(cl_command_queue queue, enum clb_precision p,
                             struct clb_gemm_shape s, const struct clb_gemm_mode *mode,
                             uint64_t *bytes, struct clb_error *e)
{
    struct clb_gemm_matrix_layout l[3];
    size_t size = 0;
    CLBlastStatusCode st;

    for (int w = CLB_GEMM_A; w <= CLB_GEMM_C; w++)
        clb_gemm_layout(mode, s, (enum clb_gemm_matrix)w, &l[w]);
    const CLBlastLayout layout = mode->col_major ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    const CLBlastTranspose ta = clblast_trans(mode->trans_a), tb = clblast_trans(mode->trans_b);
#define ARGS                                                                                     \
    layout, ta, tb, s.m, s.n, s.k, l[0].offset, l[0].ld, l[1].offset, l[1].ld, l[2].offset,     \
        l[2].ld, &queue, &size
    st = p == CLB_FP64   ? CLBlastDGemmTempBufferSize(ARGS)
         : p == CLB_FP16 ? CLBlastHGemmTempBufferSize(ARGS)
                         : CLBlastSGemmTempBufferSize(ARGS);
#undef ARGS
    if (st != CLBlastSuccess) {
        clb_error_set(e, "CLBlast GemmTempBufferSize: %s (%d)", clblast_status_name(st), (int)st);
        return -1;
    }
    *bytes = size;
    return 0;
}

static uint64_t clblast_call_device_bytes(const struct clb_cl_env *env, struct clb_gemm_shape s,
                                          enum clb_precision p, const struct clb_gemm_mode *mode)
{
    struct clb_error e;
    uint64_t bytes = 0;

    return temp_buffer_bytes(env->queue, p, s, mode, &bytes, &e) ? 0 : bytes;
}

/* clb_clblast_lookup for dev, its line into why ("" where CLBlast has the device). */
static void database_entry(const struct clb_device *dev, char *why, size_t why_len)
{
    char name[256], arch[128];

    clb_clblast_names(clb_device_str(dev, CLB_PROP_EXTENSIONS), clb_device_str(dev, CLB_PROP_NAME),
                      clb_device_str(dev, CLB_PROP_AMD_BOARD_NAME),
                      (unsigned)clb_device_u64(dev, CLB_PROP_NV_CC_MAJOR),
                      (unsigned)clb_device_u64(dev, CLB_PROP_NV_CC_MINOR), name, sizeof(name), arch,
                      sizeof(arch));
    clb_clblast_lookup(name, arch, why, why_len);
}

static void clblast_destroy(void *state)
{
    struct clblast_state *s = state;

    if (!s)
        return;
    clb_gemm_buffers_release(&s->m);
    free(s);
}

static bool xgemm_safe(const struct clb_tune_params *t);

enum which_params {
    BUILT_IN, /* CLBlast's own choice */
    STORED,   /* the tuning cache's, if any, where they hold; else CLBlast's own, why in e */
    EXACT,    /* the tuner's candidate: applied, or the create fails */
};

static void *create(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, enum which_params which,
                    const struct clb_tune_params *params, struct clb_error *e)
{
    struct clblast_state *s = calloc(1, sizeof(*s));
    size_t threshold;

    if (!s) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    if (which == STORED && params) {
        const struct in_force *f = device_params(dev->id, data->precision, e);
        const uint64_t at = params->size;
        struct clb_error oe;
        if (!f) {
            free(s);
            return NULL;
        }
        if (!xgemm_safe(params)) {
            /* Only what would crash CLBlast is refused: a wrong result is verification's. */
            clb_error_set(e, "Xgemm parameters missing or zero: CLBlast's own ran");
            which = BUILT_IN;
        } else if (uses_direct(data->shape, f->builtin_threshold) &&
                   !uses_direct((struct clb_gemm_shape){ at, at, at }, f->builtin_threshold)) {
            /*
             * The entry beat CLBlast's Xgemm where Xgemm runs; here CLBlast
             * runs XgemmDirect, which the entry was never held against.
             */
            clb_error_set(e, "CLBlast's own choice at this size is XgemmDirect (m*n*k below "
                             "%zu^3), which the entry was not measured against: it ran "
                             "(tune at this size to compare)", f->builtin_threshold);
            which = BUILT_IN;
        } else if (apply(dev->id, data->precision, params, &threshold, &oe) == 0) {
            s->tuned = true;
        } else {
            fprintf(stderr, "clbench: warning: stored CLBlast tuning not applied: %s\n", oe.msg);
            clb_error_set(e, "%s", oe.msg);
            which = BUILT_IN;
        }
    }
    if (which == EXACT || (which == STORED && !params) || which == BUILT_IN) {
        const struct clb_tune_params *want = which == EXACT && params->n ? params : NULL;
        if (apply(dev->id, data->precision, want, &threshold, e)) {
            free(s);
            return NULL;
        }
    }
    s->direct = uses_direct(data->shape, threshold);
    s->data = data;
    s->queue = env->queue;
    /* With the parameters now in force: what each call will allocate besides A, B and C. */
    if (temp_buffer_bytes(env->queue, data->precision, data->shape, &data->mode, &s->temp_bytes,
                          e)) {
        free(s);
        return NULL;
    }
    if (!s->tuned)
        database_entry(dev, s->entry, sizeof(s->entry));
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

static void *clblast_create_with(const struct clb_device *dev, const struct clb_cl_env *env,
                                 const struct clb_gemm_data *data,
                                 const struct clb_tune_params *params, struct clb_error *e)
{
    return create(dev, env, data, EXACT, params, e);
}

static void clblast_describe(void *state, char *buf, size_t len)
{
    const struct clblast_state *s = state;
    char temp[48] = "";

    if (s->temp_bytes) {
        strcpy(temp, "; temp ");
        clb_format_bytes(s->temp_bytes, temp + strlen(temp), sizeof(temp) - strlen(temp));
    }
    snprintf(buf, len, "%s%s%s%s", s->direct ? "XgemmDirect" : "Xgemm", temp,
             s->entry[0] ? "; " : "", s->entry);
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
    const CLBlastLayout layout = d->mode.col_major ? CLBlastLayoutColMajor : CLBlastLayoutRowMajor;
    const CLBlastTranspose ta = clblast_trans(d->mode.trans_a), tb = clblast_trans(d->mode.trans_b);
    const size_t lda = d->la.ld, ldb = d->lb.ld, ao = d->la.offset, bo = d->lb.offset,
                 co = d->lc.offset;
    /* Fault injection: a leading dimension of C its buffer cannot hold. */
    const size_t ldc = clb_fault("CLBLAST") ? d->lc.elems : d->lc.ld;
    CLBlastStatusCode st;
    const char *call;

    switch (d->precision) {
    case CLB_FP64:
        call = "CLBlastDgemm";
        st = CLBlastDgemm(layout, ta, tb, m, n, k, d->alpha, s->m.a, ao, lda, s->m.b, bo, ldb,
                          d->beta, s->m.c, co, ldc, &s->queue, NULL);
        break;
    case CLB_FP16:
        call = "CLBlastHgemm";
        st = CLBlastHgemm(layout, ta, tb, m, n, k,
                          cl_half_from_float((float)d->alpha, CL_HALF_RTE), s->m.a, ao, lda,
                          s->m.b, bo, ldb, cl_half_from_float((float)d->beta, CL_HALF_RTE),
                          s->m.c, co, ldc, &s->queue, NULL);
        break;
    default:
        call = "CLBlastSgemm";
        st = CLBlastSgemm(layout, ta, tb, m, n, k, (float)d->alpha, s->m.a, ao, lda, s->m.b, bo,
                          ldb, (float)d->beta, s->m.c, co, ldc, &s->queue, NULL);
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

static const char *const xgemm_names[] = CLB_CLBLAST_XGEMM_PARAMS;
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
    const bool cpu = clb_device_is_cpu(dev);
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

/* Every parameter CLBlast divides by is there and not 0. */
static bool xgemm_safe(const struct clb_tune_params *t)
{
    static const char *const divisors[] = { "KWG", "KWI", "MDIMA", "MDIMC", "MWG",
                                            "NDIMB", "NDIMC", "NWG", "VWM", "VWN" };

    for (size_t i = 0; i < sizeof(divisors) / sizeof(divisors[0]); i++)
        if (!clb_tune_get(t, divisors[i], 0))
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
    if (!xgemm_safe(t))
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
    .kernel = CLB_CLBLAST_XGEMM_KERNEL,
    .label = CLB_CLBLAST_XGEMM_LABEL,
    .params = xgemm_names,
    .budget_share = 1.0,
    .next_candidate = xgemm_candidate,
    .valid = xgemm_valid,
    .create_with = clblast_create_with,
};

const struct clb_gemm_backend clb_backend_clblast = {
    .name = CLB_CLBLAST_NAME,
    .summary = CLB_CLBLAST_SUMMARY ", with stored tuning",
    .on_device = true,
    .info = clblast_info,
    .supports = clblast_supports,
    .create = clblast_create,
    .upload = clblast_upload,
    .run = clblast_run,
    .download = clblast_download,
    .destroy = clblast_destroy,
    .tuned = clblast_tuned,
    .describe = clblast_describe,
    .call_device_bytes = clblast_call_device_bytes,
    .tuning = &xgemm_tuning,
};
