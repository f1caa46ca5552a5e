#include <CL/cl_half.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/timer.h"

/* Rounds per work-item: long enough that the loop, not the launch, is measured. int8's
 * chains repeat every 256 rounds, so it runs a count that is no multiple of that: a kernel
 * that ran no round at all (or any multiple of 256 fewer) would otherwise match. */
enum { ITERS = 1024, ITERS_INT8 = 1000 };
/* Launches index work-items in 32 bits at most (the kernel's uint starts; a 32-bit device's
 * size_t). */
#define MAX_GLOBAL_INDEX UINT64_C(0xffffffff)
/* Outputs read back and checked this many at a time: host memory stays bounded however
 * large the launch. */
enum { VERIFY_CHUNK = 1 << 20 };

/* Sizing (clb_peak_next_global): the step past the time a call's scaled work would take, and
 * the most one step grows a launch. */
#define GROW_MARGIN 1.25
#define GROW_MAX 1024.0

static const unsigned widths[] = { 1, 2, 4, 8, 16 };

static const struct ptype {
    enum clb_precision precision;
    const char *type, *define, *metric;
    size_t size, out_size; /* bytes of one coefficient, of one output element */
    unsigned iters;
    bool extension; /* needs an OpenCL extension: a failed build reads unavailable */
} ptypes[] = {
    { CLB_FP32, "float", "", "gflops", 4, 4, ITERS, false },
    { CLB_FP64, "double", "-DT_IS_DOUBLE", "gflops", 8, 8, ITERS, true },
    { CLB_FP16, "half", "-DT_IS_HALF", "gflops", 2, 4, ITERS, true },
    { CLB_BF16, NULL, NULL, "gflops", 2, 4, 0, true }, /* no OpenCL C arithmetic: unavailable */
    { CLB_INT32, "uint", "-DT_IS_UINT", "giops", 4, 4, ITERS, false },
    { CLB_INT16, "ushort", "-DT_IS_UINT -DT_IS_NARROW", "giops", 2, 4, ITERS, false },
    { CLB_INT8, "uchar", "-DT_IS_UINT -DT_IS_NARROW", "giops", 1, 4, ITERS_INT8, false },
    { CLB_INT8DOT, "uint", "-DT_IS_DOT", "giops", 4, 4, ITERS, true },
};

/* int8dot: one width, the 4 int8 lanes of a packed dot product; 8 operations each (4
 * multiplies, 4 adds with the accumulate), as clpeak counts dot_acc_sat. */
enum { DOT_WIDTH = 4, DOT_OPS = 8 };

/* Multiply-add coefficients: floating chains gain exactly 2^-10 per round; the narrow
 * integers take the int32 ones truncated (a = 1 mod 4, b odd: full period). */
#define FA 1.0
#define FB (0x1p-10)
#define UA 1664525u
#define UB 1013904223u
/* int8dot: the coefficient bytes (3, 5, 7, 11) and the start scale 0x01010101. */
#define DOT_A 0x0B070503u
#define DOT_B 0x01010101u

static uint32_t dot_acc_sat_uu(uint32_t x, uint32_t y, uint32_t acc)
{
    uint64_t s = acc;
    for (int i = 0; i < 32; i += 8)
        s += (uint64_t)((x >> i) & 0xffu) * ((y >> i) & 0xffu);
    return s > UINT32_MAX ? UINT32_MAX : (uint32_t)s;
}

static int cmp_u32(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

unsigned clb_peak_chains(bool gpu, unsigned width, size_t element_bytes)
{
    const size_t words = width * ((element_bytes + 3) / 4);
    const size_t fit = words ? CLB_PEAK_GPU_WORDS / words : CLB_PEAK_MAX_CHAINS;

    if (!gpu)
        return CLB_PEAK_MAX_CHAINS;
    return fit < 1 ? 1 : fit > CLB_PEAK_MAX_CHAINS ? CLB_PEAK_MAX_CHAINS : (unsigned)fit;
}

void clb_peak_expect_init(struct clb_peak_expect *x, enum clb_precision precision, unsigned width,
                          unsigned chains, unsigned iters)
{
    const int64_t w = width, c = chains, lanes = c * w;
    const bool narrow = precision == CLB_INT16 || precision == CLB_INT8;

    memset(x, 0, sizeof(*x));
    x->integer = narrow || precision == CLB_INT32 || precision == CLB_INT8DOT;
    x->form = !x->integer || precision == CLB_INT8DOT ? CLB_PEAK_BY_CLASS
              : narrow                                     ? CLB_PEAK_WRAPPED
                                                           : CLB_PEAK_LINEAR;
    x->out_size = precision == CLB_FP64 ? 8 : 4;
    if (precision == CLB_INT8DOT) {
        /* Not linear: run every chain of every class of work-items, as the kernel does. */
        for (uint32_t m = 0; m < 7; m++) {
            uint32_t sum = 0;
            for (uint32_t k = 0; k < chains; k++) {
                uint32_t v = DOT_B * (1 + k + 8 * m);
                for (unsigned i = 0; i < iters; i++)
                    v = dot_acc_sat_uu(v, DOT_A, v);
                sum += v;
            }
            x->by_class[m] = sum;
        }
        return;
    }
    if (x->integer) {
        /* x_n = a_n x_0 + c_n: reduction mod 2^16 or 2^8 commutes with + and *, so the
         * narrow types run the same recurrence, masked. */
        uint32_t a_n = 1, c_n = 0;
        for (unsigned i = 0; i < iters; i++) {
            a_n *= UA;
            c_n = c_n * UA + UB;
        }
        if (narrow) {
            /* Chain j of work-item g ends at (A_j + u) mod 2^bits, A_j = a_n s_j + c_n (s_j =
             * k + 9 l) and u = a_n 7919 g: the work-item's plain sum is sum A_j + n u less
             * 2^bits for every A_j >= 2^bits - u, counted in the sorted A_j. */
            const uint32_t bits = precision == CLB_INT8 ? 8 : 16;
            if (lanes > (int64_t)(sizeof(x->ends) / sizeof(x->ends[0])))
                return; /* wider than any kernel: nothing verifies */
            x->mask = (UINT32_C(1) << bits) - 1;
            x->n_chains = (unsigned)lanes;
            for (uint32_t l = 0, j = 0; l < width; l++)
                for (uint32_t k = 0; k < chains; k++, j++) {
                    x->ends[j] = (a_n * (k + 9 * l) + c_n) & x->mask;
                    x->offset += x->ends[j];
                }
            qsort(x->ends, x->n_chains, sizeof(x->ends[0]), cmp_u32);
            x->slope = (a_n * 7919u) & x->mask;
            return;
        }
        /* The sum of a work-item's chains is a_n (sum of starts) + lanes c_n, and its
         * starts grow by lanes * 7919 per work-item; the starts k + 1000 l of work-item 0
         * sum to w c (c - 1) / 2 + 1000 c w (w - 1) / 2. */
        const uint32_t starts0 = (uint32_t)(w * c * (c - 1) / 2 + 500 * c * w * (w - 1));
        x->slope = a_n * (uint32_t)lanes * 7919u;
        x->offset = a_n * starts0 + (uint32_t)lanes * c_n;
        x->mask = UINT32_MAX;
        return;
    }
    /* Chain k of lane l ends at (k + 8 l + 128 m - 1024 + iters) 2^-10: the sum over k < c
     * and l < w, in units of 2^-10, is exact in double. */
    for (int64_t m = 0; m < 7; m++)
        x->by_class[m] = ldexp((double)(lanes * (128 * m - 1024 + (int64_t)iters) +
                                        w * c * (c - 1) / 2 + 4 * c * w * (w - 1)),
                               -10);
}

double clb_peak_expected(const struct clb_peak_expect *x, uint64_t item)
{
    if (x->form == CLB_PEAK_LINEAR)
        return (uint32_t)(x->slope * (uint32_t)item + x->offset);
    if (x->form == CLB_PEAK_WRAPPED) {
        const uint32_t u = (x->slope * (uint32_t)item) & x->mask;
        size_t lo = 0, hi = x->n_chains; /* the first A_j >= 2^bits - u */
        while (lo < hi) {
            const size_t mid = (lo + hi) / 2;
            if (x->ends[mid] < x->mask + 1 - u)
                lo = mid + 1;
            else
                hi = mid;
        }
        return (double)x->offset + (double)x->n_chains * u -
               (double)(x->mask + 1) * (double)(x->n_chains - lo);
    }
    return x->by_class[item % 7];
}

bool clb_peak_verify(const struct clb_peak_expect *x, uint64_t first, const void *out, size_t n,
                     char *why, size_t why_len)
{
    for (size_t i = 0; i < n; i++) {
        const double got = x->integer        ? ((const uint32_t *)out)[i]
                           : x->out_size == 8 ? ((const double *)out)[i]
                                              : ((const float *)out)[i];
        const double want = clb_peak_expected(x, first + i);
        if (got != want) {
            snprintf(why, why_len, "work-item %llu returned %.15g, expected %.15g",
                     (unsigned long long)(first + i), got, want);
            return false;
        }
    }
    return true;
}

uint64_t clb_peak_local_size(uint64_t preferred_multiple, uint64_t kernel_max,
                             uint64_t device_max)
{
    uint64_t most = CLB_PEAK_LOCAL_MAX;

    if (kernel_max && kernel_max < most)
        most = kernel_max;
    if (device_max && device_max < most)
        most = device_max;
    /* A multiple the bounds leave no room for (a kernel of 32 where warps are 64) gives way:
     * the groups must run at all. */
    return preferred_multiple && preferred_multiple <= most
               ? most / preferred_multiple * preferred_multiple
               : most;
}

uint64_t clb_peak_first_global(uint64_t compute_units, uint64_t local, uint64_t max_global)
{
    const uint64_t global = (compute_units ? compute_units : 1) * CLB_PEAK_GROUPS_PER_CU * local;
    return global < max_global ? global : max_global;
}

bool clb_peak_fills_device(uint64_t global, uint64_t local, uint64_t compute_units)
{
    return compute_units && local && global / local >= compute_units * CLB_PEAK_GROUPS_PER_CU;
}

uint64_t clb_peak_next_global(const double seconds[2], uint64_t global, uint64_t local,
                              double target_s, uint64_t max_global)
{
    const uint64_t step = local ? local : 1, top = max_global / step * step;
    /* The faster call: another process only ever slows one. */
    const double s = seconds[0] < seconds[1] ? seconds[0] : seconds[1];

    if (s >= target_s || global >= top)
        return global < top || !top ? global : top;
    /* A launch's time is its fixed cost plus its work: scaling the whole time undershoots,
     * never overshoots, so the margin makes one step reach the target where the work
     * dominates; the cap keeps a first call lost in timer noise from asking for the
     * whole device. */
    double grow = target_s / (s > 1e-9 ? s : 1e-9) * GROW_MARGIN;
    if (grow > GROW_MAX)
        grow = GROW_MAX;
    const double want = ceil((double)global * grow / (double)step) * (double)step;
    return want >= (double)top ? top : (uint64_t)want;
}

uint64_t clb_peak_max_global(uint64_t max_alloc_bytes, size_t out_size, uint64_t local)
{
    const uint64_t by_alloc = out_size ? max_alloc_bytes / out_size : 0,
                   step = local ? local : 1;
    return (by_alloc < MAX_GLOBAL_INDEX ? by_alloc : MAX_GLOBAL_INDEX) / step * step;
}

static int set_coefficients(cl_kernel k, const struct ptype *t, struct clb_error *e)
{
    union {
        float f;
        double d;
        cl_half h;
        cl_uint u;
        cl_ushort us;
        cl_uchar uc;
    } a, b;

    if (t->size == 8) {
        a.d = FA;
        b.d = FB;
    } else if (!strcmp(t->type, "half")) {
        a.h = cl_half_from_float((float)FA, CL_HALF_RTE);
        b.h = cl_half_from_float((float)FB, CL_HALF_RTE);
    } else if (t->precision == CLB_INT8DOT) {
        a.u = DOT_A;
        b.u = DOT_B;
    } else if (t->size == 1) {
        a.uc = (cl_uchar)UA;
        b.uc = (cl_uchar)UB;
    } else if (t->size == 2) {
        a.us = (cl_ushort)UA;
        b.us = (cl_ushort)UB;
    } else if (t->type[0] == 'u') {
        a.u = UA;
        b.u = UB;
    } else {
        a.f = (float)FA;
        b.f = (float)FB;
    }
    return CLB_CL(e, clSetKernelArg, k, 1, t->size, &a) ||
           CLB_CL(e, clSetKernelArg, k, 2, t->size, &b);
}

/* One launch of global work-items in groups of local, finished: *seconds on the host clock. */
static int launch(const struct clb_cl_env *env, cl_kernel k, size_t global, size_t local,
                  double *seconds, struct clb_error *e)
{
    double t0 = clb_now_s();
    if (CLB_CL(e, clEnqueueNDRangeKernel, env->queue, k, 1, NULL, &global, &local, 0, NULL,
               NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(env->queue)))
        return -1;
    *seconds = clb_now_s() - t0;
    return 0;
}

/* Reads back and checks the n outputs in out, a chunk at a time. */
static void check_outputs(const struct clb_cl_env *env, cl_mem out, const struct ptype *t,
                          unsigned width, unsigned chains, size_t n, struct clb_row *row,
                          struct clb_error *e, int *fault)
{
    const size_t chunk = n < VERIFY_CHUNK ? n : VERIFY_CHUNK;
    void *host = malloc(chunk * t->out_size);
    struct clb_peak_expect want;
    char why[200];

    *fault = 0;
    if (!host) {
        clb_error_set(e, "out of host memory");
        *fault = -1;
        return;
    }
    clb_peak_expect_init(&want, t->precision, width, chains, t->iters);
    for (size_t at = 0; at < n; at += chunk) {
        const size_t len = n - at < chunk ? n - at : chunk;
        if (CLB_CL(e, clEnqueueReadBuffer, env->queue, out, CL_TRUE, at * t->out_size,
                   len * t->out_size, host, 0, NULL, NULL)) {
            *fault = -1;
            break;
        }
        if (!clb_peak_verify(&want, at, host, len, why, sizeof(why))) {
            row->status = CLB_ROW_FAILED;
            snprintf(row->reason, sizeof(row->reason), "wrong result: %s", why);
            break;
        }
    }
    free(host);
}

/* Sizes out for `global` outputs (released first where it exists); -1 with e set. */
static int size_output(const struct clb_cl_env *env, cl_kernel k, const struct ptype *t,
                       uint64_t global, cl_mem *out, struct clb_error *e)
{
    cl_int err;

    if (*out)
        clReleaseMemObject(*out);
    *out = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * t->out_size, NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer", err)) {
        *out = NULL;
        return -1;
    }
    return CLB_CL(e, clSetKernelArg, k, 0, sizeof(cl_mem), out) ? -1 : 0;
}

/* The work-group size of k's launches on dev (clb_peak_local_size); 0 with e set. */
static uint64_t local_size(const struct clb_device *dev, cl_kernel k, struct clb_error *e)
{
    size_t multiple = 0, kernel_max = 0;

    if (CLB_CL(e, clGetKernelWorkGroupInfo, k, dev->id,
               CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof(multiple), &multiple, NULL) ||
        CLB_CL(e, clGetKernelWorkGroupInfo, k, dev->id, CL_KERNEL_WORK_GROUP_SIZE,
               sizeof(kernel_max), &kernel_max, NULL))
        return 0;
    return clb_peak_local_size(multiple, kernel_max,
                               clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE));
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        const uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/*
 * Sizes the launch: explicit work-groups (local_size), first CLB_PEAK_GROUPS_PER_CU of them
 * per compute unit, grown by clb_peak_next_global from the faster of two calls at each size
 * until it takes the target time (launch overhead and the tail of the last wave then
 * vanish). *out: the output buffer of the final size, the caller's to release.
 */
static int size_launch(const struct clb_device *dev, const struct clb_cl_env *env, cl_kernel k,
                       const struct ptype *t, const struct clb_micro_options *opt,
                       uint64_t *global, uint64_t *local, cl_mem *out, struct clb_error *e)
{
    const double target = opt->target_s > 0 ? opt->target_s : 0.02;
    double seconds[2];

    if (!(*local = local_size(dev, k, e)))
        return -1;
    const uint64_t max_global =
        clb_peak_max_global(clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES), t->out_size, *local);
    if (max_global == 0) {
        clb_error_set(e, "device reports no room for one work-group's output");
        return -1;
    }
    *global = clb_peak_first_global(clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS), *local,
                                    max_global);
    /* Test hook (CLBENCH_TEST_PEAK_ITEMS=N, tests/oclgrind): N work-items per launch, in
     * groups that divide N, never grown, so that a device that interprets kernels (Oclgrind)
     * runs every row in a second. */
    const char *items = getenv("CLBENCH_TEST_PEAK_ITEMS");
    const bool fixed = items && atoi(items) > 0;
    if (fixed) {
        *global = (uint64_t)atoi(items);
        *local = gcd(*global, *local);
    }
    /* The first launch may include lazy compilation (pocl builds the work-group function
     * then): it is kept out of the sizing. */
    if (size_output(env, k, t, *global, out, e) ||
        launch(env, k, *global, *local, &seconds[0], e))
        return -1;
    for (uint64_t next = *global; !fixed; *global = next) {
        if (launch(env, k, *global, *local, &seconds[0], e) ||
            launch(env, k, *global, *local, &seconds[1], e))
            return -1;
        if ((next = clb_peak_next_global(seconds, *global, *local, target, max_global)) ==
            *global)
            break;
        if (size_output(env, k, t, next, out, e))
            return -1;
    }
    return 0;
}

/* The timed launches until the row has its calls. */
static int timed_launches(const struct clb_cl_env *env, cl_kernel k, uint64_t global,
                          uint64_t local, const struct clb_micro_options *opt,
                          struct clb_row *row, struct clb_error *e)
{
    double seconds;

    while (clb_micro_want(row, opt->runs, opt->min_time_s)) {
        if (launch(env, k, global, local, &seconds, e))
            return -1;
        if (clb_micro_push(row, seconds)) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
    }
    return 0;
}

/* The row's check, work and launch once every output was checked. */
static void describe_row(const struct clb_device *dev, const struct ptype *t, unsigned width,
                         unsigned chains, bool dot, uint64_t global, uint64_t local,
                         const char *variant, const char *options, struct clb_row *row)
{
    if (dot)
        snprintf(row->check, sizeof(row->check),
                 "%llu work-items x %u rounds, each checked exactly (distinct starts per chain "
                 "and neighbour)%s",
                 (unsigned long long)global, t->iters,
                 strstr(variant, "EMULATED") ? "; dot emulated in OpenCL C (test hook)" : "");
    else
        snprintf(row->check, sizeof(row->check),
                 "%llu work-items x %u rounds, each checked exactly (distinct starts per "
                 "work-item and lane)",
                 (unsigned long long)global, t->iters);
    /* Per round `chains` steps: each a multiply-add per lane (2 operations), or one
     * dot_acc_sat. */
    row->work = (double)global * t->iters * chains * (dot ? DOT_OPS : width * 2.0);
    row->launch = (struct clb_micro_launch){
        .global_size = global, .local_size = local, .rounds = t->iters,
        .width = dot ? 1 : width, .chains = chains,
        .fills_device =
            clb_peak_fills_device(global, local, clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS)),
    };
    snprintf(row->launch.options, sizeof(row->launch.options), "%s", options);
}

/* One (precision, width): build, size the launch, time, verify. Faults land in row. */
static void measure(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_micro_options *opt, const struct ptype *t, unsigned width,
                    const char *variant, struct clb_row *row)
{
    struct clb_error e = { "" };
    char options[sizeof(row->launch.options)], log[sizeof(row->reason) - 64];
    const bool dot = t->precision == CLB_INT8DOT;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    cl_int err;
    int fault;
    uint64_t global = 0, local = 0;
    const bool gpu = clb_code_path_gpu(opt->code_path, clb_device_is_cpu(dev));
    const unsigned chains = clb_peak_chains(gpu, dot ? 1 : width, t->size);

    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    snprintf(options, sizeof(options), "-DT=%s -DWIDTH=%u -DITERS=%u -DCHAINS=%u %s %s",
             t->type, dot ? 1 : width, t->iters, chains, t->define, variant);
    for (size_t n = strlen(options); n && options[n - 1] == ' ';)
        options[--n] = '\0';
    if (!(prog = clb_cl_build_log(env->ctx, dev->id, clb_kernel_source("peak"), options, log,
                                  sizeof(log), &e))) {
        if (t->extension && strstr(e.msg, "CL_BUILD_PROGRAM_FAILURE")) {
            /* The device lists the extension, its compiler does not take the kernel: the
             * figure does not exist here, which is no fault of the run. */
            row->status = CLB_ROW_UNAVAILABLE;
            snprintf(row->reason, sizeof(row->reason), "kernel does not build (%s): %s",
                     options, log[0] ? log : "no build log");
            goto done;
        }
        goto fault;
    }
    k = clCreateKernel(prog, "clb_peak", &err);
    if (clb_cl_check(&e, "clCreateKernel", err) || set_coefficients(k, t, &e) ||
        size_launch(dev, env, k, t, opt, &global, &local, &out, &e) ||
        timed_launches(env, k, global, local, opt, row, &e))
        goto fault;
    check_outputs(env, out, t, width, chains, global, row, &e, &fault);
    if (fault)
        goto fault;
    describe_row(dev, t, width, chains, dot, global, local, variant, options, row);
    goto done;

fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_micro_row_summarize(row);
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
}

/* Whether list, a space-separated extension string, names ext. */
static bool has_extension(const char *list, const char *ext)
{
    const size_t len = strlen(ext);

    for (const char *p = list; p && (p = strstr(p, ext)); p += len)
        if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
            return true;
    return false;
}

/* OpenCL 3.0 names, absent from the 1.2 headers clbench builds against. */
#define CLB_DEVICE_OPENCL_C_ALL_VERSIONS 0x1066
struct clb_name_version {
    cl_uint version; /* CL_MAKE_VERSION: major << 22 | minor << 12 | patch */
    char name[64];
};

bool clb_peak_c_version_3(const char *c_version)
{
    unsigned major = 0;
    return c_version && sscanf(c_version, "OpenCL C %u", &major) == 1 && major >= 3;
}

/*
 * Whether dev compiles OpenCL C 3.0: a 3.0 device lists it in
 * CL_DEVICE_OPENCL_C_ALL_VERSIONS (its CL_DEVICE_OPENCL_C_VERSION may say 1.2, as
 * pocl 3.1's does, being the newest version without optional features); an older
 * device names its one version in CL_DEVICE_OPENCL_C_VERSION.
 */
static bool opencl_c_3(const struct clb_device *dev)
{
    struct clb_name_version v[16];
    size_t bytes = 0;
    unsigned major = 0;

    const char *version = clb_device_str(dev, CLB_PROP_VERSION);

    if (version && sscanf(version, "OpenCL %u", &major) == 1 && major >= 3 &&
        clGetDeviceInfo(dev->id, CLB_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof(v), v, &bytes) ==
            CL_SUCCESS)
        for (size_t i = 0; i < bytes / sizeof(v[0]); i++)
            if (v[i].version >> 22 >= 3)
                return true;
    return clb_peak_c_version_3(clb_device_str(dev, CLB_PROP_C_VERSION));
}

/*
 * Whether dev can run t: true with any extra build options in variant, or false with the
 * reason in why.
 */
static bool available(const struct clb_device *dev, const struct ptype *t, char *variant,
                      size_t variant_len, char *why, size_t why_len)
{
    const char *ext = clb_device_str(dev, CLB_PROP_EXTENSIONS);

    variant[0] = '\0';
    if (t->precision == CLB_FP64 && !clb_device_bool(dev, CLB_PROP_FP64)) {
        snprintf(why, why_len, "device has no fp64 (cl_khr_fp64)");
        return false;
    }
    if (t->precision == CLB_FP16 && !clb_device_bool(dev, CLB_PROP_FP16)) {
        snprintf(why, why_len, "device has no fp16 (cl_khr_fp16)");
        return false;
    }
    if (t->precision == CLB_BF16) {
        /* The only OpenCL C bfloat16 extension converts: arithmetic on it would be fp32's. */
        if (has_extension(ext, "cl_intel_bfloat16_conversions"))
            snprintf(why, why_len, "OpenCL C has no bfloat16 arithmetic: the device's "
                                   "cl_intel_bfloat16_conversions only converts to and from "
                                   "fp32, so bf16 math runs at the fp32 rate");
        else
            snprintf(why, why_len, "device has no bfloat16 extension, and OpenCL C has no "
                                   "bfloat16 arithmetic");
        return false;
    }
    if (t->precision != CLB_INT8DOT)
        return true;
    /* The extension's built-ins are declared only for OpenCL C 3.0 by some compilers
     * (Intel's NEO, clang: tests/source/int8dot-std.sh); in 1.2 mode they are missing. */
    const char *std = opencl_c_3(dev) ? " -cl-std=CL3.0" : "";
    const char *fake = getenv("CLBENCH_FAKE_INTEGER_DOT_PRODUCT");
    if (fake && *fake && strcmp(fake, "0")) {
        snprintf(variant, variant_len, "-DDOT_EMULATED%s", std);
        return true;
    }
    if (!has_extension(ext, "cl_khr_integer_dot_product")) {
        snprintf(why, why_len, "device has no cl_khr_integer_dot_product");
        return false;
    }
    /* The packed form where the device says it has it (or says nothing), else the vector
     * form; the two compute the same. */
    cl_bitfield caps = 0;
    struct clb_error e;
    if (CLB_CL(&e, clGetDeviceInfo, dev->id, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR,
               sizeof(caps), &caps, NULL))
        caps = CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR;
    if (caps & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR) {
        snprintf(variant, variant_len, "-DDOT_PACKED%s", std);
        return true;
    }
    if (caps & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR) {
        snprintf(variant, variant_len, "-DDOT_VECTOR%s", std);
        return true;
    }
    snprintf(why, why_len, "device lists cl_khr_integer_dot_product but no 4x8-bit input "
                           "(CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR = 0x%llx)",
             (unsigned long long)caps);
    return false;
}

int clb_peak_run(const struct clb_device *dev, const struct clb_cl_env *env,
                 const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    for (size_t p = 0; p < sizeof(ptypes) / sizeof(ptypes[0]); p++) {
        const struct ptype *t = &ptypes[p];
        const bool dot = t->precision == CLB_INT8DOT;
        struct clb_row *best = NULL;
        bool wanted = !opt->precisions;
        char variant[48], why[sizeof(out->rows[0].reason)];

        for (size_t i = 0; opt->precisions && i < opt->n_precisions; i++)
            wanted |= opt->precisions[i] == t->precision;
        if (!wanted)
            continue;
        if (!available(dev, t, variant, sizeof(variant), why, sizeof(why))) {
            struct clb_row *row = clb_micro_add(out, dev, CLB_BENCH_PEAK, t->metric);
            if (!row)
                return -1;
            row->precision = t->precision;
            row->headline = true;
            snprintf(row->case_, sizeof(row->case_), "%s", clb_precision_name(t->precision));
            row->status = CLB_ROW_UNAVAILABLE;
            snprintf(row->reason, sizeof(row->reason), "%s", why);
            continue;
        }
        const size_t first = out->n_rows, n_widths = dot ? 1 : sizeof(widths) / sizeof(widths[0]);
        for (size_t w = 0; w < n_widths; w++) {
            const unsigned width = dot ? DOT_WIDTH : widths[w];
            struct clb_row *row = clb_micro_add(out, dev, CLB_BENCH_PEAK, t->metric);
            if (!row)
                return -1;
            row->precision = t->precision;
            row->width = width;
            snprintf(row->case_, sizeof(row->case_), "%s x%u", clb_precision_name(t->precision),
                     width);
            measure(dev, env, opt, t, width, variant, row);
            if (w == 0 && row->status == CLB_ROW_UNAVAILABLE) {
                /* Its compiler refused the first width: one row says so for them all. */
                snprintf(row->case_, sizeof(row->case_), "%s", clb_precision_name(t->precision));
                row->width = 0;
                break;
            }
        }
        for (size_t i = first; i < out->n_rows; i++)
            if (out->rows[i].status == CLB_ROW_OK &&
                (!best || out->rows[i].value > best->value))
                best = &out->rows[i];
        (best ? best : &out->rows[first])->headline = true;
    }
    return 0;
}
