/* The device selector's grammar and matching: no device needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/cl/inventory.h"
#include "clbench/cl/select.h"

static struct clb_selector *must_parse(const char *text)
{
    struct clb_error e;
    struct clb_selector *s = clb_selector_parse(text, &e);

    if (!s)
        fail_msg("'%s' rejected: %s", text, e.msg);
    return s;
}

static void all_matches_everything(void **state)
{
    struct clb_selector *s = must_parse("all");

    (void)state;
    assert_true(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_CPU, "x"));
    assert_true(clb_selector_match(s, 3, 7, CL_DEVICE_TYPE_GPU, "y"));
    clb_selector_destroy(s);
}

static void types(void **state)
{
    struct clb_selector *s = must_parse("GPU");

    (void)state;
    assert_true(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, "NVIDIA H200"));
    assert_false(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_CPU, "pthread"));
    clb_selector_destroy(s);
    s = must_parse("cpu,accelerator");
    assert_true(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_CPU, "pthread"));
    assert_true(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_ACCELERATOR, "fpga"));
    assert_false(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, "gpu"));
    clb_selector_destroy(s);
}

static void indices(void **state)
{
    struct clb_selector *s = must_parse("1:0, 0:2");

    (void)state;
    assert_true(clb_selector_match(s, 1, 0, CL_DEVICE_TYPE_GPU, "a"));
    assert_true(clb_selector_match(s, 0, 2, CL_DEVICE_TYPE_GPU, "a"));
    assert_false(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, "a"));
    assert_false(clb_selector_match(s, 1, 2, CL_DEVICE_TYPE_GPU, "a"));
    clb_selector_destroy(s);
}

static void names_case_insensitive(void **state)
{
    struct clb_selector *s = must_parse("h200");

    (void)state;
    assert_true(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, "NVIDIA H200"));
    assert_false(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, "NVIDIA H100"));
    assert_false(clb_selector_match(s, 0, 0, CL_DEVICE_TYPE_GPU, NULL));
    clb_selector_destroy(s);
}

static void malformed(void **state)
{
    static const char *const bad[] = { "", ",", "cpu,", ",gpu", "3", "0:", ":1", "0:x",
                                       "0:1:2", "1234567:0" };
    struct clb_error e;

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        e.msg[0] = '\0';
        struct clb_selector *s = clb_selector_parse(bad[i], &e);
        if (s)
            fail_msg("'%s' was accepted", bad[i]);
        assert_true(strlen(e.msg) > 0);
    }
}

static void select_from_inventory(void **state)
{
    struct clb_platform plat = { .name = "P" };
    struct clb_device devs[2] = { 0 };
    struct clb_inventory inv = { .platforms = &plat, .n_platforms = 1, .devices = devs,
                                 .n_devices = 2 };
    struct clb_device **out = NULL;
    size_t n = 0;
    struct clb_error e;

    (void)state;
    for (int i = 0; i < 2; i++) {
        devs[i].platform = &plat;
        devs[i].device_index = (unsigned)i;
        devs[i].props[CLB_PROP_NAME].applicable = true;
        devs[i].props[CLB_PROP_NAME].str = i ? "Big GPU" : "Small CPU";
        devs[i].props[CLB_PROP_TYPE].applicable = true;
        devs[i].props[CLB_PROP_TYPE].n_num = 1;
        devs[i].props[CLB_PROP_TYPE].num[0] = i ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_CPU;
        devs[i].props[CLB_PROP_TYPE].str = i ? "GPU" : "CPU";
    }
    struct clb_selector *s = must_parse("gpu");
    assert_int_equal(clb_inventory_select(&inv, s, "gpu", &out, &n, &e), 0);
    assert_int_equal(n, 1);
    assert_ptr_equal(out[0], &devs[1]);
    free(out);
    clb_selector_destroy(s);

    s = must_parse("accelerator");
    assert_int_equal(clb_inventory_select(&inv, s, "accelerator", &out, &n, &e), -1);
    assert_non_null(strstr(e.msg, "matches no device"));
    assert_non_null(strstr(e.msg, "0:0 Small CPU (CPU)"));
    assert_non_null(strstr(e.msg, "0:1 Big GPU (GPU)"));
    clb_selector_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_matches_everything),
        cmocka_unit_test(types),
        cmocka_unit_test(indices),
        cmocka_unit_test(names_case_insensitive),
        cmocka_unit_test(malformed),
        cmocka_unit_test(select_from_inventory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
