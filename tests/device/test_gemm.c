/*
 * GEMM through every backend on the OpenCL devices present (pocl in CI), at
 * small odd shapes that are multiples of no tile size: every result must be
 * measured and verified; a backend clbench was built without reports every
 * row unavailable, saying so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/bench/gemm_run.h"
#include "clbench/cl/inventory.h"
#include "config.h"
#include "require.h"

static struct clb_inventory *inv;
static struct clb_device **devs;

/* Odd shapes everywhere; 1000x1x1000 a thin column; 40x256x1100 has K over clbench's
 * chunks on CPUs (several launches adding onto C). */
static const struct clb_gemm_shape shapes[] = {
    { 1, 1, 1 }, { 17, 33, 9 }, { 65, 31, 129 }, { 100, 1, 100 }, { 3, 200, 5 },
    { 1000, 1, 1000 }, { 40, 256, 1100 },
};
static const struct clb_gemm_backend *backends[3];
static const enum clb_precision precs[] = { CLB_FP32, CLB_FP64 };

static void run(double alpha, double beta, bool transfers, struct clb_gemm_results *res)
{
    struct clb_error e;
    struct clb_gemm_options opt = {
        .shapes = shapes,
        .n_shapes = sizeof(shapes) / sizeof(shapes[0]),
        .precisions = precs,
        .n_precisions = 2,
        .backends = backends,
        .n_backends = 3,
        .runs = 2,
        .warmup = 1,
        .seed = 99,
        .alpha = alpha,
        .beta = beta,
        .transfers = transfers,
    };
    assert_int_equal(clb_gemm_run(&opt, devs, inv->n_devices, res, &e), 0);
    assert_int_equal(res->n_rows, opt.n_shapes * 2 * (1 + 2 * inv->n_devices));
}

static bool not_built(const struct clb_gemm_backend *be)
{
    return (!HAVE_OPENBLAS && !strcmp(be->name, "openblas")) ||
           (!HAVE_CLBLAST && !strcmp(be->name, "clblast"));
}

static void assert_all_verified(const struct clb_gemm_results *res)
{
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
        if (not_built(r->backend_ops)) {
            assert_int_equal(r->status, CLB_ROW_UNAVAILABLE);
            assert_non_null(strstr(r->reason, "clbench was built without"));
            continue;
        }
        const bool fp64_missing = r->precision == CLB_FP64 && r->device &&
                                  !clb_device_bool(r->device, CLB_PROP_FP64);
        if (fp64_missing) {
            assert_int_equal(r->status, CLB_ROW_UNAVAILABLE);
            assert_non_null(strstr(r->reason, "fp64"));
            continue;
        }
        if (r->status != CLB_ROW_OK)
            fail_msg("%s %s %llux%llux%llu: %s: %s", r->backend_ops->name,
                     clb_precision_name(r->precision), (unsigned long long)r->shape.m,
                     (unsigned long long)r->shape.n, (unsigned long long)r->shape.k,
                     clb_row_status_name(r->status), r->reason);
        assert_true(r->verify.passed);
        assert_int_equal(r->verify.method, CLB_VERIFY_FULL);
        assert_int_equal(r->verify.checked, r->shape.m * r->shape.n);
        assert_true(r->n_times >= 2);
        assert_true(r->gflops > 0 && r->first_call_s > 0);
        assert_true(r->time_s.min <= r->time_s.median && r->time_s.median <= r->time_s.max);
        assert_true(HAVE_OPENBLAS ? r->speedup > 0 : r->speedup == 0); /* no baseline: none */
        if (r->backend_ops == res->baseline)
            assert_true(r->speedup == 1.0);
    }
}

static void odd_shapes_beta_zero(void **state)
{
    struct clb_gemm_results res;

    (void)state;
    run(1.0, 0.0, false, &res);
    assert_all_verified(&res);
    for (size_t i = 0; i < res.n_rows; i++)
        if (res.rows[i].status == CLB_ROW_OK)
            assert_int_equal(res.rows[i].n_verified, 2); /* first and last call */
    clb_gemm_results_finish(&res);
}

static void odd_shapes_alpha_beta_transfers(void **state)
{
    struct clb_gemm_results res;

    (void)state;
    run(0.75, -0.5, true, &res);
    assert_all_verified(&res);
    for (size_t i = 0; i < res.n_rows; i++) {
        const struct clb_row *r = &res.rows[i];
        if (r->status != CLB_ROW_OK)
            continue;
        assert_int_equal(r->e2e_s.n, 2);
        assert_true(r->e2e_gflops > 0);
        /* The first call, a call from C's start after the timed ones, an end-to-end call. */
        assert_int_equal(r->n_verified, 3);
    }
    clb_gemm_results_finish(&res);
}

static void too_large_is_skipped_before_allocating(void **state)
{
    struct clb_gemm_results res;
    struct clb_error e;
    const struct clb_gemm_backend *be = clb_gemm_backend_find(HAVE_CLBLAST ? "clblast" : "clbench");
    /* A square matrix of this side is over any device's largest allocation here. */
    uint64_t side = 1;
    while (side * side * 4 <= clb_device_u64(devs[0], CLB_PROP_MAX_ALLOC_BYTES))
        side *= 2;
    const struct clb_gemm_shape big = { side, side, 1 };
    const enum clb_precision p = CLB_FP32;
    struct clb_gemm_options opt = {
        .shapes = &big, .n_shapes = 1, .precisions = &p, .n_precisions = 1,
        .backends = &be, .n_backends = 1, .runs = 1, .seed = 1, .alpha = 1,
    };

    (void)state;
    assert_int_equal(clb_gemm_run(&opt, devs, 1, &res, &e), 0);
    assert_int_equal(res.n_rows, 1);
    assert_int_equal(res.rows[0].status, CLB_ROW_SKIPPED);
    assert_non_null(strstr(res.rows[0].reason, "largest allocation"));
    clb_gemm_results_finish(&res);
}

/* Stored parameters that make clbench's own kernel run its GPU variant anywhere. */
static bool local_variant(const struct clb_device *dev, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match)
{
    (void)mode;
    static const char *const names[] = { "VARIANT", "TM", "VW", "NV", "LX", "LY", "KW" };
    static const size_t values[] = { 2, 4, 2, 2, 4, 4, 8 };

    (void)dev, (void)p, (void)shape;
    if (strcmp(kernel, "clbench-gemm"))
        return false;
    memset(out, 0, sizeof(*out));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        clb_tune_set(out, names[i], values[i]);
    out->size = 64;
    match->size = 64;
    return true;
}

/*
 * Every mode at an odd size: the four transposes, row- and column-major, with
 * padded leading dimensions and offsets and without; every backend (clbench's
 * kernel in both its variants) verified through the layouts, C's padding
 * and offset included, with alpha and beta, so C0 is read through them too.
 */
static void every_mode_every_backend(void **state)
{
    const struct clb_gemm_shape shape = { 37, 29, 41 };
    const struct clb_gemm_backend *const be[] = { backends[0], backends[1], backends[2],
                                                  backends[2] };
    const bool untuned[] = { false, false, true, false };

    (void)state;
    for (unsigned mi = 0; mi < 16; mi++) {
        struct clb_gemm_results res;
        struct clb_error e;
        struct clb_gemm_options opt = {
            .shapes = &shape, .n_shapes = 1, .precisions = precs, .n_precisions = 2,
            .backends = be, .untuned = untuned, .n_backends = 4, .runs = 1, .seed = 5,
            .alpha = 0.75, .beta = -0.5, .stored_params = local_variant,
            .mode = { .trans_a = mi & 1, .trans_b = mi & 2, .col_major = mi & 4,
                      .ld_pad = mi & 8 ? 0 : 3, .offset = mi & 8 ? 0 : 16 },
        };
        char label[64];
        clb_gemm_mode_label(&opt.mode, label, sizeof(label));
        assert_int_equal(clb_gemm_run(&opt, devs, inv->n_devices, &res, &e), 0);
        assert_int_equal(res.n_rows, 2 * (1 + 3 * inv->n_devices));
        for (size_t i = 0; i < res.n_rows; i++) {
            const struct clb_row *r = &res.rows[i];
            if (not_built(r->backend_ops) ||
                (r->precision == CLB_FP64 && r->device &&
                 !clb_device_bool(r->device, CLB_PROP_FP64))) {
                assert_int_equal(r->status, CLB_ROW_UNAVAILABLE);
                continue;
            }
            if (r->status != CLB_ROW_OK || !r->verify.passed)
                fail_msg("%s %s %s (%s): %s: %s", label, r->backend,
                         clb_precision_name(r->precision), r->kernel,
                         clb_row_status_name(r->status), r->reason);
            assert_memory_equal(&r->mode, &opt.mode, sizeof(opt.mode));
            /* beta != 0: the first call and one from C's start after the timed ones. */
            assert_int_equal(r->n_verified, 2);
            assert_int_equal(r->verify.checked, shape.m * shape.n);
            if (r->backend_ops == backends[2] && !r->untuned) {
                assert_true(r->tuned);
                assert_non_null(strstr(r->kernel, "gpu tiles: TM=4 TN=4 (2 x 2) LX=4 LY=4 KW=8"));
            }
        }
        clb_gemm_results_finish(&res);
    }
}

/*
 * --code-path gpu on every device (pocl's CPU included): clbench's GPU
 * variant at its defaults in every mode, fp32 and fp64, verified, at a shape
 * of edge tiles that is not split (37 x 29 x 41: too few slices of K) and
 * one whose single tile (fewer than 4 per compute unit on any device) has K
 * split into 2 parts (33 x 40 x 260: 17 slices of 16, at least 8 a part,
 * the second part short; the partial sums reduced by clb_gemm_gpu_sum with
 * alpha and beta).
 */
static void gpu_code_path_every_mode(void **state)
{
    static const struct clb_gemm_shape gshapes[] = { { 37, 29, 41 }, { 33, 40, 260 } };
    const struct clb_gemm_backend *be = backends[2];

    (void)state;
    for (unsigned mi = 0; mi < 16; mi++) {
        struct clb_gemm_results res;
        struct clb_error e;
        struct clb_gemm_options opt = {
            .shapes = gshapes, .n_shapes = 2, .precisions = precs, .n_precisions = 2,
            .backends = &be, .n_backends = 1, .runs = 1, .seed = 7, .alpha = 0.75,
            .beta = -0.5, .code_path = CLB_CODE_PATH_GPU,
            .mode = { .trans_a = mi & 1, .trans_b = mi & 2, .col_major = mi & 4,
                      .ld_pad = mi & 8 ? 0 : 3, .offset = mi & 8 ? 0 : 16 },
        };
        char label[64];
        clb_gemm_mode_label(&opt.mode, label, sizeof(label));
        assert_int_equal(clb_gemm_run(&opt, devs, inv->n_devices, &res, &e), 0);
        assert_int_equal(res.n_rows, 2 * 2 * inv->n_devices);
        for (size_t i = 0; i < res.n_rows; i++) {
            const struct clb_row *r = &res.rows[i];
            if (r->precision == CLB_FP64 && !clb_device_bool(r->device, CLB_PROP_FP64)) {
                assert_int_equal(r->status, CLB_ROW_UNAVAILABLE);
                continue;
            }
            if (r->status != CLB_ROW_OK || !r->verify.passed)
                fail_msg("%s %s %llux%llux%llu (%s): %s: %s", label,
                         clb_precision_name(r->precision), (unsigned long long)r->shape.m,
                         (unsigned long long)r->shape.n, (unsigned long long)r->shape.k,
                         r->kernel, clb_row_status_name(r->status), r->reason);
            assert_int_equal(r->n_verified, 2);
            assert_int_equal(r->verify.checked, r->shape.m * r->shape.n);
            /* The defaults: 8 x 8 tiles of float4, 4 x 8 of double2, 16 x 16 work-items. */
            const uint64_t wg = clb_device_u64(r->device, CLB_PROP_MAX_WORK_GROUP_SIZE);
            const unsigned splits = r->shape.k == 41 ? 1 : 2;
            char want[96];
            snprintf(want, sizeof(want), "gpu tiles: %s LX=16 LY=16 KW=16 split-K=%u",
                     r->precision == CLB_FP64 ? "TM=4 TN=8 (4 x 2)" : "TM=8 TN=8 (2 x 4)",
                     splits);
            if (wg >= 256)
                assert_string_equal(r->kernel, want);
            else
                assert_non_null(strstr(r->kernel, "gpu tiles: "));
        }
        clb_gemm_results_finish(&res);
    }
}

int main(void)
{
    struct clb_error e;
    int skip = clb_test_require_device();

    if (skip)
        return skip;
    backends[0] = clb_gemm_backend_find("openblas");
    backends[1] = clb_gemm_backend_find("clblast");
    backends[2] = clb_gemm_backend_find("clbench");
    setenv("CLBENCH_TUNING_FILE", "/nonexistent/clbench-tuning.json", 1);
    inv = clb_inventory_create(&e);
    assert_non_null(inv);
    devs = calloc(inv->n_devices, sizeof(*devs));
    for (size_t i = 0; i < inv->n_devices; i++)
        devs[i] = &inv->devices[i];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(odd_shapes_beta_zero),
        cmocka_unit_test(odd_shapes_alpha_beta_transfers),
        cmocka_unit_test(too_large_is_skipped_before_allocating),
        cmocka_unit_test(every_mode_every_backend),
        cmocka_unit_test(gpu_code_path_every_mode),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(devs);
    clb_inventory_destroy(inv);
    return rc;
}
