/*
 * clbench's own portable GEMM (kernels/gemm.cl) as a backend: the fallback
 * where CLBlast is absent, and a second opinion where it is present. It runs
 * the stored tuning it is handed when that is valid on the device, otherwise
 * defaults from what the device reports; its tuning part is what `clbench
 * tune` searches. Two variants (kernels/gemm.cl): packed panels for CPUs and
 * local-memory tiles for GPUs, by the device's type or the problem's
 * code_path (gemm --code-path); the GPU one splits K where the problem has
 * too few tiles for the device (gpu_split).
 * Every mode runs: the kernels read A and B through strides and offsets and
 * write a row-major C; a column-major C is computed as the row-major C^T =
 * op(B)^T op(A)^T (struct own_problem).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "clbench/backends/backend.h"
#include "clbench/backends/clbench_gemm.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/cpu.h"
#include "clbench/util/rng.h"

enum own_variant {
    OWN_PACKED = 0, /* clb_gemm on packed panels: CPUs */
    /* 1 was clb_gemm_local, scalar reads of local memory: stored entries of it are refused */
    OWN_GPU = 2,    /* clb_gemm_gpu, register tiles fed by vector reads of local memory */
};

struct own_params {
    unsigned variant;    /* enum own_variant */
    unsigned tm;         /* register tile rows */
    unsigned vw, nv;     /* register tile columns: NV vectors of VW (TN = VW * NV) */
    unsigned lx, ly;     /* work-group size */
    unsigned kc;         /* OWN_PACKED: K per launch (0: all of K in one) */
    unsigned kw;         /* OWN_GPU: K per slice staged in local memory */
};

/*
 * The GPU variant's limits on 32-bit registers a work-item spends on its
 * tile's accumulators, and on those plus the next slice it holds: the
 * compilers for NVIDIA's and AMD's GPUs need about as many again for the
 * operands, addresses and loop state, and 255 is the most either ISA gives
 * a work-item (beyond that they spill: .local in PTX, scratch on amdgcn).
 */
#define GPU_ACC_WORDS 64
#define GPU_REG_WORDS 96
/* Split K into at most this many parts, each at least SPLIT_MIN_SLICES slices of KW. */
#define GPU_MAX_SPLITS 16
#define GPU_SPLIT_MIN_SLICES 8

/*
 * The problem as the kernels take it: C row-major (m x n, ldc), A's entry
 * (i, k) at a_off + i * a_rs + k * a_cs of buffer `a`, B's likewise. In a
 * column-major mode m and n, and A and B, are swapped.
 */
struct own_problem {
    cl_uint m, n, k;
    cl_uint a_rs, a_cs, a_off, b_rs, b_cs, b_off, ldc, c_off;
    const cl_mem *a, *b; /* the state's buffers */
};

struct own_state {
    const struct clb_gemm_data *data;
    struct own_problem q;
    const struct clb_cl_env *env;
    struct own_params p;
    bool tuned;
    cl_program prog;
    cl_kernel gemm, pack_a, pack_b, sum;
    struct clb_gemm_buffers m; /* A, B and C */
    cl_mem ap, bp;             /* OWN_PACKED: the panels of A and B */
    cl_uint splits, kchunk;    /* OWN_GPU: K in `splits` parts of kchunk (1: no split) */
    cl_mem w;                  /* OWN_GPU with splits > 1: their partial sums */
};

static const char *const own_param_names[] = { "VARIANT", "TM", "VW", "NV", "LX",
                                               "LY",      "KC", "KW", NULL };

static unsigned round_down_pow2(unsigned long v)
{
    unsigned p = 1;
    while ((unsigned long)p * 2 <= v && p < (1u << 30))
        p *= 2;
    return p;
}

/* Bytes of local memory the GPU variant's two slices take (each row one vector of padding). */
static uint64_t gpu_local_bytes(const struct own_params *o, uint64_t es)
{
    return (uint64_t)o->kw * (o->ly * o->tm + o->vw + o->lx * o->vw * o->nv + o->vw) * es;
}

/*
 * The GPU variant's register tile: 8 x 8 in fp32 (64 accumulators, read as
 * float4: 2 + 2 vector loads per k feed 64 FMAs), 4 x 8 in fp64 (the same 64
 * registers; double2, 16 bytes, the widest load of local memory on current
 * GPUs: 2 + 4 loads feed 32 FMAs).
 */
static void gpu_tile(enum clb_precision p, struct own_params *o)
{
    o->vw = p == CLB_FP64 ? 2 : 4;
    o->tm = p == CLB_FP64 ? 4 : 8;
    o->nv = 8 / o->vw;
}

/*
 * Starting parameters from what the device reports. CPUs: vectors of the
 * preferred width; a register tile that fills the vector registers (32 when
 * a vector is 64 bytes wide, as with AVX-512, else 16) less those for B and
 * the broadcast; K chunks whose panel of A (TM x KC, shared by the
 * work-group) fills half of L1 and whose panels of B for the work-group fill
 * a quarter of L2. GPUs (and any device on --code-path gpu): 16 x 16
 * work-items (fewer where the device's work-group limit is lower) of
 * gpu_tile()'s tile, slices of 16 k (fewer where half of local memory does
 * not hold them). How many work-groups run is set per problem (gpu_split).
 */
static void own_defaults(const struct clb_device *dev, enum clb_precision p, bool gpu,
                         struct own_params *out)
{
    const unsigned es = (unsigned)clb_precision_bytes(p);
    const uint64_t wg = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);

    if (!gpu) {
        uint64_t vw = clb_device_u64(dev, p == CLB_FP64 ? CLB_PROP_PREF_VEC_DOUBLE
                                                        : CLB_PROP_PREF_VEC_FLOAT);
        vw = vw >= 16 ? 16 : vw >= 8 ? 8 : 4;
        const unsigned regs = vw * es >= 64 ? 32 : 16;
        unsigned long l1 = clb_cpu_cache_bytes(1), l2 = clb_cpu_cache_bytes(2);
        if (!l1)
            l1 = 32768; /* sysfs unreadable: typical sizes */
        if (!l2)
            l2 = 1 << 20;
        struct own_params o = { .variant = OWN_PACKED, .vw = (unsigned)vw, .nv = 2, .ly = 1 };
        o.tm = (regs - 2 * o.nv) / o.nv; /* accumulators, B's vectors and a broadcast */
        if (o.tm > 12)
            o.tm = 12;
        o.kc = round_down_pow2(l1 / 2 / (o.tm * es));
        if (o.kc < 64)
            o.kc = 64;
        const unsigned long panel = (unsigned long)o.kc * o.vw * o.nv * es;
        o.lx = round_down_pow2(l2 / 4 / panel);
        if (o.lx > 16)
            o.lx = 16;
        if (o.lx > wg)
            o.lx = (unsigned)(wg ? wg : 1);
        *out = o;
        return;
    }
    struct own_params o = { .variant = OWN_GPU, .lx = 16, .ly = 16, .kw = 16 };
    gpu_tile(p, &o);
    while ((uint64_t)o.lx * o.ly > (wg ? wg : 1) && o.lx > 1) {
        if (o.ly >= o.lx)
            o.ly /= 2;
        else
            o.lx /= 2;
    }
    /* Half of local memory, so that two work-groups can share a compute unit; else all. */
    const uint64_t local = clb_device_u64(dev, CLB_PROP_LOCAL_MEM_BYTES);
    while (o.kw > 4 && gpu_local_bytes(&o, es) > local / 2)
        o.kw /= 2;
    *out = o;
}

static void to_tune(const struct own_params *p, struct clb_tune_params *t)
{
    memset(t, 0, sizeof(*t));
    clb_tune_set(t, "VARIANT", p->variant);
    clb_tune_set(t, "TM", p->tm);
    clb_tune_set(t, "VW", p->vw);
    clb_tune_set(t, "NV", p->nv);
    clb_tune_set(t, "LX", p->lx);
    clb_tune_set(t, "LY", p->ly);
    if (p->variant == OWN_PACKED)
        clb_tune_set(t, "KC", p->kc);
    else
        clb_tune_set(t, "KW", p->kw);
}

static struct own_params from_tune(const struct clb_tune_params *t)
{
    return (struct own_params){
        .variant = (unsigned)clb_tune_get(t, "VARIANT", 99),
        .tm = (unsigned)clb_tune_get(t, "TM", 0), .vw = (unsigned)clb_tune_get(t, "VW", 0),
        .nv = (unsigned)clb_tune_get(t, "NV", 0), .lx = (unsigned)clb_tune_get(t, "LX", 0),
        .ly = (unsigned)clb_tune_get(t, "LY", 0), .kc = (unsigned)clb_tune_get(t, "KC", 0),
        .kw = (unsigned)clb_tune_get(t, "KW", 0),
    };
}

static bool params_valid(const struct clb_device *dev, enum clb_precision prec,
                         const struct own_params *p)
{
    const uint64_t wg = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE);
    const uint64_t es = clb_precision_bytes(prec);

    if (p->tm < 1 || p->nv < 1 || p->lx < 1 || p->ly < 1 ||
        (uint64_t)p->lx * p->ly > (wg ? wg : 1))
        return false;
    if (p->variant == OWN_PACKED)
        return p->tm <= 16 && (p->vw == 4 || p->vw == 8 || p->vw == 16) && p->nv <= 4 &&
               p->tm * p->nv <= 32 && p->kc <= 65536;
    /* The kernel's: whole vectors per work-item, every loader's count a whole number. */
    const unsigned tn = p->vw * p->nv;
    if (p->variant != OWN_GPU || (p->vw != 2 && p->vw != 4) || p->tm % p->vw || p->tm > 16 ||
        tn > 16 || p->kw < 1 || p->kw > 64 || (p->tm * p->kw) % p->lx ||
        (tn * p->kw) % p->ly || p->tm * tn * es / 4 > GPU_ACC_WORDS)
        return false;
    /* The next slice: (LY * TM + LX * TN) * KW values over LX * LY work-items. */
    const uint64_t next = (uint64_t)(p->ly * p->tm + p->lx * tn) * p->kw / (p->lx * p->ly);
    if ((p->tm * tn + next) * es / 4 > GPU_REG_WORDS)
        return false;
    return gpu_local_bytes(p, es) <= clb_device_u64(dev, CLB_PROP_LOCAL_MEM_BYTES);
}

static bool own_valid(const struct clb_device *dev, enum clb_precision prec,
                      const struct clb_tune_params *t)
{
    const struct own_params p = from_tune(t);
    return params_valid(dev, prec, &p);
}

/*
 * Candidates: the defaults; one parameter changed at a time; then, for the
 * packed variant, random ones from the same ranges (the search skips invalid
 * ones). The GPU variant's list ends after the single changes (each of the
 * tile's rows and columns, vector width, work-group shape and slice), so
 * that every one of them can be compiled and checked (gemm-gpu-configs).
 */
static bool own_candidate(const struct clb_device *dev, enum clb_precision prec, size_t index,
                          uint64_t *rng, struct clb_tune_params *out)
{
    static const unsigned tms[] = { 4, 6, 8, 12, 16 }, nvs[] = { 1, 2, 4 },
                          vws[] = { 4, 8, 16 }, kcs[] = { 0, 64, 128, 256, 512, 1024 },
                          lxs[] = { 1, 2, 4, 8, 16, 32 }, gtms[] = { 4, 8, 16 },
                          gtns[] = { 4, 8, 16 }, gvws[] = { 2, 4 }, kws[] = { 8, 16, 32 };
    static const unsigned locals[][2] = { { 8, 8 },  { 16, 8 }, { 8, 16 },
                                          { 16, 16 }, { 32, 8 }, { 8, 32 } };
#define N_OF(a) (sizeof(a) / sizeof(a[0]))
    struct own_params d, c[64];
    size_t n = 0;

    own_defaults(dev, prec, !clb_device_is_cpu(dev), &d);
    c[n++] = d;
/* Each value of `vals` for `field` but the default's, the rest as the defaults. */
#define VARY(field, vals)                                                                  \
    for (size_t i = 0; i < N_OF(vals); i++)                                                \
        if ((vals)[i] != d.field)                                                          \
            c[n] = d, c[n++].field = (vals)[i];
    if (d.variant == OWN_PACKED) {
        VARY(tm, tms) VARY(nv, nvs) VARY(vw, vws) VARY(kc, kcs) VARY(lx, lxs)
    } else {
        const unsigned tn = d.vw * d.nv;
        VARY(tm, gtms)
        for (size_t i = 0; i < N_OF(gtns); i++)
            if (gtns[i] != tn && gtns[i] % d.vw == 0)
                c[n] = d, c[n++].nv = gtns[i] / d.vw;
        for (size_t i = 0; i < N_OF(gvws); i++)
            if (gvws[i] != d.vw && tn % gvws[i] == 0)
                c[n] = d, c[n].vw = gvws[i], c[n++].nv = tn / gvws[i];
        for (size_t i = 0; i < N_OF(locals); i++)
            if (locals[i][0] != d.lx || locals[i][1] != d.ly)
                c[n] = d, c[n].lx = locals[i][0], c[n++].ly = locals[i][1];
        VARY(kw, kws)
    }
#undef VARY
    if (index < n) {
        to_tune(&c[index], out);
        return true;
    }
    if (index >= n + 500 || d.variant != OWN_PACKED)
        return false;
#define PICK(a) a[clb_rng_next(rng) % N_OF(a)]
    struct own_params r = d;
    r.tm = PICK(tms), r.nv = PICK(nvs), r.vw = PICK(vws), r.kc = PICK(kcs), r.lx = PICK(lxs);
#undef PICK
#undef N_OF
    to_tune(&r, out);
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
    if (s->ap)
        clReleaseMemObject(s->ap);
    if (s->bp)
        clReleaseMemObject(s->bp);
    if (s->w)
        clReleaseMemObject(s->w);
    if (s->sum)
        clReleaseKernel(s->sum);
    if (s->gemm)
        clReleaseKernel(s->gemm);
    if (s->pack_a)
        clReleaseKernel(s->pack_a);
    if (s->pack_b)
        clReleaseKernel(s->pack_b);
    if (s->prog)
        clReleaseProgram(s->prog);
    free(s);
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
    return (v + to - 1) / to * to;
}

/* The problem in the kernels' terms, from the data's layouts (sizes checked by the caller). */
static void own_problem(struct own_state *s)
{
    const struct clb_gemm_data *d = s->data;
    struct own_problem *q = &s->q;

    q->k = (cl_uint)d->shape.k;
    q->ldc = (cl_uint)d->lc.ld;
    q->c_off = (cl_uint)d->lc.offset;
    if (d->lc.col_stride == 1) {
        q->m = (cl_uint)d->shape.m;
        q->n = (cl_uint)d->shape.n;
        q->a_rs = (cl_uint)d->la.row_stride, q->a_cs = (cl_uint)d->la.col_stride;
        q->b_rs = (cl_uint)d->lb.row_stride, q->b_cs = (cl_uint)d->lb.col_stride;
        q->a_off = (cl_uint)d->la.offset, q->b_off = (cl_uint)d->lb.offset;
        q->a = &s->m.a;
        q->b = &s->m.b;
        return;
    }
    /* C column-major: C^T (n x m, row-major with the same ldc) = op(B)^T op(A)^T. */
    q->m = (cl_uint)d->shape.n;
    q->n = (cl_uint)d->shape.m;
    q->a_rs = (cl_uint)d->lb.col_stride, q->a_cs = (cl_uint)d->lb.row_stride;
    q->b_rs = (cl_uint)d->la.col_stride, q->b_cs = (cl_uint)d->la.row_stride;
    q->a_off = (cl_uint)d->lb.offset, q->b_off = (cl_uint)d->la.offset;
    q->a = &s->m.b;
    q->b = &s->m.a;
}

/* The -D options the variant's program is built with (kernels/gemm.cl's header). */
static void own_build_options(const struct own_params *p, enum clb_precision prec, char *buf,
                              size_t len)
{
    const char *fp64 = prec == CLB_FP64 ? " -DUSE_FP64" : "";

    if (p->variant == OWN_GPU)
        snprintf(buf, len, "-DTM=%u -DVW=%u -DNV=%u -DLX=%u -DLY=%u -DKW=%u%s", p->tm, p->vw,
                 p->nv, p->lx, p->ly, p->kw, fp64);
    else
        snprintf(buf, len, "-DTM=%u -DVW=%u -DNV=%u%s", p->tm, p->vw, p->nv, fp64);
}

static const char *own_kernel_name(const struct own_params *p)
{
    return p->variant == OWN_GPU ? "clb_gemm_gpu" : "clb_gemm";
}

bool clb_clbench_gemm_program(const struct clb_tune_params *params, enum clb_precision p,
                              char *kernel, size_t kernel_len, char *options,
                              size_t options_len)
{
    const struct own_params o = from_tune(params);

    if (kernel_len)
        kernel[0] = '\0';
    if (options_len)
        options[0] = '\0';
    if (o.variant != OWN_PACKED && o.variant != OWN_GPU)
        return false;
    snprintf(kernel, kernel_len, "%s", own_kernel_name(&o));
    own_build_options(&o, p, options, options_len);
    return true;
}

static cl_kernel kernel(struct own_state *s, const char *name, struct clb_error *e)
{
    cl_int err;
    cl_kernel k = clCreateKernel(s->prog, name, &err);
    return clb_cl_check(e, "clCreateKernel", err) ? NULL : k;
}

/*
 * How many parts the GPU variant splits K into for an m x n x k problem (in
 * the kernel's terms), and *kchunk, the k of each (a multiple of KW): 1 part
 * where the problem's tiles already give every compute unit 4 work-groups
 * (one to run and three to hide its loads behind); else enough parts to
 * reach that, each of at least GPU_SPLIT_MIN_SLICES slices, at most
 * GPU_MAX_SPLITS, their partial sums (parts x m x n) within the device's
 * largest allocation. Splitting K rather than shrinking the tile keeps one
 * compiled tile (the tuned one) at every size, and the reduction
 * (clb_gemm_gpu_sum) adds the parts in a fixed order.
 */
static cl_uint gpu_split(const struct clb_device *dev, enum clb_precision p,
                         const struct own_params *o, uint64_t m, uint64_t n, uint64_t k,
                         cl_uint *kchunk)
{
    const uint64_t cus = clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS);
    const uint64_t target = 4 * (cus ? cus : 1);
    const uint64_t tiles = ((m + (uint64_t)o->ly * o->tm - 1) / ((uint64_t)o->ly * o->tm)) *
                           ((n + (uint64_t)o->lx * o->vw * o->nv - 1) /
                            ((uint64_t)o->lx * o->vw * o->nv));
    const uint64_t slices = (k + o->kw - 1) / o->kw;
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);
    uint64_t parts = tiles >= target ? 1 : (target + tiles - 1) / tiles;

    if (parts > GPU_MAX_SPLITS)
        parts = GPU_MAX_SPLITS;
    if (parts > slices / GPU_SPLIT_MIN_SLICES)
        parts = slices / GPU_SPLIT_MIN_SLICES;
    while (parts > 1 && parts * m * n * clb_precision_bytes(p) > max_alloc)
        parts--;
    if (parts < 1)
        parts = 1;
    uint64_t chunk = (slices + parts - 1) / parts * o->kw;
    if (!chunk)
        chunk = o->kw; /* k = 0: one empty part */
    *kchunk = (cl_uint)chunk;
    return parts == 1 ? 1 : (cl_uint)((k + chunk - 1) / chunk);
}

/*
 * s->p and s->tuned: exactly `exact` (-1 where not valid here), else `stored` when valid
 * (and, on an explicit --code-path, of its variant), else the path's defaults, e saying
 * why the stored ones did not run.
 */
static int choose_params(const struct clb_device *dev, const struct clb_gemm_data *data,
                         const struct clb_tune_params *stored, const struct own_params *exact,
                         struct own_state *s, struct clb_error *e)
{
    const bool gpu = clb_code_path_gpu(data->code_path, clb_device_is_cpu(dev));

    if (exact) {
        s->p = *exact;
        if (!params_valid(dev, data->precision, &s->p)) {
            clb_error_set(e, "parameters not valid for this device and precision");
            return -1;
        }
        return 0;
    }
    own_defaults(dev, data->precision, gpu, &s->p);
    if (!stored)
        return 0;
    const struct own_params q = from_tune(stored);
    /* auto: stored parameters choose the variant; an explicit path keeps its own. */
    if (data->code_path != CLB_CODE_PATH_AUTO && (q.variant == OWN_GPU) != gpu) {
        clb_error_set(e, "stored for the %s variant, --code-path %s: defaults ran",
                      q.variant == OWN_GPU ? "gpu" : "cpu", gpu ? "gpu" : "cpu");
    } else if (params_valid(dev, data->precision, &q)) {
        s->p = q;
        s->tuned = true;
    } else {
        clb_error_set(e, "not valid for this device and precision: defaults ran");
    }
    return 0;
}

/*
 * With `stored` (may be NULL): those when valid here (and, on an explicit
 * --code-path, of its variant), else the path's defaults; else exactly `exact`.
 */
static void *create(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_gemm_data *data, const struct clb_tune_params *stored,
                    const struct own_params *exact, struct clb_error *e)
{
    struct own_state *s = calloc(1, sizeof(*s));
    const struct clb_gemm_shape sh = data->shape;
    const size_t es = clb_precision_bytes(data->precision);
    char options[192];
    cl_int err;

    if (!s) {
        clb_error_set(e, "out of host memory");
        return NULL;
    }
    s->data = data;
    s->env = env;
    if (choose_params(dev, data, stored, exact, s, e))
        goto error;
    if (sh.m > UINT32_MAX / 2 || sh.n > UINT32_MAX / 2 || sh.k > UINT32_MAX / 2) {
        clb_error_set(e, "dimensions beyond 2^31 are not supported by clbench's kernel");
        goto error;
    }
    if (data->la.ld > UINT32_MAX || data->lb.ld > UINT32_MAX || data->lc.ld > UINT32_MAX ||
        data->mode.offset > UINT32_MAX) {
        clb_error_set(e, "leading dimensions or offsets beyond 2^32 are not supported by "
                         "clbench's kernel");
        goto error;
    }
    own_problem(s);
    own_build_options(&s->p, data->precision, options, sizeof(options));
    if (!(s->prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("gemm"), options, e)))
        goto error;
    if (clb_gemm_buffers_create(&s->m, env, data, e))
        goto error;
    if (s->p.variant == OWN_GPU) {
        s->splits = gpu_split(dev, data->precision, &s->p, s->q.m, s->q.n, s->q.k, &s->kchunk);
        if (!(s->gemm = kernel(s, own_kernel_name(&s->p), e)) ||
            !(s->sum = kernel(s, "clb_gemm_gpu_sum", e)))
            goto error;
        /* One element when K is not split: the kernel takes a buffer either way. */
        const uint64_t w = s->splits > 1 ? (uint64_t)s->splits * s->q.m * s->q.n : 1;
        s->w = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, w * es, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer(partial sums of split K)", err))
            goto error;
        return s;
    }
    if (!(s->gemm = kernel(s, own_kernel_name(&s->p), e)) || !(s->pack_a = kernel(s, "clb_gemm_pack_a", e)) ||
        !(s->pack_b = kernel(s, "clb_gemm_pack_b", e)))
        goto error;
    const uint64_t tn = (uint64_t)s->p.vw * s->p.nv;
    s->ap = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, round_up(s->q.m, s->p.tm) * sh.k * es,
                          NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer(panels of A)", err))
        goto error;
    s->bp = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, round_up(s->q.n, tn) * sh.k * es, NULL,
                          &err);
    if (clb_cl_check(e, "clCreateBuffer(panels of B)", err))
        goto error;
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

/* Sets a scalar argument in the precision of the problem. */
static int set_scalar(cl_kernel k, cl_uint idx, enum clb_precision p, double v,
                      struct clb_error *e)
{
    float f = (float)v;
    return p == CLB_FP64 ? CLB_CL(e, clSetKernelArg, k, idx, sizeof(double), &v)
                         : CLB_CL(e, clSetKernelArg, k, idx, sizeof(float), &f);
}

static int run_gpu(struct own_state *s, struct clb_error *e)
{
    const struct clb_gemm_data *d = s->data;
    const struct own_problem *q = &s->q;
    const uint64_t mt = (uint64_t)s->p.ly * s->p.tm, nt = (uint64_t)s->p.lx * s->p.vw * s->p.nv;
    const size_t local[3] = { s->p.lx, s->p.ly, 1 };
    const size_t global[3] = { round_up(q->n, nt) / nt * s->p.lx,
                               round_up(q->m, mt) / mt * s->p.ly, s->splits };
    const size_t global_sum[2] = { q->n, q->m };
    const cl_uint *uints[] = { &q->m,    &q->n,   &q->k,     &q->a_rs,  &q->a_cs, &q->b_rs,
                               &q->b_cs, &q->ldc, &q->a_off, &q->b_off, &q->c_off };
    const cl_uint n_uints = sizeof(uints) / sizeof(uints[0]);

    for (cl_uint i = 0; i < n_uints; i++)
        if (CLB_CL(e, clSetKernelArg, s->gemm, i, sizeof(cl_uint), uints[i]))
            return -1;
    if (set_scalar(s->gemm, n_uints, d->precision, d->alpha, e) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 1, sizeof(cl_mem), q->a) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 2, sizeof(cl_mem), q->b) ||
        set_scalar(s->gemm, n_uints + 3, d->precision, d->beta, e) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 4, sizeof(cl_mem), &s->m.c) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 5, sizeof(cl_uint), &s->kchunk) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 6, sizeof(cl_uint), &s->splits) ||
        CLB_CL(e, clSetKernelArg, s->gemm, n_uints + 7, sizeof(cl_mem), &s->w) ||
        CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->gemm, 3, NULL, global, local, 0,
               NULL, NULL))
        return -1;
    /* Split K: the parts' sums, alpha and beta applied, as part of the call. */
    if (s->splits > 1 &&
        (CLB_CL(e, clSetKernelArg, s->sum, 0, sizeof(cl_uint), &q->m) ||
         CLB_CL(e, clSetKernelArg, s->sum, 1, sizeof(cl_uint), &q->n) ||
         CLB_CL(e, clSetKernelArg, s->sum, 2, sizeof(cl_uint), &s->splits) ||
         CLB_CL(e, clSetKernelArg, s->sum, 3, sizeof(cl_uint), &q->ldc) ||
         CLB_CL(e, clSetKernelArg, s->sum, 4, sizeof(cl_uint), &q->c_off) ||
         set_scalar(s->sum, 5, d->precision, d->alpha, e) ||
         CLB_CL(e, clSetKernelArg, s->sum, 6, sizeof(cl_mem), &s->w) ||
         set_scalar(s->sum, 7, d->precision, d->beta, e) ||
         CLB_CL(e, clSetKernelArg, s->sum, 8, sizeof(cl_mem), &s->m.c) ||
         CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->sum, 2, NULL, global_sum, NULL, 0,
                NULL, NULL)))
        return -1;
    return clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue)) ? -1 : 0;
}

/* Sets the packing kernel's arguments: rows, columns, strides, offset, source, panels. */
static int set_pack_args(cl_kernel k, cl_uint rows, cl_uint cols, cl_uint rs, cl_uint cs,
                         cl_uint off, const cl_mem *src, const cl_mem *dst, struct clb_error *e)
{
    return CLB_CL(e, clSetKernelArg, k, 0, sizeof(cl_uint), &rows) ||
                   CLB_CL(e, clSetKernelArg, k, 1, sizeof(cl_uint), &cols) ||
                   CLB_CL(e, clSetKernelArg, k, 2, sizeof(cl_uint), &rs) ||
                   CLB_CL(e, clSetKernelArg, k, 3, sizeof(cl_uint), &cs) ||
                   CLB_CL(e, clSetKernelArg, k, 4, sizeof(cl_uint), &off) ||
                   CLB_CL(e, clSetKernelArg, k, 5, sizeof(cl_mem), src) ||
                   CLB_CL(e, clSetKernelArg, k, 6, sizeof(cl_mem), dst)
               ? -1
               : 0;
}

static int own_run(void *state, struct clb_error *e)
{
    struct own_state *s = state;
    const struct clb_gemm_data *d = s->data;
    const struct own_problem *q = &s->q;
    const cl_uint m = q->m, n = q->n, k = q->k;
    const cl_uint tn = s->p.vw * s->p.nv;
    const cl_uint kc_max = s->p.kc ? s->p.kc : k;
    const size_t local[2] = { s->p.lx, s->p.ly };
    const size_t global[2] = { round_up((n + tn - 1) / tn, s->p.lx),
                               round_up((m + s->p.tm - 1) / s->p.tm, s->p.ly) };
    const size_t global_a[2] = { k, (m + s->p.tm - 1) / s->p.tm };
    const size_t global_b[2] = { (n + tn - 1) / tn, k };

    if (s->p.variant == OWN_GPU)
        return run_gpu(s, e);
    /* Packing is part of the call, as CLBlast's own pre-processing is part of its. */
    if (set_pack_args(s->pack_a, m, k, q->a_rs, q->a_cs, q->a_off, q->a, &s->ap, e) ||
        CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->pack_a, 2, NULL, global_a, NULL, 0,
               NULL, NULL) ||
        set_pack_args(s->pack_b, k, n, q->b_rs, q->b_cs, q->b_off, q->b, &s->bp, e) ||
        CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->pack_b, 2, NULL, global_b, NULL, 0,
               NULL, NULL))
        return -1;
    if (CLB_CL(e, clSetKernelArg, s->gemm, 0, sizeof(cl_uint), &m) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 1, sizeof(cl_uint), &n) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 2, sizeof(cl_uint), &k) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 5, sizeof(cl_uint), &q->ldc) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 6, sizeof(cl_uint), &q->c_off) ||
        set_scalar(s->gemm, 7, d->precision, d->alpha, e) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 8, sizeof(cl_mem), &s->ap) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 9, sizeof(cl_mem), &s->bp) ||
        CLB_CL(e, clSetKernelArg, s->gemm, 11, sizeof(cl_mem), &s->m.c))
        return -1;
    /* K in chunks: the first applies beta, the rest add onto it. */
    for (cl_uint k0 = 0; k0 < k; k0 += kc_max) {
        const cl_uint kc = k - k0 < kc_max ? k - k0 : kc_max;
        if (CLB_CL(e, clSetKernelArg, s->gemm, 3, sizeof(cl_uint), &k0) ||
            CLB_CL(e, clSetKernelArg, s->gemm, 4, sizeof(cl_uint), &kc) ||
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

/*
 * CPUs: the packed panels of A and B (tiles of up to 16 rows and 64
 * columns), in either order (a column-major mode packs B's rows as A's).
 * GPUs: the partial sums of split K at the defaults' tile (either order
 * gives the same count). By the device's type: the hook is not told the
 * code path, so --code-path against the type is checked by the allocation.
 */
static void own_extra_bytes(const struct clb_device *dev, struct clb_gemm_shape sh,
                            enum clb_precision p, uint64_t *total, uint64_t *largest)
{
    const uint64_t es = clb_precision_bytes(p), mn = sh.m > sh.n ? sh.m : sh.n;

    if (!clb_device_is_cpu(dev)) {
        struct own_params o;
        cl_uint kchunk;
        own_defaults(dev, p, true, &o);
        const cl_uint parts = gpu_split(dev, p, &o, sh.m, sh.n, sh.k, &kchunk);
        *total = *largest = parts > 1 ? (uint64_t)parts * sh.m * sh.n * es : 0;
        return;
    }
    *total = (sh.m + 15 + sh.n + 63) * sh.k * es; /* the same either way */
    *largest = (mn + 63) * sh.k * es;
}

static bool own_tuned(void *state)
{
    return ((struct own_state *)state)->tuned;
}

static const char *own_code_path(void *state)
{
    return ((const struct own_state *)state)->p.variant == OWN_GPU ? "gpu" : "cpu";
}

static void own_describe(void *state, char *buf, size_t len)
{
    const struct own_state *s = state;
    const struct own_params *p = &s->p;
    char kc[16] = "all"; /* KC = 0: all of K in one launch */

    if (p->kc)
        snprintf(kc, sizeof(kc), "%u", p->kc);
    if (p->variant == OWN_GPU)
        snprintf(buf, len, "gpu tiles: TM=%u TN=%u (%u x %u) LX=%u LY=%u KW=%u split-K=%u",
                 p->tm, p->vw * p->nv, p->nv, p->vw, p->lx, p->ly, p->kw, s->splits);
    else
        snprintf(buf, len, "packed panels: TM=%u TN=%u (%u x %u) LX=%u KC=%s", p->tm,
                 p->vw * p->nv, p->nv, p->vw, p->lx, kc);
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
    .describe = own_describe,
    .code_path = own_code_path,
    .extra_device_bytes = own_extra_bytes,
    .tuning = &own_tuning,
};
