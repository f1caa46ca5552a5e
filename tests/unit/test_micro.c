/* The checks behind peak and bandwidth: right results pass, corrupted ones fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/bench/micro.h"
#include <CL/cl_half.h>

static const char *const precs[] = { "fp32", "fp64", "fp16", "int32", "int16", "int8" };
enum { N_PRECS = sizeof(precs) / sizeof(precs[0]) };
static const unsigned widths[] = { 1, 2, 4, 8, 16 };

static float half_round(double v)
{
    return clb_half_to_double(cl_half_from_double(v, CL_HALF_RTE));
}

/*
 * One work-item of kernels/peak.cl by brute force: every chain's rounds in the
 * precision's own arithmetic (fp16: each step rounded to half; int16, int8:
 * in uint16_t, uint8_t, the coefficients truncated, the chains' values
 * summed in uint32_t). Chain `skip`
 * (8 lane + k; -1: none) runs one round short; one_lane gives every lane lane
 * 0's start, as a compiler computing one lane and copying it would.
 */
static double emulate(const char *prec, unsigned width, unsigned iters, uint64_t g, int skip,
                      bool one_lane)
{
    const bool half = !strcmp(prec, "fp16"), dbl = !strcmp(prec, "fp64");
    const bool i16 = !strcmp(prec, "int16"), i8 = !strcmp(prec, "int8");
    uint32_t usum = 0;
    double dsum = 0;
    float fsum = 0;

    for (unsigned l = 0; l < width; l++)
        for (unsigned k = 0; k < 8; k++) {
            const unsigned lane = one_lane ? 0 : l, n = iters - (skip == (int)(8 * l + k));
            const int u = (int)(k + 8 * lane + 128 * (g % 7));
            if (i16) {
                uint16_t x = (uint16_t)(k + 9u * lane + 7919u * (uint32_t)g);
                for (unsigned i = 0; i < n; i++)
                    x = (uint16_t)(x * (uint16_t)1664525u + (uint16_t)1013904223u);
                usum += x;
            } else if (i8) {
                uint8_t x = (uint8_t)(k + 9u * lane + 7919u * (uint32_t)g);
                for (unsigned i = 0; i < n; i++)
                    x = (uint8_t)(x * (uint8_t)1664525u + (uint8_t)1013904223u);
                usum += x;
            } else if (!strcmp(prec, "int32")) {
                uint32_t x = k + 1000u * lane + 7919u * (uint32_t)g;
                for (unsigned i = 0; i < n; i++)
                    x = x * 1664525u + 1013904223u;
                usum += x;
            } else if (dbl) {
                double x = (u - 1024) * 0x1p-10;
                for (unsigned i = 0; i < n; i++)
                    x = fma(x, 1.0, 0x1p-10);
                dsum += x;
            } else {
                float x = half ? half_round((u - 1024) * 0x1p-10) : (float)((u - 1024) * 0x1p-10);
                for (unsigned i = 0; i < n; i++) {
                    x = fmaf(x, 1.0f, 0x1p-10f);
                    if (half)
                        x = half_round(x);
                }
                fsum += x;
            }
        }
    return i16 || i8 || !strcmp(prec, "int32") ? usum : dbl ? dsum : fsum;
}

/* Stores v as output element i of a launch in prec. */
static void store(const struct clb_peak_expect *x, void *out, size_t i, double v)
{
    if (x->integer)
        ((uint32_t *)out)[i] = (uint32_t)v;
    else if (x->out_size == 8)
        ((double *)out)[i] = v;
    else
        ((float *)out)[i] = (float)v;
}

static void peak_expected_is_the_kernel(void **state)
{
    static const uint64_t items[] = { 0, 1, 6, 7, 13, 4194303 };
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++) {
            clb_peak_expect_init(&x, precs[p], widths[w], 1024);
            for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
                double want = emulate(precs[p], widths[w], 1024, items[i], -1, false);
                if (clb_peak_expected(&x, items[i]) != want)
                    fail_msg("%s x%u work-item %llu: %.17g, brute force %.17g", precs[p],
                             widths[w], (unsigned long long)items[i],
                             clb_peak_expected(&x, items[i]), want);
            }
        }
    /* Chains end at u 2^-10: work-item 0, one lane: (0 + ... + 7) 2^-10. */
    clb_peak_expect_init(&x, "fp16", 1, 1024);
    assert_true(clb_peak_expected(&x, 0) == 28 * 0x1p-10);
    assert_true(clb_peak_expected(&x, 8) == (28 + 8 * 128) * 0x1p-10);
}

static void peak_skipped_round_fails(void **state)
{
    enum { N = 64 };
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++) {
            clb_peak_expect_init(&x, precs[p], widths[w], 1024);
            for (size_t i = 0; i < N; i++)
                store(&x, buf, i, clb_peak_expected(&x, i));
            assert_true(clb_peak_verify(&x, buf, N, why, sizeof(why)));
            /* The last chain of the last lane of work-item 37 one round short. */
            store(&x, buf, 37, emulate(precs[p], widths[w], 1024, 37, 8 * (int)widths[w] - 1,
                                       false));
            assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
            assert_non_null(strstr(why, "work-item 37 "));
        }
}

/*
 * A loop that never ran (every chain still at its start) fails at the rounds
 * peak runs: 1024, and for int8 1000, since 1024 rounds are a multiple of its
 * chains' period, 256, and would bring them back to their starts.
 */
static void peak_dropped_loop_fails(void **state)
{
    enum { N = 64 };
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++) {
            const unsigned iters = !strcmp(precs[p], "int8") ? 1000 : 1024;
            clb_peak_expect_init(&x, precs[p], widths[w], iters);
            for (size_t i = 0; i < N; i++) {
                assert_true(clb_peak_expected(&x, i) ==
                            emulate(precs[p], widths[w], iters, i, -1, false));
                store(&x, buf, i, emulate(precs[p], widths[w], 0, i, -1, false));
            }
            assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
        }
    clb_peak_expect_init(&x, "int8", 16, 1024);
    for (size_t i = 0; i < N; i++)
        assert_true(clb_peak_expected(&x, i) == emulate("int8", 16, 0, i, -1, false));
}

static void peak_copied_results_fail(void **state)
{
    enum { N = 64 };
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++) {
            clb_peak_expect_init(&x, precs[p], widths[w], 1024);
            /* Work-item 0 computed once for its warp and broadcast. */
            for (size_t i = 0; i < N; i++)
                store(&x, buf, i, clb_peak_expected(&x, 0));
            assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
            assert_non_null(strstr(why, "work-item 1 "));
            /* Lane 0 computed once and copied to the other lanes. */
            for (size_t i = 0; i < N; i++)
                store(&x, buf, i, emulate(precs[p], widths[w], 1024, i, -1, widths[w] > 1));
            assert_true(clb_peak_verify(&x, buf, N, why, sizeof(why)) == (widths[w] == 1));
            /* Garbage. */
            for (size_t i = 0; i < N; i++)
                store(&x, buf, i, clb_peak_expected(&x, i));
            store(&x, buf, N - 1, x.integer ? clb_peak_expected(&x, N - 1) + 1 : NAN);
            assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
        }
}

/*
 * One work-item of the int8dot kernel by brute force: each chain's bytes
 * times (3, 5, 7, 11) added to it, in 64 bits (so a saturating or wrapping
 * step would show), chain `skip` (-1: none) one round short. *top gets the
 * largest value any chain reached.
 */
static uint32_t emulate_dot(unsigned iters, uint64_t g, int skip, uint64_t *top)
{
    static const uint64_t coef[4] = { 3, 5, 7, 11 };
    uint32_t sum = 0;

    for (unsigned k = 0; k < 8; k++) {
        uint64_t x = 0x01010101u * (1 + k + 8 * (g % 7));
        for (unsigned i = 0; i < iters - (skip == (int)k); i++) {
            uint64_t d = 0;
            for (unsigned b = 0; b < 4; b++)
                d += ((x >> (8 * b)) & 0xff) * coef[b];
            x += d;
        }
        if (x > *top)
            *top = x;
        sum += (uint32_t)x;
    }
    return sum;
}

static void peak_int8dot(void **state)
{
    static const uint64_t items[] = { 0, 1, 6, 7, 13, 4194303 };
    enum { N = 64 };
    uint32_t buf[N];
    char why[256];
    uint64_t top = 0;
    struct clb_peak_expect x;

    (void)state;
    clb_peak_expect_init(&x, "int8dot", 4, 1024);
    assert_true(x.integer && x.form == CLB_PEAK_BY_CLASS && x.out_size == 4);
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
        assert_true(clb_peak_expected(&x, items[i]) == emulate_dot(1024, items[i], -1, &top));
    /* Far from saturation: dot_acc_sat is then an exact multiply-add. */
    assert_true(top < (UINT64_C(1) << 30));
    for (size_t i = 0; i < N; i++)
        buf[i] = (uint32_t)clb_peak_expected(&x, i);
    assert_true(clb_peak_verify(&x, buf, N, why, sizeof(why)));
    /* Any chain one round short: the chains only grow, so the sum is short. */
    for (int k = 0; k < 8; k++) {
        buf[37] = emulate_dot(1024, 37, k, &top);
        assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
        assert_non_null(strstr(why, "work-item 37 "));
    }
    buf[37] = (uint32_t)clb_peak_expected(&x, 37);
    /* Work-item 0 computed once and broadcast. */
    for (size_t i = 0; i < N; i++)
        buf[i] = (uint32_t)clb_peak_expected(&x, 0);
    assert_false(clb_peak_verify(&x, buf, N, why, sizeof(why)));
    assert_non_null(strstr(why, "work-item 1 "));
    /* Every class differs from every other. */
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++)
            assert_true(x.by_class[a] != x.by_class[b]);
    /* Fewer rounds, a different answer. */
    struct clb_peak_expect y;
    clb_peak_expect_init(&y, "int8dot", 4, 1023);
    assert_true(y.by_class[3] != x.by_class[3]);
}

static void stream_recurrence(void **state)
{
    double a, b, c;

    (void)state;
    clb_stream_expected(1, false, &a, &b, &c);
    /* c = a = 0.1; b = 0.4 c = 0.04; c = a + b = 0.14; a = b + 0.4 c = 0.096 */
    assert_true(fabs(a - 0.096) < 1e-7 && fabs(b - 0.04) < 1e-7 && fabs(c - 0.14) < 1e-7);
    /* In double, the same to double's precision; float's rounding shows at 1e-9. */
    double da, db, dc;
    clb_stream_expected(1, true, &da, &db, &dc);
    assert_true(fabs(da - 0.096) < 1e-15 && fabs(db - 0.04) < 1e-15 && fabs(dc - 0.14) < 1e-15);
    assert_true(fabs(a - 0.096) > 1e-12);
}

/* Arrays of n elements (float or double) holding the values after `iters` rounds. */
static void *filled(bool fp64, size_t n, double v)
{
    void *x = malloc(n * (fp64 ? sizeof(double) : sizeof(float)));
    for (size_t i = 0; i < n; i++) {
        if (fp64)
            ((double *)x)[i] = v;
        else
            ((float *)x)[i] = (float)v;
    }
    return x;
}

static void stream_verify_catches_corruption(void **state)
{
    enum { N = 4096 };
    char why[256];

    (void)state;
    for (int p = 0; p < 2; p++) {
        const bool fp64 = p == 1;
        double wa, wb, wc;
        clb_stream_expected(11, fp64, &wa, &wb, &wc);
        void *a = filled(fp64, N, wa), *b = filled(fp64, N, wb), *c = filled(fp64, N, wc);
        struct clb_stream_outcome o = { .a = a, .b = b, .c = c, .n = N, .fp64 = fp64,
                                        .iters = 11, .read = wa * N, .has_chunked = true,
                                        .dot_chunked = wa * wb * N, .dot_global = 96,
                                        .dot_local = 32 };
        /* The device's dot as it adds: plain or fused, both accepted. */
        o.dot = clb_stream_dot_replay(&o, false);
        assert_true(clb_stream_verify(&o, why, sizeof(why)));
        o.dot = clb_stream_dot_replay(&o, true);
        assert_true(clb_stream_verify(&o, why, sizeof(why)));
        /* A fifth of the elements never read: far inside a k u bound of N/96 terms in
         * float, caught by the replay. */
        o.dot *= 0.8;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        o.dot = clb_stream_dot_replay(&o, false) * (1 + 1e-4);
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        o.dot = clb_stream_dot_replay(&o, false);
        assert_true(clb_stream_verify(&o, why, sizeof(why)));
        /* The wrong round count is caught. */
        o.iters = 10;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        o.iters = 11;
        /* One element of one array off by far less than a float ulp, in double. */
        if (fp64) {
            ((double *)c)[N - 1] *= 1 + 1e-9;
            assert_false(clb_stream_verify(&o, why, sizeof(why)));
            assert_non_null(strstr(why, "array c"));
            ((double *)c)[N - 1] = wc;
        } else {
            ((float *)c)[N - 1] *= 1.01f;
            assert_false(clb_stream_verify(&o, why, sizeof(why)));
            assert_non_null(strstr(why, "array c"));
            ((float *)c)[N - 1] = (float)wc;
        }
        /* Each sum: the dot products and the read pass. */
        const double dot = o.dot;
        o.dot *= 0.99;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        assert_non_null(strstr(why, "dot"));
        o.dot = dot;
        o.read *= 1.01;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        assert_non_null(strstr(why, "read sum"));
        o.read = wa * N;
        o.dot_chunked = 0;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        assert_non_null(strstr(why, "chunked dot"));
        o.has_chunked = false; /* not run: not checked */
        assert_true(clb_stream_verify(&o, why, sizeof(why)));
        if (fp64)
            ((double *)a)[7] = NAN;
        else
            ((float *)a)[7] = NAN;
        assert_false(clb_stream_verify(&o, why, sizeof(why)));
        free(a);
        free(b);
        free(c);
    }
}

/* The replay on one work-item is a plain sequential sum; over a grid, the tree's order. */
static void stream_dot_replay(void **state)
{
    (void)state;
    float *fa = filled(false, 1000, 0.1f), *fb = filled(false, 1000, 0.3f);
    struct clb_stream_outcome o = { .a = fa, .b = fb, .n = 1000, .dot_global = 1,
                                    .dot_local = 1 };
    float acc = 0;
    for (int i = 0; i < 1000; i++)
        acc += 0.1f * 0.3f;
    assert_true(clb_stream_dot_replay(&o, false) == acc);
    /* 1000 elements on 64 work-items in groups of 8: 1000 = 15 x 64 + 40, so 40 slots
     * add 16 products and 24 add 15; in double every partial is exact here. */
    double *da = filled(true, 1000, 0.5), *db = filled(true, 1000, 0.25);
    o = (struct clb_stream_outcome){ .a = da, .b = db, .n = 1000, .fp64 = true,
                                     .dot_global = 64, .dot_local = 8 };
    assert_true(clb_stream_dot_replay(&o, false) == 1000 * 0.125);
    /* Fewer elements than work-items: the rest add nothing. */
    o.n = 10;
    assert_true(clb_stream_dot_replay(&o, true) == 10 * 0.125);
    /* A work-group's tree rounds, the host's sum of the partials does not: 1 + 2^-53
     * is 1 in double. */
    const double tiny[4] = { 1, 0x1p-53, 0x1p-53, 1 }, ones[4] = { 1, 1, 1, 1 };
    o = (struct clb_stream_outcome){ .a = tiny, .b = ones, .n = 4, .fp64 = true,
                                     .dot_global = 4, .dot_local = 4 };
    assert_true(clb_stream_dot_replay(&o, false) == 2.0);
    o.dot_local = 1;
    assert_true(clb_stream_dot_replay(&o, false) == 2.0 + 0x1p-52);
    /* A grid that is not whole work-groups, or no arrays: no replay. */
    o.dot_local = 3;
    assert_true(isnan(clb_stream_dot_replay(&o, false)));
    o.dot_local = 1;
    o.b = NULL;
    assert_true(isnan(clb_stream_dot_replay(&o, false)));
    free(fa);
    free(fb);
    free(da);
    free(db);
}

/*
 * The sums are held against the arrays the device left, not the host's recurrence: an
 * element may sit many ulps from it (within the arrays' tolerance), and a long sum's
 * roundings then fall elsewhere. A dot replayed from the recurrence's value missed a
 * correct device by 255 ulps this way.
 */
static void stream_sums_follow_the_arrays(void **state)
{
    enum { N = 4096 };
    const double u = 0x1p-53;
    char why[256];
    double wa, wb, wc;

    (void)state;
    clb_stream_expected(200, true, &wa, &wb, &wc);
    double *a = filled(true, N, wa), *b = filled(true, N, wb), *c = filled(true, N, wc);
    struct clb_stream_outcome o = { .a = a, .b = b, .c = c, .n = N, .fp64 = true,
                                    .iters = 200, .dot_global = 32, .dot_local = 16 };
    const double from_recurrence = clb_stream_dot_replay(&o, true);
    double v[3];
    for (size_t j = 0; j < N; j++) {
        a[j] = v[j % 3] = wa * (1 + (double)(j % 3) * 64 * u);
        b[j] = wb * (1 - 32 * u);
    }
    o.dot = clb_stream_dot_replay(&o, true);
    /* 4096 = 1366 + 1365 + 1365: within 3 ulps of the sum of a (no long double: valgrind
     * computes it in double). */
    o.read = 1366 * v[0] + 1365 * v[1] + 1365 * v[2];
    assert_true(fabs(o.dot - from_recurrence) > 8 * u * o.dot);
    assert_true(clb_stream_verify(&o, why, sizeof(why)));
    /* The replay stays tight: 4 ulps around it are allowed, 16 are not. */
    o.dot *= 1 + 16 * u;
    assert_false(clb_stream_verify(&o, why, sizeof(why)));
    assert_non_null(strstr(why, "dot"));
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
        cmocka_unit_test(peak_expected_is_the_kernel),
        cmocka_unit_test(peak_skipped_round_fails),
        cmocka_unit_test(peak_dropped_loop_fails),
        cmocka_unit_test(peak_copied_results_fail),
        cmocka_unit_test(peak_int8dot),
        cmocka_unit_test(stream_recurrence),
        cmocka_unit_test(stream_verify_catches_corruption),
        cmocka_unit_test(stream_dot_replay),
        cmocka_unit_test(stream_sums_follow_the_arrays),
        cmocka_unit_test(row_summary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
