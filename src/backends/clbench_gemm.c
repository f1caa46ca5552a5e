/*
 * clbench's own portable GEMM (kernels/gemm.cl) as a backend: the fallback
 * where CLBlast is absent, and a second opinion where it is present. It runs
 * the stored tuning it is handed when that is valid on the device, otherwise
 * defaults by device type; its tuning part is what `clbench tune` searches.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "clbench/backends/backend.h"
#include "clbench/cl/kernels.h"

struct own_params {
    unsigned tm, tn; /* register tile: TM rows x TN-wide vectors */
    unsigned lx, ly; /* work-group size */
    unsigned kc;     /* K per launch (0: all of K in one) */
};

struct own_state {
    const struct clb_gemm_data *data;
    const struct clb_cl_env *env;
    struct own_params p;
    bool tuned;
    cl_program prog;
    cl_kernel gemm, pack;
    struct clb_gemm_buffers m; /* A, B and C */
    cl_mem pa, pb;           /* padded copies of A and B, or NULL */
    cl_uint lda, ldb;        /* leading dimensions the GEMM kernel reads */
};

static const char *const own_param_names[] = { "TM", "TN", "LX", "LY", "KC", NULL };

static void own_defaults(const struct clb_device *dev, enum clb_precision p,
                         struct own_params *out)
{
    const bool cpu = (clb_device_u64(dev, CLB_PROP_TYPE) & CL_DEVICE_TYPE_CPU) != 0;

    /* CPUs: one work-item per core-sized strip, long vectors; GPUs: many small tiles. */
    if (cpu)
        *out = (struct own_params){ .tm = 8, .tn = p == CLB_FP64 ? 8 : 16, .lx = 8, .ly = 1,
                                    .kc = 1024 };
    else
        *out = (struct own_params){ .tm = 4, .tn = 4, .lx = 16, .ly = 16, .kc = 0 };
}

static void to_tune(const struct own_params *p, struct clb_tune_params *t)
{
    memset(t, 0, sizeof(*t));
    clb_tune_set(t, "TM", p->tm);
    clb_tune_set(t, "TN", p->tn);
    clb_tune_set(t, "LX", p->lx);
    clb_tune_set(t, "LY", p->ly);
    clb_tune_set(t, "KC", p->kc);
}

static struct own_params from_tune(const struct clb_tune_params *t)
{
    return (struct own_params){
        .tm = (unsigned)clb_tune_get(t, "TM", 0), .tn = (unsigned)clb_tune_get(t, "TN", 0),
        .lx = (unsigned)clb_tune_get(t, "LX", 0), .ly = (unsigned)clb_tune_get(t, "LY", 0),
        .kc = (unsigned)clb_tune_get(t, "KC", 0),
    };
}

static bool params_valid(const struct clb_device *dev, const struct own_params *p)
{
    const uint64_t wg = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    return p->tm >= 1 && p->tm <= 16 && (p->tn == 4 || p->tn == 8 || p->tn == 16) &&
           p->lx >= 1 && p->ly >= 1 && (uint64_t)p->lx * p->ly <= (wg ? wg : 1) &&
           p->kc <= 65536;
}

static bool own_valid(const struct clb_device *dev, enum clb_precision prec,
                      const struct clb_tune_params *t)
{
    const struct own_params p = from_tune(t);

    (void)prec;
    return params_valid(dev, &p);
}

/* Candidates: the defaults, then one parameter changed at a time. No random ones. */
static bool own_candidate(const struct clb_device *dev, enum clb_precision prec, size_t index,
                          uint64_t *rng, struct clb_tune_params *out)
{
    static const unsigned tms[] = { 4, 6, 8, 12 }, tns[] = { 4, 8, 16 },
                          kcs[] = { 0, 256, 512, 1024 };
    static const unsigned locals[][2] = { { 8, 1 }, { 16, 1 }, { 4, 4 }, { 16, 16 }, { 32, 4 } };
    struct own_params d, c[1 + 4 + 3 + 5 + 4];
    size_t n = 0;

    (void)rng;
    own_defaults(dev, prec, &d);
    c[n++] = d;
    for (size_t i = 0; i < sizeof(tms) / sizeof(tms[0]); i++)
        if (tms[i] != d.tm)
            c[n] = d, c[n++].tm = tms[i];
    for (size_t i = 0; i < sizeof(tns) / sizeof(tns[0]); i++)
        if (tns[i] != d.tn)
            c[n] = d, c[n++].tn = tns[i];
    for (size_t i = 0; i < sizeof(locals) / sizeof(locals[0]); i++)
        if (locals[i][0] != d.lx || locals[i][1] != d.ly)
            c[n] = d, c[n].lx = locals[i][0], c[n++].ly = locals[i][1];
    for (size_t i = 0; i < sizeof(kcs) / sizeof(kcs[0]); i++)
        if (kcs[i] != d.kc)
            c[n] = d, c[n++].kc = kcs[i];
    if (index >= n)
        return false;
    to_tune(&c[index], out);
    return true;
}

static bool own_supports(const struct clb_device *dev, enum clb_precision p, char *why,
                         size_t why_len)
{
    if (p == CLB_FP16) {
        snprintf(why, why_len, "clbench's GEMM kernel has no fp16 variant");
        return false;
    }
    if (p == CLB_FP64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
        snprintf(why, why_len, "device has no fp64 (cl_khr_fp64)");
        return false;
    }
    return true;
}

static void own_info(struct clb_library_info *out)
{
    snprintf(out->library, sizeof(out->library), "clbench GEMM kernel");
    snprintf(out->version, sizeof(out->version), "kernels/gemm.cl");
}

/* A leading dimension that is a multiple of 256 elements maps rows onto the same cache sets. */
static cl_uint padded(cl_uint ld)
{
    return ld % 256 == 0 ? ld + 16 : ld;
}

static int own_upload(void *state, struct clb_error *e)
{
    struct own_state *s = state;
    return clb_gemm_buffers_upload(&s->m, s->env->queue, s->data, e);
}

static void own_destroy(void *state)
{
    struct own_state *s = state;

    if (!s)
        return;
    clb_gemm_buffers_release(&s->m);
    if (s->pa)
        clReleaseMemObject(s->pa);
    if (s->pb)
        clReleaseMemObject(s->pb);
    if (s->gemm)
        clReleaseKernel(s->gemm);
    if (s->pack)
        clReleaseKernel(s->pack);
    if (s->prog)
        clReleaseProgram(s->prog);
    free(s);
}

/* With `stored` (may be NULL): those when valid here, else the defaults; else exactly `exact`. */
static void *create(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, const struct clb_tune_params *stored,
                    const struct own_params *exact, struct clb_error *e)
{
    struct own_state *s = calloc(1, sizeof(*s));
    const struct clb_gemm_shape sh = data->shape;
    const size_t es = clb_precision_bytes(data->precision);
    char options[128];
    cl_int err;

    if (!s) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    s->data = data;
    s->env = env;
    if (exact) {
        s->p = *exact;
    } else {
        own_defaults(dev, data->precision, &s->p);
        if (stored) {
            const struct own_params q = from_tune(stored);
            if (params_valid(dev, &q)) {
                s->p = q;
                s->tuned = true;
            }
        }
    }
    if (sh.m > UINT32_MAX || sh.n > UINT32_MAX || sh.k > UINT32_MAX) {
        clb_error_set(e, "dimensions beyond 2^32 are not supported by clbench's kernel");
        goto error;
    }
    snprintf(options, sizeof(options), "-DTM=%u -DTN=%u%s", s->p.tm, s->p.tn,
             data->precision == CLB_FP64 ? " -DUSE_FP64" : "");
    if (!(s->prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("gemm"), options, e)))
        goto error;
    s->gemm = clCreateKernel(s->prog, "clb_gemm", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        goto error;
    s->pack = clCreateKernel(s->prog, "clb_gemm_pack", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        goto error;
    if (clb_gemm_buffers_create(&s->m, env, data, e))
        goto error;
    s->lda = padded((cl_uint)sh.k);
    s->ldb = padded((cl_uint)sh.n);
    if (s->lda != sh.k) {
        s->pa = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, sh.m * s->lda * es, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer(padded A)", err))
            goto error;
    }
    if (s->ldb != sh.n) {
        s->pb = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, sh.k * s->ldb * es, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer(padded B)", err))
            goto error;
    }
    return s;

error:
    own_destroy(s);
    return NULL;
}

static void *own_create(const struct clb_device *dev, const struct clb_cl_env *env,
                        const struct clb_gemm_data *data, const struct clb_tune_params *stored,
                        struct clb_error *e)
{
    return create(dev, env, data, stored, NULL, e);
}

static void *own_create_with(const struct clb_device *dev, const struct clb_cl_env *env,
                             const struct clb_gemm_data *data,
                             const struct clb_tune_params *params, struct clb_error *e)
{
    const struct own_params p = from_tune(params);
    return create(dev, env, data, NULL, params->n ? &p : NULL, e);
}

static int pack(struct own_state *s, cl_mem src, cl_mem dst, cl_uint rows, cl_uint cols,
                cl_uint ld_dst, struct clb_error *e)
{
    const size_t global[2] = { ld_dst, rows };

    return CLB_CL(e, clSetKernelArg, s->pack, 0, sizeof(cl_uint), &rows) ||
                   CLB_CL(e, clSetKernelArg, s->pack, 1, sizeof(cl_uint), &cols) ||
                   CLB_CL(e, clSetKernelArg, s->pack, 2, sizeof(cl_uint), &cols) ||
                   CLB_CL(e, clSetKernelArg, s->pack, 3, sizeof(cl_uint), &ld_dst) ||
                   CLB_CL(e, clSetKernelArg, s->pack, 4, sizeof(cl_mem), &src) ||
                   CLB_CL(e, clSetKernelArg, s->pack, 5, sizeof(cl_mem), &dst) ||
                   CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->pack, 2, NULL, global,
                          NULL, 0, NULL, NULL)
               ? -1
               : 0;
}

/* Sets a scalar argument in the precision of the problem. */
static int set_scalar(cl_kernel k, cl_uint idx, enum clb_precision p, double v,
                      struct clb_error *e)
{
    float f = (float)v;
    return p == CLB_FP64 ? CLB_CL(e, clSetKernelArg, k, idx, sizeof(double), &v)
                         : CLB_CL(e, clSetKernelArg, k, idx, sizeof(float), &f);
}

static int own_run(void *state, struct clb_error *e)
{
    struct own_state *s = state;
    const struct clb_gemm_data *d = s->data;
    const cl_uint m = (cl_uint)d->shape.m, n = (cl_uint)d->shape.n, k = (cl_uint)d->shape.k;
    const cl_uint kc_max = s->p.kc ? s->p.kc : k;
    const size_t local[2] = { s->p.lx, s->p.ly };
    const size_t global[2] = { ((n + s->p.tn - 1) / s->p.tn + s->p.lx - 1) / s->p.lx * s->p.lx,
                               ((m + s->p.tm - 1) / s->p.tm + s->p.ly - 1) / s->p.ly * s->p.ly };
    cl_mem a = s->m.a, b = s->m.b;

    /* Packing is part of the call, as CLBlast's own pre-processing is part of its. */
    if (s->pa && pack(s, s->m.a, s->pa, m, k, s->lda, e))
        return -1;
    if (s->pb && pack(s, s->m.b, s->pb, k, n, s->ldb, e))
        return -1;
    if (s->pa)
        a = s->pa;
    if (s->pb)
        b = s->pb;
    if (CLB_CL(e, clSetKernelArg, s->gemm, 0, sizeof(cl_uint), &m) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 1, sizeof(cl_uint), &n) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 4, sizeof(cl_uint), &s->lda) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 5, sizeof(cl_uint), &s->ldb) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 6, sizeof(cl_uint), &n) ||
        set_scalar(s->gemm, 7, d->precision, d->alpha, e) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 8, sizeof(cl_mem), &a) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 9, sizeof(cl_mem), &b) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 11, sizeof(cl_mem), &s->m.c))
        return -1;
    /* K in chunks: the first applies beta, the rest accumulate onto it. */
    for (cl_uint k0 = 0; k0 < k; k0 += kc_max) {
        const cl_uint kc = k - k0 < kc_max ? k - k0 : kc_max;
        if (CLB_CL(e, clSetKernelArg, s->gemm, 2, sizeof(cl_uint), &k0) ||
            CLB_CL(e, clSetKernelArg, s->gemm, 3, sizeof(cl_uint), &kc) ||
            set_scalar(s->gemm, 10, d->precision, k0 == 0 ? d->beta : 1.0, e) ||
            CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->gemm, 2, NULL, global, local, 0,
                   NULL, NULL))
            return -1;
    }
    return clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue)) ? -1 : 0;
}

static int own_download(void *state, void *c, struct clb_error *e)
{
    struct own_state *s = state;
    return clb_gemm_buffers_download(&s->m, s->env->queue, s->data, c, e);
}

static void own_extra_bytes(struct clb_gemm_shape sh, enum clb_precision p, uint64_t *total,
                            uint64_t *largest)
{
    const uint64_t es = clb_precision_bytes(p);
    const uint64_t a = sh.k % 256 == 0 ? sh.m * padded((cl_uint)sh.k) * es : 0;
    const uint64_t b = sh.n % 256 == 0 ? sh.k * padded((cl_uint)sh.n) * es : 0;

    *total = a + b;
    *largest = a > b ? a : b;
}

static bool own_tuned(void *state)
{
    return ((struct own_state *)state)->tuned;
}

/* Few candidates (the defaults, then one change at a time): a quarter of the budget. */
static const struct clb_gemm_tuning own_tuning = {
    .kernel = "clbench-gemm",
    .label = "clbench kernel",
    .params = own_param_names,
    .budget_share = 0.25,
    .next_candidate = own_candidate,
    .valid = own_valid,
    .create_with = own_create_with,
};

const struct clb_gemm_backend clb_backend_clbench = {
    .name = "clbench",
    .summary = "clbench's own OpenCL GEMM kernel on each selected device",
    .on_device = true,
    .info = own_info,
    .supports = own_supports,
    .create = own_create,
    .upload = own_upload,
    .run = own_run,
    .download = own_download,
    .destroy = own_destroy,
    .tuned = own_tuned,
    .extra_device_bytes = own_extra_bytes,
    .tuning = &own_tuning,
};
