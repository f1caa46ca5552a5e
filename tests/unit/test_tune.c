/*
 * The tuning cache: what is stored reads back for the same device and
 * versions only; a corrupt file, another CLBlast or clbench version, or
 * another device is never applied. And CLBlast's Xgemm constraints.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clbench/backends/backend.h"
#include "clbench/tune/cache.h"
#include "config.h"

static struct clb_device dev;
static char path[256];

static void set_prop(enum clb_prop_id id, const char *str, uint64_t num)
{
    dev.props[id].applicable = true;
    dev.props[id].str = (char *)str;
    dev.props[id].num[0] = num;
    dev.props[id].n_num = 1;
}

static int setup(void **state)
{
    (void)state;
    memset(&dev, 0, sizeof(dev));
    set_prop(CLB_PROP_NAME, "Test GPU 9000", 0);
    set_prop(CLB_PROP_DRIVER_VERSION, "1.2.3", 0);
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 65536);
    snprintf(path, sizeof(path), "/tmp/clbench-test-tune-%d.json", (int)getpid());
    setenv("CLBENCH_TUNING_FILE", path, 1);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

static void write_file(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void store_then_lookup(void **state)
{
    struct clb_tune_params p = { 0 }, got;
    struct clb_error e;
    double gflops = 0;

    (void)state;
    unlink(path);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* no file */
    clb_tune_set(&p, "KWG", 32);
    clb_tune_set(&p, "VWM", 4);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", "fp32", &p, 12.5, 2048, &e), 0);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, &gflops));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 32);
    assert_int_equal(clb_tune_get(&got, "VWM", 0), 4);
    assert_true(gflops == 12.5);
    /* Another precision or kernel is another entry. */
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp64", &got, NULL));
    assert_false(clb_tuning_lookup(&dev, "clbench-gemm", "fp32", &got, NULL));
    /* Storing again replaces the entry. */
    clb_tune_set(&p, "KWG", 16);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", "fp32", &p, 20.0, 2048, &e), 0);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, &gflops));
    assert_int_equal(clb_tune_get(&got, "KWG", 0), 16);
    assert_true(gflops == 20.0);
}

static void unreadable_file_is_not_overwritten(void **state)
{
    struct clb_tune_params p = { 0 };
    struct clb_error e;
    char buf[64] = "";

    (void)state;
    write_file("{\"schema\": \"clbench-tuning/1\", \"entries\": [],}");
    clb_tune_set(&p, "KWG", 32);
    assert_int_equal(clb_tuning_store(&dev, "Xgemm", "fp32", &p, 1.0, 64, &e), -1);
    assert_non_null(strstr(e.msg, "not overwritten"));
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof(buf), f));
    fclose(f);
    assert_non_null(strstr(buf, "[],}")); /* untouched */
}

static void corrupt_file_is_ignored(void **state)
{
    struct clb_tune_params got;
    static const char *const bad[] = {
        "", "{", "not json at all", "[1, 2]", "{\"schema\": \"clbench-tuning/9\", \"entries\": []}",
        "{\"schema\": \"clbench-tuning/1\", \"entries\": {}}",
    };

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        write_file(bad[i]);
        assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL));
    }
}

static void entry(char *buf, size_t len, const char *device, const char *driver,
                  const char *clblast, const char *params)
{
    snprintf(buf, len,
             "{\"schema\": \"clbench-tuning/1\", \"entries\": [{\"device\": \"%s\", "
             "\"driver\": \"%s\", \"clblast\": \"%s\", \"clbench\": \"%s\", \"kernel\": "
             "\"Xgemm\", \"precision\": \"fp32\", \"params\": %s, \"gflops\": 1.0}]}",
             device, driver, clblast, CLBENCH_VERSION, params);
}

static void mismatches_are_not_applied(void **state)
{
    char buf[1024];
    struct clb_tune_params got;

    (void)state;
    entry(buf, sizeof(buf), "Test GPU 9000", "1.2.3", CLBENCH_CLBLAST_VERSION, "{\"KWG\": 32}");
    write_file(buf);
    assert_true(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL));
    entry(buf, sizeof(buf), "Test GPU 9000", "1.2.3", "0.0.1", "{\"KWG\": 32}");
    write_file(buf);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* other CLBlast */
    entry(buf, sizeof(buf), "Other GPU", "1.2.3", CLBENCH_CLBLAST_VERSION, "{\"KWG\": 32}");
    write_file(buf);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* other device */
    entry(buf, sizeof(buf), "Test GPU 9000", "9.9.9", CLBENCH_CLBLAST_VERSION, "{\"KWG\": 32}");
    write_file(buf);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* other driver */
    entry(buf, sizeof(buf), "Test GPU 9000", "1.2.3", CLBENCH_CLBLAST_VERSION, "{\"KWG\": -1}");
    write_file(buf);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* bad value */
    entry(buf, sizeof(buf), "Test GPU 9000", "1.2.3", CLBENCH_CLBLAST_VERSION, "\"KWG\"");
    write_file(buf);
    assert_false(clb_tuning_lookup(&dev, "Xgemm", "fp32", &got, NULL)); /* bad type */
}

static struct clb_tune_params xgemm(size_t kwg, size_t kwi, size_t mdima, size_t mdimc,
                                    size_t mwg, size_t ndimb, size_t ndimc, size_t nwg,
                                    size_t sa, size_t sb, size_t vwm, size_t vwn)
{
    struct clb_tune_params p = { 0 };
    clb_tune_set(&p, "KWG", kwg);
    clb_tune_set(&p, "KWI", kwi);
    clb_tune_set(&p, "MDIMA", mdima);
    clb_tune_set(&p, "MDIMC", mdimc);
    clb_tune_set(&p, "MWG", mwg);
    clb_tune_set(&p, "NDIMB", ndimb);
    clb_tune_set(&p, "NDIMC", ndimc);
    clb_tune_set(&p, "NWG", nwg);
    clb_tune_set(&p, "SA", sa);
    clb_tune_set(&p, "SB", sb);
    clb_tune_set(&p, "VWM", vwm);
    clb_tune_set(&p, "VWN", vwn);
    return p;
}

/* CLBlast's Xgemm constraints, as its backend's tuning part states them. */
static bool xgemm_valid(const struct clb_device *d, enum clb_precision p,
                        const struct clb_tune_params *t)
{
    const struct clb_gemm_backend *be = clb_gemm_backend_find("clblast");

    assert_non_null(be);
    assert_non_null(be->tuning);
    return be->tuning->valid(d, p, t);
}

static void xgemm_constraints(void **state)
{
    struct clb_tune_params p;

    (void)state;
    p = xgemm(32, 2, 8, 8, 32, 16, 16, 32, 1, 1, 4, 2); /* CLBlast's generic default */
    assert_true(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 2, 8, 8, 32, 16, 16, 32, 1, 1, 8, 2); /* MWG % (MDIMC * VWM) */
    assert_false(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 3, 8, 8, 32, 16, 16, 32, 1, 1, 4, 2); /* KWG % KWI */
    assert_false(xgemm_valid(&dev, CLB_FP32, &p));
    p = xgemm(32, 2, 32, 32, 128, 32, 32, 128, 1, 1, 1, 1); /* 1024 work-items: fits */
    assert_true(xgemm_valid(&dev, CLB_FP32, &p));
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 256);
    assert_false(xgemm_valid(&dev, CLB_FP32, &p)); /* too many work-items */
    set_prop(CLB_PROP_MAX_WORK_GROUP_SIZE, NULL, 1024);
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 4096);
    assert_false(xgemm_valid(&dev, CLB_FP32, &p)); /* local memory */
    set_prop(CLB_PROP_LOCAL_MEM_BYTES, NULL, 65536);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(store_then_lookup),
        cmocka_unit_test(corrupt_file_is_ignored),
        cmocka_unit_test(unreadable_file_is_not_overwritten),
        cmocka_unit_test(mismatches_are_not_applied),
        cmocka_unit_test(xgemm_constraints),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
