#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "bandwidth_parts.h"

enum { LOCAL_N = 256, LOCAL_ROUNDS = 1024 }; /* LOCAL_N as in stream.cl; 16 rounds a multiple of it */

uint64_t clb_stream_local_bits(unsigned entry, bool fp64)
{
    /* TILE in stream.cl: a multiplicative hash's top bits as the mantissa of [1, 2). */
    return fp64 ? UINT64_C(0x3ff0000000000000) | (uint64_t)entry * UINT64_C(0x9e3779b97f4a7c15) >> 12
                : UINT32_C(0x3f800000) | (uint32_t)(entry * UINT32_C(2654435761)) >> 9;
}

uint64_t clb_stream_local_expected(bool fp64)
{
    /* Each work-item reads every tile entry 16 x rounds / LOCAL_N times: the sum of their
     * bit patterns that many times, wrapping as the device's integers do. */
    uint64_t tile_bits = 0;
    for (unsigned j = 0; j < LOCAL_N; j++)
        tile_bits += clb_stream_local_bits(j, fp64);
    const uint64_t want = tile_bits * (16u * LOCAL_ROUNDS / LOCAL_N);
    return fp64 ? want : (uint32_t)want;
}

/* Whether the device cannot run the local kernel in this precision; the row says why. */
static bool local_unavailable(const struct clb_device *dev, bool fp64, struct clb_row *row)
{
    if ((fp64 && !clb_device_bool(dev, CLB_PROP_FP64)) ||
        clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE) < LOCAL_N) {
        row->status = CLB_ROW_UNAVAILABLE;
        snprintf(row->reason, sizeof(row->reason), "%s",
                 fp64 && !clb_device_bool(dev, CLB_PROP_FP64)
                     ? "device has no fp64 (cl_khr_fp64)"
                     : "work-groups of 256 are beyond the device");
        return true;
    }
    return false;
}

/* Builds clb_stream_local with its rounds set; *most: the kernel's largest work-group. */
static int local_build(const struct clb_device *dev, const struct clb_cl_env *env, bool fp64,
                       cl_program *prog, cl_kernel *k, size_t *most, struct clb_error *e)
{
    const cl_uint rounds = LOCAL_ROUNDS;
    char options[64];
    cl_int err;

    if (!(*prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"),
                               clb_bw_build_options(fp64, options, sizeof(options)), e)))
        return -1;
    *k = clCreateKernel(*prog, "clb_stream_local", &err);
    return clb_cl_check(e, "clCreateKernel", err) ||
                   CLB_CL(e, clSetKernelArg, *k, 1, sizeof(cl_uint), &rounds) ||
                   clb_bw_kernel_wg_size(*k, env->device, most, e)
               ? -1
               : 0;
}

/*
 * Grows the launch (a power of two of work-groups, *global) until it takes 2 ms; the first
 * launch may include lazy compilation (pocl's work-group function) and is run twice. *res:
 * the result buffer of the last size, the caller's to release.
 */
static int local_grow(const struct clb_cl_env *env, cl_kernel k, size_t elem, cl_mem *res,
                      size_t *global, struct clb_error *e)
{
    const size_t local = LOCAL_N;
    double seconds = 0, host_s = 0;
    cl_int err, profiling = 0;

    for (bool warm = false;; warm = true) {
        if (*res)
            clReleaseMemObject(*res);
        *res = clb_cl_buffer(env->ctx, CL_MEM_WRITE_ONLY, *global * elem, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err) ||
            CLB_CL(e, clSetKernelArg, k, 0, sizeof(cl_mem), res) ||
            clb_bw_timed_launch(env->queue, k, "local", *global, &local, &seconds, &host_s,
                                &profiling, e))
            return -1;
        if (profiling)
            seconds = host_s;
        if (!warm)
            continue;
        if (seconds >= 0.002 || *global >= (size_t)LOCAL_N << 14)
            return 0;
        *global *= 2;
    }
}

/* The timed launches of global work-items until the row has its calls. */
static int local_time(const struct clb_cl_env *env, cl_kernel k, size_t global,
                      const struct clb_micro_options *opt, struct clb_row *row,
                      cl_int *first_profiling, struct clb_error *e)
{
    const size_t local = LOCAL_N;
    double seconds = 0, host_s = 0;
    cl_int profiling = 0;

    while (clb_micro_want(row, opt->runs, opt->min_time_s)) {
        if (clb_bw_timed_launch(env->queue, k, "local", global, &local, &seconds, &host_s,
                                &profiling, e))
            return -1;
        if (profiling && !*first_profiling)
            *first_profiling = profiling;
        if (clb_bw_timed_push(row, seconds, host_s, profiling)) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
    }
    return 0;
}

/* Reads back every work-item's sum and holds it to the exact one; the row says the verdict. */
static int local_verify(const struct clb_cl_env *env, cl_mem res, bool fp64, size_t global,
                        struct clb_row *row, struct clb_error *e)
{
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    void *host = malloc(global * elem);

    if (!host) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    if (CLB_CL(e, clEnqueueReadBuffer, env->queue, res, CL_TRUE, 0, global * elem, host, 0,
               NULL, NULL)) {
        free(host);
        return -1;
    }
    const uint64_t want = clb_stream_local_expected(fp64);
    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    for (size_t i = 0; i < global; i++) {
        uint64_t got = 0;
        uint32_t got32 = 0;
        if (fp64)
            memcpy(&got, (const char *)host + i * elem, sizeof(got));
        else
            memcpy(&got32, (const char *)host + i * elem, sizeof(got32)), got = got32;
        if (got != want) {
            row->status = CLB_ROW_FAILED;
            snprintf(row->reason, sizeof(row->reason),
                     "wrong result: work-item %zu summed 0x%" PRIx64 ", expected 0x%" PRIx64,
                     i, got, want);
            break;
        }
    }
    free(host);
    snprintf(row->check, sizeof(row->check),
             "%zu work-items x %d local reads each, every sum exact", global,
             16 * LOCAL_ROUNDS);
    return 0;
}

/*
 * Local-memory bandwidth in one precision: work-groups of LOCAL_N read a
 * tile of local memory 16 x LOCAL_ROUNDS times a work-item (summing bit
 * patterns as integers, so no FPU paces them), the launch grown
 * until it takes 2 ms; every work-item's sum checked exactly.
 */
int clb_bw_measure_local(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_micro_options *opt, bool fp64,
                         struct clb_micro_results *out)
{
    struct clb_row *row = clb_micro_add(out, dev, CLB_BENCH_BANDWIDTH, "gbps");
    const size_t elem = fp64 ? sizeof(double) : sizeof(float);
    struct clb_error e = { "" };
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem res = NULL;
    size_t global = LOCAL_N, most = 0;
    cl_int first_profiling = 0;

    if (!row)
        return -1;
    row->precision = fp64 ? CLB_FP64 : CLB_FP32;
    snprintf(row->kernel, sizeof(row->kernel), "local");
    snprintf(row->case_, sizeof(row->case_), "%s local", clb_precision_name(row->precision));
    if (local_unavailable(dev, fp64, row))
        return 0;
    if (local_build(dev, env, fp64, &prog, &k, &most, &e))
        goto fault;
    /* Its work-group is fixed (reqd_work_group_size): the kernel as built must allow it. */
    if (most < LOCAL_N) {
        row->status = CLB_ROW_UNAVAILABLE;
        snprintf(row->reason, sizeof(row->reason), "work-groups of 256 are beyond the kernel "
                 "(CL_KERNEL_WORK_GROUP_SIZE %zu)", most);
        goto done;
    }
    if (local_grow(env, k, elem, &res, &global, &e))
        goto fault;
    row->work = (double)global * 16.0 * LOCAL_ROUNDS * (double)elem;
    row->launch.global_size = global;
    row->launch.local_size = LOCAL_N;
    row->launch.rounds = LOCAL_ROUNDS;
    if (local_time(env, k, global, opt, row, &first_profiling, &e) ||
        local_verify(env, res, fp64, global, row, &e))
        goto fault;
    goto done;
fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_bw_timer_finish(row, first_profiling);
    if (res)
        clReleaseMemObject(res);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    return 0;
}
