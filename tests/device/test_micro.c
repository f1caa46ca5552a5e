/* peak, bandwidth, transfer and latency on the devices present (pocl in CI), small and quick. */
#include <setjmp.h>
#include <stdio.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/latency.h"
#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/bench/transfer.h"
#include "clbench/cl/env.h"
#include "clbench/cl/inventory.h"
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

static void assert_rows(const struct clb_micro_results *res, enum clb_benchmark benchmark,
                        size_t min)
{
    size_t n = 0;
    for (size_t i = 0; i < res->n_rows; i++) {
        const struct clb_row *r = &res->rows[i];
        assert_int_equal(r->benchmark, benchmark);
        if (r->status == CLB_ROW_UNAVAILABLE) {
            assert_true(strlen(r->reason) > 0);
            continue;
        }
        if (r->status != CLB_ROW_OK)
            fail_msg("%s %s: %s: %s", clb_benchmark_name(benchmark), r->case_,
                     clb_row_status_name(r->status),
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
    assert_rows(&res, CLB_BENCH_PEAK, 5);
    /* OK means every work-item matched its own expected value exactly. */
    for (size_t i = 0; i < res.n_rows; i++)
        if (res.rows[i].status == CLB_ROW_OK)
            assert_non_null(strstr(res.rows[i].check, "each checked exactly"));
    for (size_t i = 0; i < inv->n_devices; i++) {
        assert_true(clb_micro_peak(&res, &inv->devices[i], CLB_FP32) > 0);
        assert_true((clb_micro_peak(&res, &inv->devices[i], CLB_FP64) > 0) ==
                    clb_device_bool(&inv->devices[i], CLB_PROP_FP64));
    }
    clb_micro_results_finish(&res);
}

/* Bandwidth runs on every device, both precisions, at an odd size (whole chunks of
 * 1024 elements: 244 of float, 122 of double), on each code path, shared by the tests
 * below. */
static struct clb_micro_results bw;

static void bandwidth(void **state)
{
    static const enum clb_precision both[] = { CLB_FP32, CLB_FP64 };
    struct clb_micro_options opt = { .runs = 2, .bytes = 1000003, .precisions = both,
                                     .n_precisions = 2 };

    (void)state;
    for (int path = CLB_CODE_PATH_CPU; path <= CLB_CODE_PATH_GPU; path++) {
        opt.code_path = (enum clb_code_path)path;
        each_device(clb_bandwidth_run, &opt, &bw);
    }
    assert_rows(&bw, CLB_BENCH_BANDWIDTH, 5);
    bool triad = false; /* the first device measured an fp32 triad figure */
    for (size_t i = 0; i < bw.n_rows; i++) {
        const struct clb_row *r = &bw.rows[i];
        triad |= r->device == &inv->devices[0] && r->status == CLB_ROW_OK &&
                 !strcmp(r->kernel, "triad") && r->precision == CLB_FP32 &&
                 !strcmp(r->case_, "fp32 triad") && r->value > 0;
    }
    assert_true(triad);
    /*
     * The queue of each_device has no profiling; bandwidth makes its own, so every call has
     * both clocks (pocl has profiling): the kernel's time and the same call on the host's
     * clock, which holds the kernel and so is no shorter. Which is the headline follows
     * clb_bandwidth_host_clock on the two figures, the other stays beside it.
     */
    for (size_t i = 0; i < bw.n_rows; i++) {
        const struct clb_row *r = &bw.rows[i];
        if (!r->n_times)
            continue;
        assert_non_null(r->timer);
        assert_non_null(r->alt_timer);
        const bool host = !strcmp(r->timer, "host");
        if (host == !strcmp(r->alt_timer, "host"))
            fail_msg("%s: timer %s beside %s", r->case_, r->timer, r->alt_timer);
        assert_int_equal(r->n_alt_times, r->n_times);
        const double *dev_s = host ? r->alt_times_s : r->times_s;
        const double *host_s = host ? r->times_s : r->alt_times_s;
        for (size_t c = 0; c < r->n_times; c++)
            if (!(dev_s[c] > 0 && host_s[c] >= dev_s[c]))
                fail_msg("%s call %zu: device %g s, host %g s", r->case_, c, dev_s[c],
                         host_s[c]);
        const double dev_fig = host ? r->alt_value : r->value;
        const double host_fig = host ? r->value : r->alt_value;
        assert_true(host_fig > 0 && host_fig <= dev_fig);
        if (clb_bandwidth_host_clock(clb_device_is_cpu(r->device), dev_fig, host_fig) != host)
            fail_msg("%s: on the %s clock with device %g GB/s, host %g GB/s", r->case_,
                     r->timer, dev_fig, host_fig);
        /* The stream rows say their code path; the chunked dot runs on the cpu path only. */
        if (!strstr(r->case_, " local"))
            assert_non_null(r->code_path);
        if (strstr(r->case_, "dot chunked"))
            assert_string_equal(r->code_path, "cpu");
    }
}

/*
 * The bytes each stream row credits are what its kernel's launch touches, from what
 * kernels/stream.cl does per work-item (not from bandwidth_model.c's table): each work-item
 * covers `covered` elements of the arrays (0: BabelStream's dot, whose grid strides over
 * all of them) and loads or stores `arrays` elements for each; so the launch touches
 * work-items x covered x element size x arrays, and its work-items cover the arrays once.
 */
static void assert_bytes_on(const char *kernel, const char *path, size_t covered,
                            double arrays, bool per_group)
{
    size_t rows = 0;

    for (size_t i = 0; i < bw.n_rows; i++) {
        const struct clb_row *r = &bw.rows[i];
        char want[64];
        snprintf(want, sizeof(want), "%s %s", clb_precision_name(r->precision), kernel);
        if (r->status == CLB_ROW_UNAVAILABLE || strcmp(r->case_, want) ||
            (path && strcmp(r->code_path, path)))
            continue;
        if (r->status != CLB_ROW_OK)
            fail_msg("%s: %s", r->case_, r->reason);
        const double elem = r->precision == CLB_FP64 ? 8 : 4;
        if (covered && (uint64_t)r->launch.global_size * covered != r->launch.elements)
            fail_msg("%s: %zu work-items x %zu elements cover %" PRIu64 " elements, not the "
                     "arrays' %" PRIu64, r->case_, r->launch.global_size, covered,
                     (uint64_t)r->launch.global_size * covered, r->launch.elements);
        assert_true(r->launch.global_size > 0 && r->launch.global_size <= r->launch.elements);
        const double touched = covered ? (double)r->launch.global_size * (double)covered * elem * arrays
                                       : (double)r->launch.elements * elem * arrays;
        if (r->work != touched)
            fail_msg("%s: %.0f bytes credited, the launch touches %.0f (%zu work-items, "
                     "%" PRIu64 " elements of %g bytes, %g arrays)", r->case_, r->work, touched,
                     r->launch.global_size, r->launch.elements, elem, arrays);
        /* One work-item an element runs on the runtime's work-groups; the dot's tree on
         * its own, whole ones. */
        assert_true(per_group ? r->launch.local_size > 0 && r->launch.global_size % r->launch.local_size == 0
                              : r->launch.local_size == 0);
        rows++;
    }
    assert_true(rows >= 1);
}

static void assert_bytes(const char *kernel, size_t covered, double arrays, bool per_group)
{
    assert_bytes_on(kernel, NULL, covered, arrays, per_group);
}

/* copy c = a, mul b = s c: an element an item, read and written: 2 arrays. */
static void bytes_copy(void **state) { (void)state; assert_bytes("copy", 1, 2, false); }
static void bytes_mul(void **state) { (void)state; assert_bytes("mul", 1, 2, false); }
/* add c = a + b, triad a = b + s c: 3 arrays. */
static void bytes_add(void **state) { (void)state; assert_bytes("add", 1, 3, false); }
static void bytes_triad(void **state) { (void)state; assert_bytes("triad", 1, 3, false); }
/* BabelStream's dot reads a and b (its partial sums, one per work-group, not counted,
 * as BabelStream does not). */
static void bytes_dot(void **state) { (void)state; assert_bytes("dot", 0, 2, true); }
/* read: on the gpu path 16 elements of a loaded and one sum stored an item; on the cpu
 * path a chunk of 1024 and one sum. */
static void bytes_read(void **state)
{
    (void)state;
    assert_bytes_on("read", "gpu", 16, 1 + 1.0 / 16, false);
    assert_bytes_on("read", "cpu", 1024, 1 + 1.0 / 1024, false);
}
/* The chunked dot: 1024 elements of a and b an item (its one partial sum not counted). */
static void bytes_chunked(void **state) { (void)state; assert_bytes("dot chunked", 1024, 2, false); }

/* local: work-groups of 256, each work-item 16 loads a round, `rounds` rounds. */
static void bytes_local(void **state)
{
    size_t rows = 0;

    (void)state;
    for (size_t i = 0; i < bw.n_rows; i++) {
        const struct clb_row *r = &bw.rows[i];
        if (!strstr(r->case_, " local") || r->status != CLB_ROW_OK)
            continue;
        const double elem = r->precision == CLB_FP64 ? 8 : 4;
        assert_true(r->launch.local_size == 256 && r->launch.global_size % 256 == 0 && r->launch.rounds > 0);
        if (r->work != (double)r->launch.global_size * 16 * r->launch.rounds * elem)
            fail_msg("%s: %.0f bytes credited, the launch (%zu work-items x 16 x %u rounds x "
                     "%g bytes) touches %.0f", r->case_, r->work, r->launch.global_size, r->launch.rounds,
                     elem, (double)r->launch.global_size * 16 * r->launch.rounds * elem);
        rows++;
    }
    assert_true(rows >= 1);
    clb_micro_results_finish(&bw);
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
    assert_rows(&res, CLB_BENCH_TRANSFER, 8); /* 2 directions x 2 kinds of memory x 2 sizes */
    clb_micro_results_finish(&res);
}

static void latency(void **state)
{
    struct clb_micro_results res = { 0 };
    struct clb_micro_options opt = { .runs = 1 };

    (void)state;
    each_device(clb_latency_run, &opt, &res);
    assert_rows(&res, CLB_BENCH_LATENCY, 3);
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
        cmocka_unit_test(bytes_copy),
        cmocka_unit_test(bytes_mul),
        cmocka_unit_test(bytes_add),
        cmocka_unit_test(bytes_triad),
        cmocka_unit_test(bytes_dot),
        cmocka_unit_test(bytes_read),
        cmocka_unit_test(bytes_chunked),
        cmocka_unit_test(bytes_local),
        cmocka_unit_test(bandwidth_too_big_is_skipped),
        cmocka_unit_test(transfer),
        cmocka_unit_test(latency),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    clb_inventory_destroy(inv);
    return rc;
}
