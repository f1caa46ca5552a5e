/*
 * The verifier must accept a correct GEMM result and reject a wrong one:
 * one perturbed entry, a NaN, an edge row left unwritten, in every
 * reference mode (full naive, full DGEMM, sampled).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <math.h>
#include <cmocka.h>

#include "clbench/stats.h"
#include "clbench/verify.h"

/* A correct C computed independently of the verifier: the precision's own GEMM. */
static void *correct_c(const struct clb_gemm_data *d)
{
    const struct clb_gemm_shape s = d->shape;
    size_t es = clb_precision_bytes(d->precision);
    void *c = malloc(s.m * s.n * es);

    assert_non_null(c);
    memcpy(c, d->c0, s.m * s.n * es);
    if (d->precision == CLB_FP64)
        cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)s.m, (blasint)s.n,
                    (blasint)s.k, d->alpha, d->a, (blasint)s.k, d->b, (blasint)s.n, d->beta, c,
                    (blasint)s.n);
    else
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)s.m, (blasint)s.n,
                    (blasint)s.k, (float)d->alpha, d->a, (blasint)s.k, d->b, (blasint)s.n,
                    (float)d->beta, c, (blasint)s.n);
    return c;
}

static void set(enum clb_precision p, void *c, size_t i, double v)
{
    if (p == CLB_FP64)
        ((double *)c)[i] = v;
    else
        ((float *)c)[i] = (float)v;
}

static void check_shape(enum clb_precision p, struct clb_gemm_shape s, double beta,
                        bool expect_full)
{
    struct clb_error e;
    struct clb_gemm_data *d = clb_gemm_data_create(s, p, 1.0, beta, 7, &e);
    assert_non_null(d);
    struct clb_gemm_reference *ref = clb_gemm_reference_create(d, 3, &e);
    assert_non_null(ref);
    void *c = correct_c(d);
    struct clb_verify_result v;
    const size_t last = s.m * s.n - 1;

    clb_gemm_verify(ref, c, &v);
    if (!v.passed)
        fail_msg("%s %llux%llux%llu: correct result rejected: max %g (tol %g) rel %g (tol %g)",
                 clb_precision_name(p), (unsigned long long)s.m, (unsigned long long)s.n,
                 (unsigned long long)s.k, v.max_abs_err, v.tol_abs, v.rel_err, v.tol_rel);
    assert_int_equal(v.full, expect_full);
    assert_true(v.checked > 0);

    /* One wrong entry, by a tiny amount relative to the result's size. */
    double orig = clb_gemm_load(p, c, last);
    set(p, c, last, orig + 1e-2);
    clb_gemm_verify(ref, c, &v);
    assert_false(v.passed);
    assert_true(v.max_abs_err > v.tol_abs);

    set(p, c, last, NAN);
    clb_gemm_verify(ref, c, &v);
    assert_false(v.passed);

    /* The last row never written (as by a kernel that skips edge tiles). */
    set(p, c, last, orig);
    for (uint64_t j = 0; j < s.n; j++)
        set(p, c, (s.m - 1) * s.n + j, 0.0);
    clb_gemm_verify(ref, c, &v);
    assert_false(v.passed);

    free(c);
    clb_gemm_reference_destroy(ref);
    clb_gemm_data_destroy(d);
}

static void small_shapes_full_reference(void **state)
{
    static const struct clb_gemm_shape shapes[] = { { 1, 1, 1 }, { 17, 33, 9 }, { 64, 1, 300 },
                                                    { 5, 7, 1000 } };
    (void)state;
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
        check_shape(CLB_FP32, shapes[i], 0.0, true);
        check_shape(CLB_FP64, shapes[i], 0.5, true);
    }
}

static void large_fp32_dgemm_reference(void **state)
{
    (void)state;
    check_shape(CLB_FP32, (struct clb_gemm_shape){ 520, 515, 600 }, 1.0, true);
}

static void large_fp64_sampled_reference(void **state)
{
    (void)state;
    check_shape(CLB_FP64, (struct clb_gemm_shape){ 520, 515, 600 }, 0.0, false);
}

static void data_is_random_nonzero_and_seeded(void **state)
{
    struct clb_error e;
    struct clb_gemm_shape s = { 40, 30, 20 };
    struct clb_gemm_data *a = clb_gemm_data_create(s, CLB_FP32, 1, 0, 1, &e);
    struct clb_gemm_data *b = clb_gemm_data_create(s, CLB_FP32, 1, 0, 1, &e);
    struct clb_gemm_data *c = clb_gemm_data_create(s, CLB_FP32, 1, 0, 2, &e);
    double lo = 1, hi = -1;

    (void)state;
    assert_memory_equal(a->a, b->a, s.m * s.k * 4);
    assert_memory_not_equal(a->a, c->a, s.m * s.k * 4);
    for (size_t i = 0; i < s.m * s.k; i++) {
        double v = clb_gemm_load(CLB_FP32, a->a, i);
        assert_true(v != 0.0 && v >= -1.0 && v <= 1.0);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    assert_true(lo < -0.9 && hi > 0.9);
    clb_gemm_data_destroy(a);
    clb_gemm_data_destroy(b);
    clb_gemm_data_destroy(c);
}

static void stats_median_and_spread(void **state)
{
    const double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 }, same[] = { 5, 5, 5 };
    struct clb_stats s;

    (void)state;
    clb_stats_compute(odd, 3, &s);
    assert_true(s.median == 2 && s.min == 1 && s.max == 3 && s.mean == 2);
    assert_true(fabs(s.cv - 0.5) < 1e-12); /* stddev 1 / mean 2 */
    clb_stats_compute(even, 4, &s);
    assert_true(s.median == 2.5);
    clb_stats_compute(same, 3, &s);
    assert_true(s.cv == 0.0);
    clb_stats_compute(odd, 0, &s);
    assert_int_equal(s.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(small_shapes_full_reference),
        cmocka_unit_test(large_fp32_dgemm_reference),
        cmocka_unit_test(large_fp64_sampled_reference),
        cmocka_unit_test(data_is_random_nonzero_and_seeded),
        cmocka_unit_test(stats_median_and_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
