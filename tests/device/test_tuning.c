/*
 * Tuned parameters on the OpenCL device present (pocl in CI), through the
 * GEMM runner as `clbench gemm` drives it:
 * - every variant of clbench's own kernel (packed panels for CPUs, local
 *   memory tiles for GPUs) at any parameters the tuner may offer computes
 *   the right result at shapes that are multiples of no tile;
 * - a stored CLBlast configuration is the one that runs: at a size where
 *   CLBlast's own rule picks its direct kernel, a tuned row runs Xgemm (a
 *   broken Xgemm configuration makes it fail, which the direct kernel would
 *   not), and an untuned row after it runs CLBlast's own choice again; an
 *   entry measured only where Xgemm runs is not applied where CLBlast's own
 *   choice is XgemmDirect, nor one CLBlast would divide by zero with.
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
static struct clb_device *dev;

/* What the stub cache hands the runner: these parameters, said to be tuned at stored_at. */
static struct clb_tune_params stored;
static uint64_t stored_at = 256;

static bool stored_params(const struct clb_device *d, const char *kernel, enum clb_precision p,
                          struct clb_gemm_shape shape, const struct clb_gemm_mode *mode,
                          struct clb_tune_params *out, struct clb_tune_match *match)
{
    (void)mode;
    (void)d;
    (void)kernel;
    (void)p;
    (void)shape;
    *out = stored;
    out->size = stored_at;
    memset(match, 0, sizeof(*match));
    match->size = stored_at;
    return true;
}

static void run(const struct clb_gemm_backend *const *backends, const bool *untuned, size_t n,
                const struct clb_gemm_shape *shapes, size_t n_shapes, enum clb_precision p,
                struct clb_gemm_results *res)
{
    struct clb_error e;
    struct clb_gemm_options opt = {
        .shapes = shapes, .n_shapes = n_shapes, .precisions = &p, .n_precisions = 1,
        .backends = backends, .untuned = untuned, .n_backends = n, .runs = 1, .seed = 7,
        .alpha = 1.0, .beta = 0.5, .stored_params = stored_params,
    };
    assert_int_equal(clb_gemm_run(&opt, &dev, 1, res, &e), 0);
    assert_int_equal(res->n_rows, n * n_shapes);
}

static void own_param(const char *name, size_t v)
{
    clb_tune_set(&stored, name, v);
}

static void own_kernel_variants(void **state)
{
    static const struct clb_gemm_shape shapes[] = { { 1, 1, 1 }, { 37, 45, 300 }, { 70, 3, 9 } };
    /* VARIANT TM VW NV LX LY KC KW */
    static const unsigned sets[][8] = {
        { 0, 1, 4, 1, 1, 1, 0, 0 },   { 0, 5, 4, 3, 2, 1, 7, 0 },  { 0, 12, 16, 2, 8, 1, 256, 0 },
        { 0, 16, 8, 2, 3, 2, 64, 0 }, { 0, 7, 16, 1, 4, 1, 1, 0 }, { 2, 8, 4, 1, 16, 16, 0, 16 },
        { 2, 4, 2, 2, 8, 4, 0, 8 },   { 2, 2, 2, 1, 1, 1, 0, 1 },  { 2, 4, 4, 1, 4, 8, 0, 8 },
    };
    static const char *const names[] = { "VARIANT", "TM", "VW", "NV", "LX", "LY", "KC", "KW" };
    const struct clb_gemm_backend *be = clb_gemm_backend_find("clbench");
    /* Every set fits a device with work-groups of 256 and 32 KiB of local memory. */
    const bool all_fit = clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE) >= 256 &&
                         clb_device_u64(dev, CLB_PROP_LOCAL_MEM_BYTES) >= 32768;

    (void)state;
    for (int p = 0; p < 2; p++) {
        const enum clb_precision prec = p ? CLB_FP64 : CLB_FP32;
        if (prec == CLB_FP64 && !clb_device_bool(dev, CLB_PROP_FP64))
            continue;
        for (size_t s = 0; s < sizeof(sets) / sizeof(sets[0]); s++) {
            struct clb_gemm_results res;
            memset(&stored, 0, sizeof(stored));
            for (size_t i = 0; i < 8; i++)
                own_param(names[i], sets[s][i]);
            run(&be, NULL, 1, shapes, 3, prec, &res);
            for (size_t i = 0; i < res.n_rows; i++) {
                const struct clb_row *r = &res.rows[i];
                if (!r->tuned) { /* parameters this device cannot take: its defaults ran */
                    assert_false(all_fit);
                    assert_non_null(strstr(r->tuning_note, "not valid for this device"));
                    continue;
                }
                if (r->status != CLB_ROW_OK)
                    print_error("set %zu %s %s: %s\n", s, clb_precision_name(prec), r->kernel,
                                r->reason);
                assert_int_equal(r->status, CLB_ROW_OK);
                assert_int_equal(r->tuned_at, 256);
                assert_non_null(strstr(r->kernel, sets[s][0] ? "gpu tiles" : "packed"));
            }
            clb_gemm_results_finish(&res);
        }
    }
}

#if HAVE_CLBLAST
/* Whether a CLBlast row's kernel text names `kernel` (its notes follow a "; "). */
static bool kernel_is(const char *text, const char *kernel)
{
    const size_t n = strlen(kernel);
    return !strncmp(text, kernel, n) && (text[n] == '\0' || text[n] == ';');
}

static void xgemm(size_t mwg, size_t vwm)
{
    static const char *const names[] = { "GEMMK", "KREG", "KWG",   "KWI",   "MDIMA", "MDIMC",
                                         "MWG",   "NDIMB", "NDIMC", "NWG",  "SA",    "SB",
                                         "STRM",  "STRN", "VWM",   "VWN" };
    const size_t values[] = { 0, 1, 32, 2, 8, 8, mwg, 8, 8, 64, 1, 1, 0, 0, vwm, 4 };

    memset(&stored, 0, sizeof(stored));
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        clb_tune_set(&stored, names[i], values[i]);
}

static void clblast_stored_configuration_runs(void **state)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find("clblast");
    const struct clb_gemm_backend *const backends[] = { be, be, be };
    const bool untuned[] = { true, false, true };
    const struct clb_gemm_shape n256 = { 256, 256, 256 };
    struct clb_gemm_results res;

    (void)state;
    /* A valid configuration: verified, and Xgemm is what ran. */
    xgemm(64, 4);
    run(backends, untuned, 3, &n256, 1, CLB_FP32, &res);
    const bool direct = kernel_is(res.rows[0].kernel, "XgemmDirect");
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(res.rows[i].status, CLB_ROW_OK);
    assert_false(res.rows[0].tuned);
    assert_true(res.rows[1].tuned);
    assert_int_equal(res.rows[1].tuned_at, 256);
    assert_true(kernel_is(res.rows[1].kernel, "Xgemm"));
    /* After it, CLBlast's own choice again. */
    assert_string_equal(res.rows[2].kernel, res.rows[0].kernel);
    assert_string_equal(res.rows[0].backend, "clblast-untuned");
    assert_string_equal(res.rows[1].backend, "clblast");
    clb_gemm_results_finish(&res);

    /*
     * MWG = 64 is not a multiple of MDIMC * VWM = 128: Xgemm computes garbage.
     * Where CLBlast's rule picks the direct kernel at 256, only a tuned row that
     * really runs Xgemm can fail; the untuned rows around it must not.
     */
    xgemm(64, 16);
    run(backends, untuned, 3, &n256, 1, CLB_FP32, &res);
    assert_true(kernel_is(res.rows[1].kernel, "Xgemm"));
    assert_true(res.rows[1].status == CLB_ROW_FAILED || res.rows[1].status == CLB_ROW_ERROR);
    assert_int_equal(res.rows[0].status, CLB_ROW_OK);
    assert_int_equal(res.rows[2].status, CLB_ROW_OK);
    assert_string_equal(res.rows[2].kernel, res.rows[0].kernel);
    clb_gemm_results_finish(&res);

    /*
     * An entry tuned where Xgemm runs (16384 is above every threshold) was
     * never measured against XgemmDirect: where CLBlast's own choice is the
     * direct kernel it is not applied, and the row says why.
     */
    if (direct) {
        xgemm(64, 4);
        stored_at = 16384;
        run(backends, untuned, 3, &n256, 1, CLB_FP32, &res);
        stored_at = 256;
        assert_int_equal(res.rows[1].status, CLB_ROW_OK);
        assert_false(res.rows[1].tuned);
        assert_true(kernel_is(res.rows[1].kernel, "XgemmDirect"));
        assert_non_null(strstr(res.rows[1].tuning_note, "tuned at 16384 were not applied"));
        assert_non_null(strstr(res.rows[1].tuning_note, "XgemmDirect"));
        clb_gemm_results_finish(&res);
    }

    /* Parameters CLBlast would divide by zero with are never handed to it. */
    xgemm(0, 4);
    run(backends, untuned, 3, &n256, 1, CLB_FP32, &res);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(res.rows[i].status, CLB_ROW_OK);
    assert_false(res.rows[1].tuned);
    assert_string_equal(res.rows[1].kernel, res.rows[0].kernel);
    assert_non_null(strstr(res.rows[1].tuning_note, "not applied"));
    clb_gemm_results_finish(&res);
}
#endif

int main(void)
{
    struct clb_error e;
    int skip = clb_test_require_device();

    if (skip)
        return skip;
    setenv("CLBENCH_TUNING_FILE", "/nonexistent/clbench-tuning.json", 1);
    inv = clb_inventory_create(&e);
    assert_non_null(inv);
    dev = &inv->devices[0];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_kernel_variants),
#if HAVE_CLBLAST
        cmocka_unit_test(clblast_stored_configuration_runs),
#endif
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clb_inventory_destroy(inv);
    return rc;
}
