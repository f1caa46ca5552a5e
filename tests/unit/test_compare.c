/* compare's matching, ratios and regression rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/compare.h"

static void regression_rule(void **state)
{
    (void)state;
    assert_false(clb_compare_regressed("gflops", 0.96, 0.05));
    assert_true(clb_compare_regressed("gflops", 0.94, 0.05));
    assert_false(clb_compare_regressed("gflops", 2.0, 0.05));
    /* Latency: lower is better, so a larger ratio is the regression. */
    assert_true(clb_compare_regressed("us", 1.06, 0.05));
    assert_false(clb_compare_regressed("us", 0.5, 0.05));
    assert_false(clb_compare_regressed("gflops", 0.1, 0.0)); /* no threshold: never */
}

static void device_matching(void **state)
{
    struct clb_pair_list pairs = { 0 };
    struct clb_error e;

    (void)state;
    assert_true(clb_devices_match("NVIDIA H200", "NVIDIA H200", NULL));
    assert_false(clb_devices_match("NVIDIA H200", "NVIDIA H100", NULL));
    assert_int_equal(clb_opt_pairs("h200=h100,iris=a100", &pairs, &e), 0);
    assert_int_equal(pairs.n, 2);
    assert_true(clb_devices_match("NVIDIA H200", "NVIDIA H100 80GB", &pairs));
    assert_true(clb_devices_match("Intel Iris Xe", "A100-SXM4", &pairs));
    assert_false(clb_devices_match("NVIDIA H100", "NVIDIA H200", &pairs)); /* ordered */
    assert_int_equal(clb_opt_pairs("a=", &pairs, &e), -1);
    assert_int_equal(clb_opt_pairs("=b", &pairs, &e), -1);
    assert_int_equal(clb_opt_pairs("ab", &pairs, &e), -1);
}

static void percent(void **state)
{
    double v;
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_opt_percent("5%", &v, &e), 0);
    assert_true(fabs(v - 0.05) < 1e-12);
    assert_int_equal(clb_opt_percent("12.5", &v, &e), 0);
    assert_true(fabs(v - 0.125) < 1e-12);
    assert_int_equal(clb_opt_percent("%", &v, &e), -1);
    assert_int_equal(clb_opt_percent("-1%", &v, &e), -1);
    assert_int_equal(clb_opt_percent("101%", &v, &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(regression_rule),
        cmocka_unit_test(device_matching),
        cmocka_unit_test(percent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
