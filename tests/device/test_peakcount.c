/*
 * Peak's operation counts held against the kernel itself: for every type and width, the
 * row's work per call must equal what a -DCLB_COUNT_OPS build of kernels/peak.cl, with the
 * row's own build options and launched at the row's own global size, counts into its
 * per-work-item counters (each step adds 2 per vector element it updates; the emulated dot
 * product 2 per byte pair it multiplies and adds), summed over the work-items. A count that
 * restates a wrong formula (width * 4), a wrong chain or round count, or a launch record
 * that is not the launch all fail here. The chain count is the one clb_peak_chains gives for
 * the code path (auto: the device's type), on the build options too, and the gpu path's
 * reduced counts (fp64 x16: 2) run and verify on every device (counts_gpu_chains).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/cl/cl.h"
#include "clbench/cl/env.h"
#include "clbench/cl/inventory.h"
#include "clbench/cl/kernels.h"
#include "require.h"

static struct clb_inventory *inv;

/* Bytes of the kernel's T, from the build options' -DT=. */
static size_t type_size(const char *options)
{
    static const struct {
        const char *name;
        size_t size;
    } types[] = { { "float", 4 }, { "double", 8 }, { "half", 2 },
                  { "uint", 4 },  { "ushort", 2 }, { "uchar", 1 } };
    const char *t = strstr(options, "-DT=");
    assert_non_null(t);
    t += 4;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        const size_t len = strlen(types[i].name);
        if (!strncmp(t, types[i].name, len) && (t[len] == ' ' || t[len] == '\0'))
            return types[i].size;
    }
    fail_msg("unknown type in '%s'", options);
    return 0;
}

/* The operations the kernel counts itself over one launch like row's: the sum of the
 * work-items' counters of a CLB_COUNT_OPS build with row's options, at row's global size. */
static uint64_t counted_ops(const struct clb_cl_env *env, const struct clb_micro_launch *l)
{
    struct clb_error e = { "" };
    char options[sizeof(l->options) + 32];
    cl_int err;
    const size_t global = (size_t)l->global_size, tsize = type_size(l->options);
    const uint64_t zero = 0; /* any coefficients: the count does not depend on them */

    snprintf(options, sizeof(options), "%s -DCLB_COUNT_OPS", l->options);
    cl_program prog = clb_cl_build(env->ctx, env->device, clb_kernel_source("peak"), options, &e);
    if (!prog)
        fail_msg("build '%s': %s", options, e.msg);
    cl_kernel k = clCreateKernel(prog, "clb_peak", &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem out = clCreateBuffer(env->ctx, CL_MEM_WRITE_ONLY, global * 8, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_mem ops = clCreateBuffer(env->ctx, CL_MEM_WRITE_ONLY, global * sizeof(cl_uint), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 0, sizeof(cl_mem), &out), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 1, tsize, &zero), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 2, tsize, &zero), CL_SUCCESS);
    assert_int_equal(clSetKernelArg(k, 3, sizeof(cl_mem), &ops), CL_SUCCESS);
    assert_int_equal(clEnqueueNDRangeKernel(env->queue, k, 1, NULL, &global, NULL, 0, NULL, NULL),
                     CL_SUCCESS);
    cl_uint *host = malloc(global * sizeof(cl_uint));
    assert_non_null(host);
    assert_int_equal(clEnqueueReadBuffer(env->queue, ops, CL_TRUE, 0, global * sizeof(cl_uint),
                                         host, 0, NULL, NULL),
                     CL_SUCCESS);
    uint64_t sum = 0;
    for (size_t i = 0; i < global; i++)
        sum += host[i];
    free(host);
    clReleaseMemObject(ops);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    return sum;
}

/* Every width of precision on every device, on code path `path`: the row's work is the
 * kernel's own count; returns the smallest chain count run. */
static unsigned counts_on(enum clb_precision precision, enum clb_code_path path)
{
    const bool dot = precision == CLB_INT8DOT;
    const enum clb_precision precisions[] = { precision };
    /* The smallest launches that still time: the count is about the launch, not its speed. */
    const struct clb_micro_options opt = { .runs = 1, .target_s = 0.0005,
                                           .precisions = precisions, .n_precisions = 1,
                                           .code_path = path };
    unsigned fewest = 8;
    size_t checked = 0;

    if (dot)
        setenv("CLBENCH_FAKE_INTEGER_DOT_PRODUCT", "1", 1);
    for (size_t d = 0; d < inv->n_devices; d++) {
        struct clb_cl_env env;
        struct clb_error e;
        struct clb_micro_results res = { 0 };
        unsigned widths = 0; /* bit w: width w verified */
        const size_t before = checked;

        assert_int_equal(clb_cl_env_init(&env, inv->devices[d].id, false, &e), 0);
        assert_int_equal(clb_peak_run(&inv->devices[d], &env, &opt, &res), 0);
        for (size_t i = 0; i < res.n_rows; i++) {
            const struct clb_row *r = &res.rows[i];
            const struct clb_micro_launch *l = &r->launch;
            if (r->status == CLB_ROW_UNAVAILABLE) {
                /* Only the optional types may be missing. */
                assert_true(precision == CLB_FP64 || precision == CLB_FP16);
                continue;
            }
            if (r->status != CLB_ROW_OK)
                fail_msg("%s: %s", r->case_, r->reason);
            assert_true(l->global_size > 0 && l->rounds > 0 && l->chains > 0);
            assert_int_equal(l->width, dot ? 1 : r->width);
            const bool gpu = path == CLB_CODE_PATH_AUTO ? !clb_device_is_cpu(&inv->devices[d])
                                                        : path == CLB_CODE_PATH_GPU;
            const unsigned chains = clb_peak_chains(gpu, l->width, type_size(l->options));
            char option[32];
            snprintf(option, sizeof(option), "-DCHAINS=%u", chains);
            const char *at = strstr(l->options, option);
            if (l->chains != chains || !at || (at[strlen(option)] && at[strlen(option)] != ' '))
                fail_msg("%s on the %s path: %u chains (%s), the rule gives %u", r->case_,
                         gpu ? "gpu" : "cpu", l->chains, l->options, chains);
            if (chains < fewest)
                fewest = chains;
            const uint64_t ops = counted_ops(&env, l);
            if (r->work != (double)ops)
                fail_msg("%s: work per call %.0f, the kernel counts %llu over %llu work-items "
                         "(%s)", r->case_, r->work, (unsigned long long)ops,
                         (unsigned long long)l->global_size, l->options);
            /* The test's own statement of a round: `chains` steps, each `width` multiply-adds
             * of 2 operations (int8dot: one 4 x 8-bit dot_acc_sat, 4 multiplies and 4 adds). */
            const uint64_t per_step = dot ? 8 : 2 * (uint64_t)r->width;
            assert_true(ops == l->global_size * l->rounds * l->chains * per_step);
            widths |= 1u << r->width;
            checked++;
        }
        if (checked > before)
            assert_int_equal(widths, dot ? 1u << 4 : (1u << 1 | 1u << 2 | 1u << 4 | 1u << 8 |
                                                          1u << 16));
        clb_micro_results_finish(&res);
        clb_cl_env_finish(&env);
    }
    if (dot)
        unsetenv("CLBENCH_FAKE_INTEGER_DOT_PRODUCT");
    if (!checked)
        skip(); /* fp64 or fp16 on devices without it */
    return fewest;
}

static void counts_of(enum clb_precision precision)
{
    counts_on(precision, CLB_CODE_PATH_AUTO);
}

/* The gpu path's chain counts on any device (on pocl too): each x16 runs fewer than 8 chains
 * (fp64: 2), and its work and its results (clb_peak_run checks each work-item) follow. */
static void counts_gpu_chains(void **state)
{
    static const struct {
        enum clb_precision precision;
        unsigned fewest;
    } types[] = { { CLB_FP32, 4 }, { CLB_FP64, 2 }, { CLB_FP16, 4 },
                  { CLB_INT32, 4 }, { CLB_INT16, 4 }, { CLB_INT8, 4 } };

    (void)state;
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        const bool optional = types[i].precision == CLB_FP64 ||
                              types[i].precision == CLB_FP16;
        bool any = false;
        for (size_t d = 0; d < inv->n_devices && optional && !any; d++)
            any = clb_device_bool(&inv->devices[d], types[i].precision == CLB_FP64
                                                        ? CLB_PROP_FP64
                                                        : CLB_PROP_FP16);
        if (optional && !any)
            continue;
        assert_int_equal(counts_on(types[i].precision, CLB_CODE_PATH_GPU), types[i].fewest);
    }
}

static void counts_fp32(void **state)
{
    (void)state;
    counts_of(CLB_FP32);
}

static void counts_fp64(void **state)
{
    (void)state;
    counts_of(CLB_FP64);
}

static void counts_fp16(void **state)
{
    (void)state;
    counts_of(CLB_FP16);
}

static void counts_int32(void **state)
{
    (void)state;
    counts_of(CLB_INT32);
}

static void counts_int16(void **state)
{
    (void)state;
    counts_of(CLB_INT16);
}

static void counts_int8(void **state)
{
    (void)state;
    counts_of(CLB_INT8);
}

static void counts_int8dot_emulated(void **state)
{
    (void)state;
    counts_of(CLB_INT8DOT);
}

int main(void)
{
    struct clb_error e;
    int skip = clb_test_require_device();

    if (skip)
        return skip;
    inv = clb_inventory_create(&e);
    assert_non_null(inv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_fp32),  cmocka_unit_test(counts_fp64),
        cmocka_unit_test(counts_fp16),  cmocka_unit_test(counts_int32),
        cmocka_unit_test(counts_int16), cmocka_unit_test(counts_int8),
        cmocka_unit_test(counts_int8dot_emulated), cmocka_unit_test(counts_gpu_chains),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clb_inventory_destroy(inv);
    return rc;
}
