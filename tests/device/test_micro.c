/* peak, bandwidth, transfer and latency on the devices present (pocl in CI), small and quick. */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/bench/micro.h"
#include "require.h"

static struct clb_inventory *inv;

static void each_device(int (*fn)(const struct clb_device *, const struct clb_cl_env *,
                                  const struct clb_micro_options *, struct clb_micro_results *),
                        const struct clb_micro_options *opt, struct clb_micro_results *res)
{
    for (size_t i = 0; i < inv->n_devices; i++) {
        struct clb_cl_env env;
        struct clb_error e;
        assert_int_equal(clb_cl_env_init(&env, inv->devices[i].id, false, &e), 0);
        assert_int_equal(fn(&inv->devices[i], &env, opt, res), 0);
        clb_cl_env_finish(&env);
    }
}

static void assert_rows(const struct clb_micro_results *res, const char *benchmark, size_t min)
{
    size_t n = 0;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_micro_row *r = &res->rows[i];
        assert_string_equal(r->benchmark, benchmark);
        if (r->status == CLB_ROW_UNAVAILABLE) {
            assert_true(strlen(r->reason) > 0);
            continue;
        }
        if (r->status != CLB_ROW_OK)
            fail_msg("%s %s: %s: %s", benchmark, r->case_, clb_row_status_name(r->status),
                     r->reason);
        assert_true(r->n_times > 0 && r->value > 0 && r->best > 0);
        n++;
    }
    assert_true(n >= min);
}

static void peak(void **state)
{
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 1, .target_s = 0.002 };

    (void)state;
    each_device(clb_peak_run, &opt, &res);
    assert_rows(&res, "peak", 5);
    /* OK means every work-item matched its own expected value exactly. */
    for (size_t i = 0; i < res.n_rows; i++)
        if (res.rows[i].status == CLB_ROW_OK)
            assert_non_null(strstr(res.rows[i].check, "each checked exactly"));
    for (size_t i = 0; i < inv->n_devices; i++) {
        assert_true(clb_micro_peak(&res, &inv->devices[i], "fp32") > 0);
        assert_true((clb_micro_peak(&res, &inv->devices[i], "fp64") > 0) ==
                    clb_device_bool(&inv->devices[i], CLB_PROP_FP64));
    }
    clb_micro_results_finish(&res);
}

static void bandwidth(void **state)
{
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 2, .bytes = 4u << 20 };

    (void)state;
    each_device(clb_bandwidth_run, &opt, &res);
    assert_rows(&res, "bandwidth", 5);
    assert_true(clb_micro_bandwidth(&res, &inv->devices[0]) > 0);
    clb_micro_results_finish(&res);
}

static void bandwidth_too_big_is_skipped(void **state)
{
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 1,
                                     .bytes = clb_device_u64(&inv->devices[0],
                                                             CLB_PROP_MAX_ALLOC_BYTES) * 2 };
    struct clb_cl_env env;
    struct clb_error e;

    (void)state;
    assert_int_equal(clb_cl_env_init(&env, inv->devices[0].id, false, &e), 0);
    clb_bandwidth_run(&inv->devices[0], &env, &opt, &res);
    clb_cl_env_finish(&env);
    assert_int_equal(res.rows[0].status, CLB_ROW_SKIPPED);
    assert_non_null(strstr(res.rows[0].reason, "do not fit"));
    clb_micro_results_finish(&res);
}

static void transfer(void **state)
{
    static const uint64_t sizes[] = { 4096, 1u << 20 };
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 2, .sizes = sizes, .n_sizes = 2 };

    (void)state;
    each_device(clb_transfer_run, &opt, &res);
    assert_rows(&res, "transfer", 8); /* 2 directions x 2 kinds of memory x 2 sizes */
    clb_micro_results_finish(&res);
}

static void latency(void **state)
{
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 1 };

    (void)state;
    each_device(clb_latency_run, &opt, &res);
    assert_rows(&res, "latency", 3);
    assert_true(res.rows[0].n_times >= 20);
    /* The check names the launches that ran: 20 warm-ups and every timed one, not --runs'. */
    for (size_t i = 0; i < res.n_rows; i++) {
        char want[160];
        snprintf(want, sizeof(want),
                 "the last of %zu launches (20 untimed, %zu timed) stored its value",
                 res.rows[0].n_times + 20, res.rows[0].n_times);
        assert_string_equal(res.rows[i].check, want);
    }
    clb_micro_results_finish(&res);
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
        cmocka_unit_test(peak),
        cmocka_unit_test(bandwidth),
        cmocka_unit_test(bandwidth_too_big_is_skipped),
        cmocka_unit_test(transfer),
        cmocka_unit_test(latency),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clb_inventory_destroy(inv);
    return rc;
}
