#include <CL/cl_half.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/timer.h"

/* Rounds per work-item: long enough that the loop, not the launch, is measured. */
enum { ITERS = 1024 };
/* Work-items per launch are bounded (the output holds one element each). */
#define MAX_GLOBAL (UINT64_C(1) << 22)

static const unsigned widths[] = { 1, 2, 4, 8, 16 };

static const struct ptype {
    const char *precision, *type, *define, *metric;
    size_t size, out_size; /* bytes of one coefficient, of one output element */
} ptypes[] = {
    { "fp32", "float", "", "gflops", 4, 4 },
    { "fp64", "double", "-DT_IS_DOUBLE", "gflops", 8, 8 },
    { "fp16", "half", "-DT_IS_HALF", "gflops", 2, 4 },
    { "int32", "uint", "-DT_IS_UINT", "giops", 4, 4 },
};

/* Multiply-add coefficients: floating chains gain exactly 2^-10 per round. */
#define FA 1.0
#define FB (0x1p-10)
#define UA 1664525u
#define UB 1013904223u

void clb_peak_expect_init(struct clb_peak_expect *x, const char *precision, unsigned width,
                          unsigned iters)
{
    const int64_t w = width, lanes = 8 * w;

    memset(x, 0, sizeof(*x));
    x->integer = !strcmp(precision, "int32");
    x->out_size = !strcmp(precision, "fp64") ? 8 : 4;
    if (x->integer) {
        /* x_n = a_n x_0 + c_n, so the sum of a work-item's chains is a_n (sum of starts) +
         * lanes c_n, and its starts grow by lanes * 7919 per work-item. */
        uint32_t a_n = 1, c_n = 0;
        for (unsigned i = 0; i < iters; i++) {
            a_n *= UA;
            c_n = c_n * UA + UB;
        }
        const uint32_t starts0 = (uint32_t)(28 * w + 4000 * w * (w - 1));
        x->slope = a_n * (uint32_t)lanes * 7919u;
        x->offset = a_n * starts0 + (uint32_t)lanes * c_n;
        return;
    }
    /* Chain k of lane l ends at (k + 8 l + 128 m - 1024 + iters) 2^-10: the sum over k and l,
     * in units of 2^-10, is exact in double. */
    for (int64_t m = 0; m < 7; m++)
        x->by_class[m] =
            ldexp((double)(lanes * (128 * m - 1024 + (int64_t)iters) + 28 * w + 32 * w * (w - 1)),
                  -10);
}

double clb_peak_expected(const struct clb_peak_expect *x, uint64_t item)
{
    if (x->integer)
        return (uint32_t)(x->slope * (uint32_t)item + x->offset);
    return x->by_class[item % 7];
}

bool clb_peak_verify(const struct clb_peak_expect *x, const void *out, size_t n, char *why,
                     size_t why_len)
{
    for (size_t i = 0; i < n; i++) {
        double got;
        bool ok;

        if (x->integer) {
            uint32_t v = ((const uint32_t *)out)[i];
            ok = v == (uint32_t)(x->slope * (uint32_t)i + x->offset);
            got = v;
        } else {
            got = x->out_size == 8 ? ((const double *)out)[i] : ((const float *)out)[i];
            ok = got == x->by_class[i % 7];
        }
        if (!ok) {
            snprintf(why, why_len, "work-item %zu returned %.15g, expected %.15g", i, got,
                     clb_peak_expected(x, i));
            return false;
        }
    }
    return true;
}

static int set_coefficients(cl_kernel k, const struct ptype *t, struct clb_error *e)
{
    union {
        float f;
        double d;
        cl_half h;
        cl_uint u;
    } a, b;

    if (t->size == 8) {
        a.d = FA;
        b.d = FB;
    } else if (t->size == 2) {
        a.h = cl_half_from_float((float)FA, CL_HALF_RTE);
        b.h = cl_half_from_float((float)FB, CL_HALF_RTE);
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

static int launch(const struct clb_cl_env *env, cl_kernel k, size_t global, double *seconds,
                  struct clb_error *e)
{
    double t0 = clb_now_s();
    if (CLB_CL(e, clEnqueueNDRangeKernel, env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(env->queue)))
        return -1;
    *seconds = clb_now_s() - t0;
    return 0;
}

/* One (precision, width): build, size the launch, time, verify. Faults land in row. */
static void measure(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_micro_options *opt, const struct ptype *t, unsigned width,
                    struct clb_micro_row *row)
{
    struct clb_error e = { "" };
    char options[160];
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem out = NULL;
    void *host = NULL;
    cl_int err;
    size_t global = (size_t)clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS) * 256;
    double seconds;
    const double target = opt->target_s > 0 ? opt->target_s : 0.02;

    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    snprintf(options, sizeof(options), "-DT=%s -DWIDTH=%u -DITERS=%d %s", t->type, width, ITERS,
             t->define);
    if (!(prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("peak"), options, &e)))
        goto fault;
    k = clCreateKernel(prog, "clb_peak", &err);
    if (clb_cl_check(&e, "clCreateKernel", err) || set_coefficients(k, t, &e))
        goto fault;
    if (global == 0)
        global = 256;
    /* The first launch may include lazy compilation (pocl builds the work-group function
     * then): keep it out of the sizing. */
    out = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * t->out_size, NULL, &err);
    if (clb_cl_check(&e, "clCreateBuffer", err) ||
        CLB_CL(&e, clSetKernelArg, k, 0, sizeof(cl_mem), &out) ||
        launch(env, k, global, &seconds, &e))
        goto fault;
    /* Grow the launch until one takes `target` seconds: launch overhead then vanishes. */
    for (;;) {
        if (out)
            clReleaseMemObject(out);
        out = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * t->out_size, NULL, &err);
        if (clb_cl_check(&e, "clCreateBuffer", err) ||
            CLB_CL(&e, clSetKernelArg, k, 0, sizeof(cl_mem), &out) ||
            launch(env, k, global, &seconds, &e))
            goto fault;
        if (seconds >= target || global >= MAX_GLOBAL)
            break;
        double grow = ceil(target / (seconds > 1e-6 ? seconds : 1e-6) * 1.2);
        global = (size_t)fmin((double)MAX_GLOBAL, (double)global * fmin(grow, 64.0));
        global = (global + 255) / 256 * 256;
    }
    while (clb_micro_want(row, opt->runs, opt->min_time_s)) {
        if (launch(env, k, global, &seconds, &e))
            goto fault;
        if (clb_micro_push(row, seconds)) {
            clb_error_set(&e, "out of host memory");
            goto fault;
        }
    }
    if (!(host = malloc(global * t->out_size))) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    if (CLB_CL(&e, clEnqueueReadBuffer, env->queue, out, CL_TRUE, 0, global * t->out_size, host,
               0, NULL, NULL))
        goto fault;
    struct clb_peak_expect want;
    char why[200];
    clb_peak_expect_init(&want, t->precision, width, ITERS);
    if (!clb_peak_verify(&want, host, global, why, sizeof(why))) {
        row->status = CLB_ROW_FAILED;
        snprintf(row->reason, sizeof(row->reason), "wrong result: %s", why);
    }
    snprintf(row->check, sizeof(row->check),
             "%zu work-items x %d rounds, each checked exactly (distinct starts per work-item "
             "and lane)",
             global, ITERS);
    row->work = (double)global * ITERS * 8.0 * width * 2.0;
    goto done;

fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_micro_row_summarize(row);
    free(host);
    if (out)
        clReleaseMemObject(out);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
}

int clb_peak_run(const struct clb_device *dev, const struct clb_cl_env *env,
                 const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    for (size_t p = 0; p < sizeof(ptypes) / sizeof(ptypes[0]); p++) {
        const struct ptype *t = &ptypes[p];
        const bool fp64 = !strcmp(t->precision, "fp64"), fp16 = !strcmp(t->precision, "fp16");
        struct clb_micro_row *best = NULL;
        bool wanted = !opt->precisions;

        for (size_t i = 0; opt->precisions && i < opt->n_precisions; i++)
            wanted |= !strcmp(opt->precisions[i], t->precision);
        if (!wanted)
            continue;
        if ((fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) ||
            (fp16 && !clb_device_bool(dev, CLB_PROP_FP16))) {
            struct clb_micro_row *row = clb_micro_add(out, dev, "peak", t->metric);
            if (!row)
                return -1;
            row->precision = t->precision;
            row->headline = true;
            snprintf(row->case_, sizeof(row->case_), "%s", t->precision);
            row->status = CLB_ROW_UNAVAILABLE;
            snprintf(row->reason, sizeof(row->reason), "device has no %s (%s)", t->precision,
                     fp64 ? "cl_khr_fp64" : "cl_khr_fp16");
            continue;
        }
        size_t first = out->n_rows;
        for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++) {
            struct clb_micro_row *row = clb_micro_add(out, dev, "peak", t->metric);
            if (!row)
                return -1;
            row->precision = t->precision;
            row->width = widths[w];
            snprintf(row->case_, sizeof(row->case_), "%s x%u", t->precision, widths[w]);
            measure(dev, env, opt, t, widths[w], row);
        }
        for (size_t i = first; i < out->n_rows; i++)
            if (out->rows[i].status == CLB_ROW_OK &&
                (!best || out->rows[i].value > best->value))
                best = &out->rows[i];
        (best ? best : &out->rows[first])->headline = true;
    }
    return 0;
}
