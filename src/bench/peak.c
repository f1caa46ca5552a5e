#include <CL/cl_half.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/kernels.h"
#include "clbench/micro.h"
#include "clbench/timer.h"

/* Rounds per work-item: long enough that the loop, not the launch, is measured. */
enum { ITERS = 1024 };
/* Work-items per launch are bounded (the output holds one element each). */
#define MAX_GLOBAL (UINT64_C(1) << 22)

static const unsigned widths[] = { 1, 2, 4, 8, 16 };

static const struct ptype {
    const char *precision, *type, *define, *metric;
    size_t size;
} ptypes[] = {
    { "fp32", "float", "", "gflops", 4 },
    { "fp64", "double", "-DT_IS_DOUBLE", "gflops", 8 },
    { "fp16", "half", "-DT_IS_HALF", "gflops", 2 },
    { "int32", "uint", "-DT_IS_UINT", "giops", 4 },
};

/* Multiply-add coefficients: floating chains approach 1 by 2^-10 per round. */
#define FA (1.0 - 0x1p-10)
#define FB (0x1p-10)
#define UA 1664525u
#define UB 1013904223u

static float half_round(float x)
{
    return cl_half_to_float(cl_half_from_float(x, CL_HALF_RTE));
}

/* One lane: the 8 chains from their starts, summed as the kernel sums them. */
static double lane_expected(const char *precision, unsigned lane, unsigned iters)
{
    if (!strcmp(precision, "int32")) {
        uint32_t x[8];
        for (uint32_t k = 0; k < 8; k++) {
            x[k] = k + 1000u * lane;
            for (unsigned i = 0; i < iters; i++)
                x[k] = x[k] * UA + UB;
        }
        return (double)(uint32_t)(((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7])));
    }
    if (!strcmp(precision, "fp64")) {
        double x[8];
        for (int k = 0; k < 8; k++) {
            x[k] = k / 8.0 + lane / 128.0;
            for (unsigned i = 0; i < iters; i++)
                x[k] = fma(x[k], FA, FB);
        }
        return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    }
    const bool half = !strcmp(precision, "fp16");
    float x[8];
    for (int k = 0; k < 8; k++) {
        x[k] = (float)k / 8.0f + (float)lane / 128.0f;
        if (half)
            x[k] = half_round(x[k]);
        for (unsigned i = 0; i < iters; i++) {
            x[k] = fmaf(x[k], (float)FA, (float)FB);
            if (half)
                x[k] = half_round(x[k]);
        }
    }
    float s = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    return half ? half_round(s) : s;
}

double clb_peak_expected(const char *precision, unsigned width, unsigned iters)
{
    /* Lanes summed in order, in the precision's own arithmetic. */
    if (!strcmp(precision, "int32")) {
        uint32_t r = 0;
        for (unsigned l = 0; l < width; l++)
            r += (uint32_t)lane_expected(precision, l, iters);
        return r;
    }
    if (!strcmp(precision, "fp64")) {
        double r = 0;
        for (unsigned l = 0; l < width; l++)
            r += lane_expected(precision, l, iters);
        return r;
    }
    float r = 0;
    for (unsigned l = 0; l < width; l++) {
        r += (float)lane_expected(precision, l, iters);
        if (!strcmp(precision, "fp16"))
            r = half_round(r);
    }
    return r;
}

bool clb_peak_matches(const char *precision, double got, double want)
{
    double tol = !strcmp(precision, "int32") ? 0.0
                 : !strcmp(precision, "fp64") ? 1e-12
                 : !strcmp(precision, "fp16") ? 1e-2
                                              : 1e-5;
    return isfinite(got) && fabs(got - want) <= tol * fabs(want);
}

static double load(const struct ptype *t, const void *buf, size_t i)
{
    switch (t->size) {
    case 8:
        return ((const double *)buf)[i];
    case 2:
        return cl_half_to_float(((const cl_half *)buf)[i]);
    default:
        return t->type[0] == 'u' ? (double)((const uint32_t *)buf)[i]
                                 : (double)((const float *)buf)[i];
    }
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
    out = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * t->size, NULL, &err);
    if (clb_cl_check(&e, "clCreateBuffer", err) ||
        CLB_CL(&e, clSetKernelArg, k, 0, sizeof(cl_mem), &out) ||
        launch(env, k, global, &seconds, &e))
        goto fault;
    /* Grow the launch until one takes `target` seconds: launch overhead then vanishes. */
    for (;;) {
        if (out)
            clReleaseMemObject(out);
        out = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, global * t->size, NULL, &err);
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
    if (!(row->times_s = calloc(opt->runs, sizeof(double)))) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    for (unsigned r = 0; r < opt->runs; r++) {
        if (launch(env, k, global, &row->times_s[r], &e))
            goto fault;
        row->n_times++;
    }
    if (!(host = malloc(global * t->size))) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    if (CLB_CL(&e, clEnqueueReadBuffer, env->queue, out, CL_TRUE, 0, global * t->size, host, 0,
               NULL, NULL))
        goto fault;
    double want = clb_peak_expected(t->precision, width, ITERS);
    for (size_t i = 0; i < global; i++) {
        double got = load(t, host, i);
        if (!clb_peak_matches(t->precision, got, want)) {
            row->status = CLB_ROW_FAILED;
            snprintf(row->reason, sizeof(row->reason),
                     "wrong result: work-item %zu returned %.9g, expected %.9g", i, got, want);
            break;
        }
    }
    snprintf(row->check, sizeof(row->check), "%zu work-items x %d rounds recomputed on the host",
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
