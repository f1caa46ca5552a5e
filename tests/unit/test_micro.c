/* The checks behind peak and bandwidth: right results pass, corrupted ones fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/micro.h"

static void peak_expected_values(void **state)
{
    (void)state;
    /* Chains start at k/8 + lane/128 and approach 1 by (1 - 2^-10) per round: after 1024
     * rounds the distance left is (1 - 2^-10)^1024 ~ e^-1. */
    const double q = pow(1.0 - 0x1p-10, 1024);
    double want1 = 0.0, want8 = 0.0;
    for (int l = 0; l < 8; l++)
        for (int k = 0; k < 8; k++) {
            double v = 1.0 - (1.0 - (k / 8.0 + l / 128.0)) * q;
            want8 += v;
            if (l == 0)
                want1 += v;
        }
    assert_true(fabs(clb_peak_expected("fp64", 1, 1024) - want1) < 1e-9);
    assert_true(fabs(clb_peak_expected("fp64", 8, 1024) - want8) < 1e-9);
    assert_true(fabs(clb_peak_expected("fp32", 8, 1024) - want8) < 1e-3);
    /* In fp16 the steps fall below half an ulp near 1 and the chains stall: only bounds. */
    double h = clb_peak_expected("fp16", 8, 1024);
    assert_true(h > 8 * 3.5 && h < 8 * 8.0);
    /* Fewer rounds give a different answer: a truncated loop cannot pass. */
    assert_false(clb_peak_matches("fp32", clb_peak_expected("fp32", 8, 1000),
                                  clb_peak_expected("fp32", 8, 1024)));
}

static void peak_corrupted_output_fails(void **state)
{
    static const char *const precs[] = { "fp32", "fp64", "fp16", "int32" };
    (void)state;
    for (size_t i = 0; i < 4; i++) {
        double want = clb_peak_expected(precs[i], 4, 1024);
        assert_true(clb_peak_matches(precs[i], want, want));
        assert_false(clb_peak_matches(precs[i], want * 1.1, want));
        assert_false(clb_peak_matches(precs[i], 0.0, want));
        assert_false(clb_peak_matches(precs[i], NAN, want));
    }
    double u = clb_peak_expected("int32", 1, 1024);
    assert_false(clb_peak_matches("int32", u + 1, u));
    assert_true(u == floor(u) && u >= 0 && u < 4294967296.0);
}

static void stream_recurrence(void **state)
{
    double a, b, c;

    (void)state;
    clb_stream_expected(1, 0.4f, &a, &b, &c);
    /* c = a = 0.1; b = 0.4 c = 0.04; c = a + b = 0.14; a = b + 0.4 c = 0.096 */
    assert_true(fabs(a - 0.096) < 1e-7 && fabs(b - 0.04) < 1e-7 && fabs(c - 0.14) < 1e-7);
}

static void stream_verify_catches_corruption(void **state)
{
    enum { N = 4096 };
    float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float)),
          *c = malloc(N * sizeof(float));
    double wa, wb, wc;
    char why[256];

    (void)state;
    clb_stream_expected(11, 0.4f, &wa, &wb, &wc);
    for (int i = 0; i < N; i++)
        a[i] = (float)wa, b[i] = (float)wb, c[i] = (float)wc;
    double dot = wa * wb * N;
    assert_true(clb_stream_verify(a, b, c, N, dot, 11, why, sizeof(why)));
    /* The wrong round count is caught. */
    assert_false(clb_stream_verify(a, b, c, N, dot, 10, why, sizeof(why)));
    /* One corrupted element of one array. */
    c[N - 1] *= 1.01f;
    assert_false(clb_stream_verify(a, b, c, N, dot, 11, why, sizeof(why)));
    assert_non_null(strstr(why, "array c"));
    c[N - 1] = (float)wc;
    /* A wrong dot product. */
    assert_false(clb_stream_verify(a, b, c, N, dot * 0.99, 11, why, sizeof(why)));
    assert_non_null(strstr(why, "dot"));
    a[7] = NAN;
    assert_false(clb_stream_verify(a, b, c, N, dot, 11, why, sizeof(why)));
    free(a);
    free(b);
    free(c);
}

static void row_summary(void **state)
{
    struct clb_micro_results r = { 0 };
    struct clb_micro_row *row = clb_micro_add(&r, NULL, "bandwidth", "gbps");

    (void)state;
    assert_non_null(row);
    row->work = 2e9;
    row->times_s = malloc(3 * sizeof(double));
    row->times_s[0] = 1.0, row->times_s[1] = 0.5, row->times_s[2] = 2.0;
    row->n_times = 3;
    clb_micro_row_summarize(row);
    assert_true(row->value == 2.0 && row->best == 4.0); /* median 1 s, fastest 0.5 s */
    row = clb_micro_add(&r, NULL, "latency", "us");
    row->times_s = malloc(2 * sizeof(double));
    row->times_s[0] = 10e-6, row->times_s[1] = 30e-6;
    row->n_times = 2;
    clb_micro_row_summarize(row);
    assert_true(fabs(row->value - 20.0) < 1e-9 && fabs(row->best - 10.0) < 1e-9);
    clb_micro_results_finish(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(peak_expected_values),
        cmocka_unit_test(peak_corrupted_output_fails),
        cmocka_unit_test(stream_recurrence),
        cmocka_unit_test(stream_verify_catches_corruption),
        cmocka_unit_test(row_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
