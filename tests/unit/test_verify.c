/*
 * The verifier must pass every correct GEMM result, whatever its summation
 * order, and fail every wrong one: one entry, a NaN, an edge row, a zeroed
 * tile, a dropped k-term (fp16 at K = 1024 too), a lower precision; through
 * every reference source (naive, DGEMM, Freivalds).
 *
 * Correct results come from OpenBLAS and from emulated implementations in
 * the problem's own precision (sequential, and in blocks of 64 k-terms):
 * each multiply-add rounded to the precision as a device would round it.
 *
 * The reference's arithmetic is long double (x87) or compensated double, as verify_arith.h
 * chooses for the build (CLB_VERIFY_COMPENSATED_DOUBLE); on x86-64 this file is built a
 * second time (test_verify_dd) with verify*.c and the compensated double path forced, so
 * every test runs on both.
 */
#include <float.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CL/cl_half.h>
#include <cblas.h>
#include <math.h>
#include <cmocka.h>

#include "clbench/bench/stats.h"
#include "clbench/bench/verify.h"
#include "clbench/util/csum.h"
#include "clbench/util/rng.h"

/* The path under test, chosen as verify_arith.h chooses it. */
#ifndef CLB_VERIFY_COMPENSATED_DOUBLE
#define CLB_VERIFY_COMPENSATED_DOUBLE (LDBL_MANT_DIG != 64)
#endif

static const enum clb_verify_source sources[] = { CLB_VERIFY_SOURCE_NAIVE,
                                                  CLB_VERIFY_SOURCE_DGEMM,
                                                  CLB_VERIFY_SOURCE_FREIVALDS };
static const char *const source_names[] = { "naive", "dgemm", "freivalds" };

/* Emulated devices flush subnormal results to zero when this is set (OpenCL allows it). */
static bool flush_to_zero;

static double round_to(enum clb_precision p, double v)
{
    if (flush_to_zero && p == CLB_FP16 && fabs(v) < 0x1p-14)
        return 0.0;
    if (flush_to_zero && p == CLB_FP32 && fabs(v) < 0x1p-126)
        return 0.0;
    switch (p) {
    case CLB_FP64:
        return v;
    case CLB_FP16:
        return clb_half_to_double(cl_half_from_double(v, CL_HALF_RTE));
    default:
        return (float)v;
    }
}

/* a*b + s rounded once to the precision (half products and sums are exact in double). */
static double fma_in(enum clb_precision p, double a, double b, double s)
{
    switch (p) {
    case CLB_FP64:
        return fma(a, b, s);
    case CLB_FP32:
        return fmaf((float)a, (float)b, (float)s);
    default:
        return round_to(p, a * b + s);
    }
}

static void set(enum clb_precision p, void *c, size_t i, double v)
{
    switch (p) {
    case CLB_FP64:
        ((double *)c)[i] = v;
        break;
    case CLB_FP16:
        ((cl_half *)c)[i] = cl_half_from_double(v, CL_HALF_RTE);
        break;
    default:
        ((float *)c)[i] = (float)v;
        break;
    }
}

enum impl { OPENBLAS, SEQUENTIAL, BLOCKED };
static const char *const impl_names[] = { "openblas", "sequential", "blocked" };

/*
 * C in the problem's precision, k-terms in [drop_from, drop_to) left out.
 * BLOCKED sums 64 k-terms at a time from zero and adds each block to C.
 */
static void *compute(const struct clb_gemm_data *d, enum impl how, uint64_t drop_from,
                     uint64_t drop_to)
{
    const struct clb_gemm_shape s = d->shape;
    const enum clb_precision p = d->precision;
    void *c = malloc(s.m * s.n * clb_precision_bytes(p));

    assert_non_null(c);
    if (how == OPENBLAS) {
        assert_true(p != CLB_FP16 && drop_from >= drop_to);
        memcpy(c, d->c0, s.m * s.n * clb_precision_bytes(p));
        if (p == CLB_FP64)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)s.m, (blasint)s.n,
                        (blasint)s.k, d->alpha, d->a, (blasint)s.k, d->b, (blasint)s.n,
                        d->beta, c, (blasint)s.n);
        else
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (blasint)s.m, (blasint)s.n,
                        (blasint)s.k, (float)d->alpha, d->a, (blasint)s.k, d->b, (blasint)s.n,
                        (float)d->beta, c, (blasint)s.n);
        return c;
    }
    for (uint64_t i = 0; i < s.m; i++) {
        for (uint64_t j = 0; j < s.n; j++) {
            double acc = 0, block = 0;
            for (uint64_t q = 0; q < s.k; q++) {
                if (q >= drop_from && q < drop_to)
                    continue;
                const double a = clb_gemm_load(p, d->a, i * s.k + q);
                const double b = clb_gemm_load(p, d->b, q * s.n + j);
                if (how == SEQUENTIAL) {
                    acc = fma_in(p, a, b, acc);
                } else {
                    block = fma_in(p, a, b, block);
                    if (q % 64 == 63 || q == s.k - 1) {
                        acc = round_to(p, acc + block);
                        block = 0;
                    }
                }
            }
            const double c0 = clb_gemm_load(p, d->c0, i * s.n + j);
            set(p, c, i * s.n + j,
                round_to(p, round_to(p, d->alpha * acc) + round_to(p, d->beta * c0)));
        }
    }
    return c;
}

static void *copy_of(const struct clb_gemm_data *d, const void *c)
{
    const size_t bytes = d->shape.m * d->shape.n * clb_precision_bytes(d->precision);
    void *x = malloc(bytes);
    assert_non_null(x);
    memcpy(x, c, bytes);
    return x;
}

static double worst_seen;

static void expect(const struct clb_gemm_reference *ref, const void *c, bool pass,
                   const char *what)
{
    struct clb_verify_result v;

    clb_gemm_verify(ref, c, &v);
    if (v.passed != pass)
        fail_msg("%s: expected %s, got worst ratio %.3g (%s), noise %.3g, rel %.3g", what,
                 pass ? "a pass" : "a failure", v.worst_ratio, v.failed, v.noise_ratio,
                 v.rel_err);
    if (pass && v.worst_ratio > worst_seen)
        worst_seen = v.worst_ratio;
}

static struct clb_gemm_data *data(enum clb_precision p, uint64_t m, uint64_t n, uint64_t k,
                                  double alpha, double beta, uint64_t seed)
{
    struct clb_error e;
    struct clb_gemm_data *d =
        clb_gemm_data_create((struct clb_gemm_shape){ m, n, k }, p, alpha, beta, seed, &e);
    assert_non_null(d);
    return d;
}

static struct clb_gemm_reference *reference(const struct clb_gemm_data *d,
                                            enum clb_verify_source src)
{
    struct clb_error e;
    struct clb_gemm_reference *ref = clb_gemm_reference_create_from(d, 5, src, &e);
    assert_non_null(ref);
    return ref;
}

/* Every correct implementation passes every source, with a margin. */
static void correct_results_pass(void **state)
{
    static const struct clb_gemm_shape shapes[] = {
        { 1, 1, 1 }, { 17, 33, 9 }, { 64, 1, 300 }, { 5, 7, 1000 }, { 40, 48, 257 }, { 33, 65, 129 },
    };
    static const double ab[][2] = { { 1, 0 }, { 0.5, -1.5 } };
    char what[160];

    (void)state;
    worst_seen = 0;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); si++) {
            for (size_t a = 0; a < 2; a++) {
                const struct clb_gemm_shape s = shapes[si];
                struct clb_gemm_data *d = data(p, s.m, s.n, s.k, ab[a][0], ab[a][1], 11 + si);
                for (int how = p == CLB_FP16 ? SEQUENTIAL : OPENBLAS; how <= BLOCKED; how++) {
                    void *c = compute(d, how, 0, 0);
                    for (size_t r = 0; r < 3; r++) {
                        struct clb_gemm_reference *ref = reference(d, sources[r]);
                        snprintf(what, sizeof(what), "%s %llux%llux%llu alpha %g beta %g %s, %s",
                                 clb_precision_name(p), (unsigned long long)s.m,
                                 (unsigned long long)s.n, (unsigned long long)s.k, ab[a][0],
                                 ab[a][1], impl_names[how], source_names[r]);
                        expect(ref, c, true, what);
                        clb_gemm_reference_destroy(ref);
                    }
                    free(c);
                }
                clb_gemm_data_destroy(d);
            }
        }
    }
    print_message("largest worst ratio of a correct result: %.3f\n", worst_seen);
    assert_true(worst_seen < 0.7);
}

/*
 * The noise model is an upper estimate, but not a loose one: a correct
 * sequential result's error is 0.2 to 1 times the modelled noise, so a
 * systematic error of a few times the noise cannot hide.
 */
static void noise_model_is_tight(void **state)
{
    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        struct clb_gemm_data *d = data(p, 48, 40, 1024, 1, 0, 3);
        void *c = compute(d, SEQUENTIAL, 0, 0);
        for (size_t r = 0; r < 3; r++) {
            struct clb_gemm_reference *ref = reference(d, sources[r]);
            struct clb_verify_result v;
            clb_gemm_verify(ref, c, &v);
            print_message("%s %s: noise ratio %.3f, worst ratio %.3f\n", clb_precision_name(p),
                          source_names[r], v.noise_ratio, v.worst_ratio);
            assert_true(v.passed);
            assert_true(v.noise_ratio > 0.2 && v.noise_ratio < 1.0);
            clb_gemm_reference_destroy(ref);
        }
        free(c);
        clb_gemm_data_destroy(d);
    }
}

/* One k-term left out: fp16 at K = 1024 must show it, like fp32 and fp64. */
static void dropped_k_term_fails(void **state)
{
    char what[128];

    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        struct clb_gemm_data *d = data(p, 64, 64, 1024, 1, 0, 21);
        const uint64_t drops[] = { 1023, 517, 0 };
        for (size_t t = 0; t < 3; t++) {
            void *c = compute(d, SEQUENTIAL, drops[t], drops[t] + 1);
            for (size_t r = 0; r < 3; r++) {
                struct clb_gemm_reference *ref = reference(d, sources[r]);
                snprintf(what, sizeof(what), "%s k-term %llu dropped, %s", clb_precision_name(p),
                         (unsigned long long)drops[t], source_names[r]);
                expect(ref, c, false, what);
                clb_gemm_reference_destroy(ref);
            }
            free(c);
        }
        clb_gemm_data_destroy(d);
    }
}

/* What the old fp16 bound (K/512) let through: the last 16 of 4096 k-terms dropped. */
static void fp16_last_16_of_4096_fails(void **state)
{
    struct clb_gemm_data *d = data(CLB_FP16, 32, 32, 4096, 1, 0, 8);
    void *good = compute(d, SEQUENTIAL, 0, 0), *bad = compute(d, SEQUENTIAL, 4080, 4096);

    (void)state;
    for (size_t r = 0; r < 3; r++) {
        struct clb_gemm_reference *ref = reference(d, sources[r]);
        expect(ref, good, true, source_names[r]);
        expect(ref, bad, false, source_names[r]);
        clb_gemm_reference_destroy(ref);
    }
    free(good);
    free(bad);
    clb_gemm_data_destroy(d);
}

static void zero_block(const struct clb_gemm_data *d, void *c, uint64_t i0, uint64_t j0,
                       uint64_t size)
{
    for (uint64_t i = i0; i < i0 + size && i < d->shape.m; i++)
        for (uint64_t j = j0; j < j0 + size && j < d->shape.n; j++)
            set(d->precision, c, i * d->shape.n + j, 0.0);
}

/* Wrong entries of every kind, in every precision and source. */
static void wrong_entries_fail(void **state)
{
    char what[160];

    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        struct clb_gemm_data *d = data(p, 70, 90, 300, 1, 0.5, 4);
        const struct clb_gemm_shape s = d->shape;
        void *good = compute(d, p == CLB_FP16 ? SEQUENTIAL : OPENBLAS, 0, 0);
        const double last = clb_gemm_load(p, good, s.m * s.n - 1);
        const double eps = p == CLB_FP64 ? 1e-9 : p == CLB_FP32 ? 1e-3 : 0.5;
        for (size_t r = 0; r < 3; r++) {
            struct clb_gemm_reference *ref = reference(d, sources[r]);
            void *c = copy_of(d, good);
            const char *src = source_names[r];
            snprintf(what, sizeof(what), "%s %s", clb_precision_name(p), src);

            expect(ref, c, true, what);
            set(p, c, s.m * s.n - 1, last + eps * fmax(1, fabs(last)));
            expect(ref, c, false, "one entry off");
            set(p, c, s.m * s.n - 1, NAN);
            expect(ref, c, false, "NaN");
            set(p, c, s.m * s.n - 1, INFINITY);
            expect(ref, c, false, "Inf");
            memcpy(c, good, s.m * s.n * clb_precision_bytes(p));
            zero_block(d, c, s.m - 1, 0, s.n); /* the last row never written */
            expect(ref, c, false, "last row zero");
            memcpy(c, good, s.m * s.n * clb_precision_bytes(p));
            for (uint64_t i = 0; i < s.m; i++)
                set(p, c, i * s.n + s.n - 1, 0.0);
            expect(ref, c, false, "last column zero");
            memcpy(c, good, s.m * s.n * clb_precision_bytes(p));
            zero_block(d, c, 37, 51, 16);
            expect(ref, c, false, "zeroed 16x16 tile");
            memcpy(c, good, s.m * s.n * clb_precision_bytes(p));
            /* An 8x8 tile taken from the neighbouring tile, as a wrong index would. */
            for (uint64_t i = 8; i < 16; i++)
                for (uint64_t j = 8; j < 16; j++)
                    set(p, c, i * s.n + j, clb_gemm_load(p, good, i * s.n + j + 8));
            expect(ref, c, false, "8x8 tile from the wrong place");
            free(c);
            clb_gemm_reference_destroy(ref);
        }
        free(good);
        clb_gemm_data_destroy(d);
    }
}

/* A result computed in a lower precision than asked for. */
static void lower_precision_fails(void **state)
{
    struct clb_gemm_data *d64 = data(CLB_FP64, 60, 50, 400, 1, 0, 9);
    struct clb_gemm_data *d32 = data(CLB_FP32, 60, 50, 400, 1, 0, 9);
    const size_t mn = 60 * 50;
    double *c = malloc(mn * sizeof(*c));

    (void)state;
    assert_non_null(c);
    /* fp64 problem, fp32 arithmetic: sgemm on the rounded inputs, widened back. */
    float *a = malloc(60 * 400 * sizeof(*a)), *b = malloc(400 * 50 * sizeof(*b));
    float *cf = calloc(mn, sizeof(*cf));
    assert_true(a && b && cf);
    for (size_t i = 0; i < 60 * 400; i++)
        a[i] = (float)((double *)d64->a)[i];
    for (size_t i = 0; i < 400 * 50; i++)
        b[i] = (float)((double *)d64->b)[i];
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 60, 50, 400, 1, a, 400, b, 50, 0,
                cf, 50);
    for (size_t i = 0; i < mn; i++)
        c[i] = cf[i];
    for (size_t r = 0; r < 3; r++) {
        struct clb_gemm_reference *ref = reference(d64, sources[r]);
        expect(ref, c, false, "fp64 computed in fp32");
        clb_gemm_reference_destroy(ref);
    }
    /* fp32 problem, fp16 accumulation. */
    struct clb_gemm_data half = *d32;
    half.precision = CLB_FP16;
    for (size_t i = 0; i < mn; i++) {
        double acc = 0;
        for (size_t q = 0; q < 400; q++)
            acc = round_to(CLB_FP16, ((float *)d32->a)[i / 50 * 400 + q] *
                                             (double)((float *)d32->b)[q * 50 + i % 50] +
                                         acc);
        cf[i] = (float)acc;
    }
    (void)half;
    for (size_t r = 0; r < 3; r++) {
        struct clb_gemm_reference *ref = reference(d32, sources[r]);
        expect(ref, cf, false, "fp32 accumulated in fp16");
        clb_gemm_reference_destroy(ref);
    }
    free(a);
    free(b);
    free(cf);
    free(c);
    clb_gemm_data_destroy(d64);
    clb_gemm_data_destroy(d32);
}

/* alpha A B + beta C0 close to zero: rounding is relative to the terms, not to C. */
static void cancellation_passes(void **state)
{
    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        struct clb_gemm_data *d = data(p, 30, 40, 200, 1, -1, 12);
        d->beta = 0;
        void *ab = compute(d, SEQUENTIAL, 0, 0);
        memcpy(d->c0, ab, 30 * 40 * clb_precision_bytes(p));
        d->beta = -1;
        void *c = compute(d, SEQUENTIAL, 0, 0);
        for (size_t r = 0; r < 3; r++) {
            struct clb_gemm_reference *ref = reference(d, sources[r]);
            expect(ref, c, true, "cancellation");
            clb_gemm_reference_destroy(ref);
        }
        free(ab);
        free(c);
        clb_gemm_data_destroy(d);
    }
}

/*
 * Near zero the rounding is absolute, not relative: fp16 products of small
 * inputs are subnormal (or flushed to zero). K = 1 puts every entry there
 * for some; a small alpha for all. The best possible result must pass.
 */
static void underflow_passes(void **state)
{
    static const double alphas[] = { 1, 0.01 };
    char what[128];

    (void)state;
    for (int ftz = 0; ftz < 2; ftz++) {
        flush_to_zero = ftz;
        for (size_t a = 0; a < 2; a++) {
            for (uint64_t k = 1; k <= 4; k *= 4) {
                struct clb_gemm_data *d = data(CLB_FP16, 256, 256, k, alphas[a], 0, 30 + k);
                void *c = compute(d, SEQUENTIAL, 0, 0);
                for (size_t r = 0; r < 3; r++) {
                    struct clb_gemm_reference *ref = reference(d, sources[r]);
                    snprintf(what, sizeof(what), "fp16 256x256x%llu alpha %g%s, %s",
                             (unsigned long long)k, alphas[a], ftz ? " flushed" : "",
                             source_names[r]);
                    expect(ref, c, true, what);
                    clb_gemm_reference_destroy(ref);
                }
                free(c);
                clb_gemm_data_destroy(d);
            }
        }
    }
    flush_to_zero = false;
}

/* alpha = 0: C = beta C0 exactly rounded; and both zero: exactly zero. */
static void zero_scalars(void **state)
{
    static const double ab[][2] = { { 0, 0 }, { 0, 0.75 }, { 0, -3 } };

    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        for (size_t i = 0; i < 3; i++) {
            struct clb_gemm_data *d = data(p, 40, 50, 300, ab[i][0], ab[i][1], 40);
            void *c = compute(d, SEQUENTIAL, 0, 0);
            for (size_t r = 0; r < 3; r++) {
                struct clb_gemm_reference *ref = reference(d, sources[r]);
                expect(ref, c, true, "alpha 0");
                /* One entry off by 100 units of roundoff (plus a little, for tiny ones):
                 * a single entry must stand out from 30 times its own noise. */
                void *bad = copy_of(d, c);
                const double v = clb_gemm_load(p, bad, 77);
                set(p, bad, 77, v * (1 + 100 * clb_precision_unit_roundoff(p)) +
                                    copysign(1e-3, v));
                expect(ref, bad, false, "alpha 0, one entry off");
                free(bad);
                clb_gemm_reference_destroy(ref);
            }
            free(c);
            clb_gemm_data_destroy(d);
        }
    }
}

/* At a size where it is chosen by itself, Freivalds' check sees one 8x8 tile. */
static void freivalds_at_its_own_size(void **state)
{
    struct clb_gemm_data *d = data(CLB_FP64, 256, 256, 2100, 1, 0, 13);
    struct clb_error e;
    struct clb_gemm_reference *ref = clb_gemm_reference_create(d, 1, &e);
    void *good = compute(d, OPENBLAS, 0, 0), *c = copy_of(d, good);
    struct clb_verify_result v;

    (void)state;
    assert_non_null(ref);
    clb_gemm_verify(ref, good, &v);
    assert_true(v.passed);
    assert_int_equal(v.method, CLB_VERIFY_FREIVALDS);
    assert_int_equal(v.checked, 256 * 256);
    for (uint64_t i = 100; i < 108; i++)
        for (uint64_t j = 200; j < 208; j++)
            ((double *)c)[i * 256 + j] *= 1 + 1e-9;
    expect(ref, c, false, "8x8 tile off by 1e-9");
    free(c);
    free(good);
    clb_gemm_reference_destroy(ref);
    clb_gemm_data_destroy(d);
}

/* Every half, against the header's conversion (its positive path has no undefined shift). */
static void half_to_double_is_exact(void **state)
{
    (void)state;
    for (uint32_t bits = 0; bits < 0x8000; bits++) {
        const double pos = clb_half_to_double((uint16_t)bits);
        const double neg = clb_half_to_double((uint16_t)(bits | 0x8000));
        const float want = cl_half_to_float((cl_half)bits);
        if (isnan(want)) {
            assert_true(isnan(pos) && isnan(neg));
            continue;
        }
        assert_true(pos == (double)want && neg == -(double)want);
        assert_true(signbit(neg));
    }
}

static void method_by_size(void **state)
{
    (void)state;
#define METHOD(m, n, k, p) clb_gemm_verify_method((struct clb_gemm_shape){ m, n, k }, p)
    assert_int_equal(METHOD(512, 512, 512, CLB_FP64), CLB_VERIFY_FULL);
    assert_int_equal(METHOD(513, 512, 512, CLB_FP64), CLB_VERIFY_FREIVALDS);
    assert_int_equal(METHOD(4096, 4096, 4096, CLB_FP32), CLB_VERIFY_FULL);
    assert_int_equal(METHOD(4096, 4096, 4096, CLB_FP16), CLB_VERIFY_FULL);
    assert_int_equal(METHOD(4097, 4096, 4096, CLB_FP32), CLB_VERIFY_FREIVALDS);
    assert_int_equal(METHOD(16, 100000, 100000, CLB_FP64), CLB_VERIFY_FREIVALDS); /* skinny too */
#undef METHOD
    assert_true(clb_gemm_reference_bytes((struct clb_gemm_shape){ 16384, 16384, 16384 },
                                         CLB_FP64, NULL) < (UINT64_C(1) << 26));
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

/* C's buffer in d's mode holding the dense row-major result `dense`, the rest as C0 had it. */
static void *scatter(const struct clb_gemm_data *d, const void *dense)
{
    const size_t es = clb_precision_bytes(d->precision);
    char *c = malloc(d->lc.elems * es);

    assert_non_null(c);
    memcpy(c, d->c0, d->lc.elems * es);
    for (uint64_t i = 0; i < d->shape.m; i++)
        for (uint64_t j = 0; j < d->shape.n; j++)
            memcpy(c + clb_gemm_at(&d->lc, i, j) * es,
                   (const char *)dense + (i * d->shape.n + j) * es, es);
    return c;
}

static void expect_failed(const struct clb_gemm_reference *ref, const void *c, const char *check,
                          const char *what)
{
    struct clb_verify_result v;

    clb_gemm_verify(ref, c, &v);
    if (v.passed || !strstr(v.failed, check))
        fail_msg("%s: expected a failure of '%s', got %s (%s)", what, check,
                 v.passed ? "a pass" : "a failure", v.failed);
}

/*
 * Every mode (transposes, column-major, padded leading dimensions, offsets),
 * in every precision and source: the inputs are the default mode's values
 * where the mode puts them, the rest CLB_GEMM_PAD_VALUE; a correct result
 * passes; one that changed an element of C's padding or offset, or that was
 * written with C's leading dimension or offset ignored, or transposed, fails.
 */
static void modes_read_through_layouts(void **state)
{
    const struct clb_gemm_shape s = { 37, 29, 41 };
    char what[160];

    (void)state;
    for (int p = 0; p < CLB_GEMM_PRECISIONS; p++) {
        struct clb_gemm_data *dense = data(p, s.m, s.n, s.k, 0.75, -0.5, 9);
        void *good = compute(dense, SEQUENTIAL, 0, 0);
        for (unsigned mi = 0; mi < 16; mi++) {
            const struct clb_gemm_mode mode = { .trans_a = mi & 1, .trans_b = mi & 2,
                                                .col_major = mi & 4, .ld_pad = mi & 8 ? 3 : 0,
                                                .offset = mi & 8 ? 16 : 5 };
            const size_t es = clb_precision_bytes((enum clb_precision)p);
            struct clb_error e;
            struct clb_gemm_data *d = clb_gemm_data_create_mode(s, p, 0.75, -0.5, &mode, 9, &e);
            char label[64];
            assert_non_null(d);
            clb_gemm_mode_label(&mode, label, sizeof(label));
            /* The same values, placed by the layouts; everything else the pad value. */
            for (uint64_t i = 0; i < s.m; i++)
                for (uint64_t q = 0; q < s.k; q++)
                    assert_memory_equal((char *)d->a + clb_gemm_at(&d->la, i, q) * es,
                                        (char *)dense->a + (i * s.k + q) * es, es);
            for (uint64_t q = 0; q < s.k; q++)
                for (uint64_t j = 0; j < s.n; j++)
                    assert_memory_equal((char *)d->b + clb_gemm_at(&d->lb, q, j) * es,
                                        (char *)dense->b + (q * s.n + j) * es, es);
            assert_true(clb_gemm_load(p, d->a, 0) == CLB_GEMM_PAD_VALUE);
            assert_true(clb_gemm_load(p, d->c0, d->lc.elems - 1) ==
                        (mode.ld_pad ? CLB_GEMM_PAD_VALUE
                                     : clb_gemm_load(p, dense->c0, s.m * s.n - 1)));
            void *c = scatter(d, good);
            for (size_t r = 0; r < 3; r++) {
                struct clb_gemm_reference *ref = reference(d, sources[r]);
                snprintf(what, sizeof(what), "%s %s, %s", clb_precision_name(p), label,
                         source_names[r]);
                expect(ref, c, true, what);
                /* The offset's first element, then the padding after the last line. */
                char *bad = malloc(d->lc.elems * es);
                assert_non_null(bad);
                memcpy(bad, c, d->lc.elems * es);
                clb_gemm_store(p, bad, 0, 0.0);
                expect_failed(ref, bad, "C's offset changed: element 0 of its buffer", what);
                if (mode.ld_pad) {
                    memcpy(bad, c, d->lc.elems * es);
                    clb_gemm_store(p, bad, d->lc.elems - 1, 1.0);
                    char check[96];
                    snprintf(check, sizeof(check), "C's padding changed: element %llu of its "
                             "buffer, after %s %llu", (unsigned long long)d->lc.elems - 1,
                             mode.col_major ? "column" : "row",
                             (unsigned long long)d->lc.lines - 1);
                    expect_failed(ref, bad, check, what);
                }
                /* Written as the default mode would write it: dense, from element 0. */
                memcpy(bad, d->c0, d->lc.elems * es);
                memcpy(bad, good, s.m * s.n * es);
                expect(ref, bad, false, what);
                /* Written with the minimum leading dimension, from the offset. */
                if (mode.ld_pad) {
                    memcpy(bad, d->c0, d->lc.elems * es);
                    for (uint64_t i = 0; i < s.m; i++)
                        for (uint64_t j = 0; j < s.n; j++)
                            memcpy(bad + (d->lc.offset + (mode.col_major ? j * s.m + i
                                                                         : i * s.n + j)) * es,
                                   (const char *)good + (i * s.n + j) * es, es);
                    expect(ref, bad, false, what);
                }
                free(bad);
                clb_gemm_reference_destroy(ref);
            }
            free(c);
            clb_gemm_data_destroy(d);
        }
        free(good);
        clb_gemm_data_destroy(dense);
    }
}

/* The layouts BLAS and CLBlast take: leading dimensions, strides, buffer sizes, labels. */
static void mode_layouts(void **state)
{
    const struct clb_gemm_shape s = { 5, 7, 3 };
    const struct clb_gemm_mode tn_col = { .trans_a = true, .col_major = true, .ld_pad = 2,
                                          .offset = 4 };
    struct clb_gemm_matrix_layout a, b, c;
    char label[64], why[128];

    (void)state;
    /* A stored 3 x 5 (k x m), column-major: 5 columns of 3 + 2. op(A)(i, q) = A(q, i). */
    clb_gemm_layout(&tn_col, s, CLB_GEMM_A, &a);
    assert_true(a.ld == 5 && a.lines == 5 && a.line_len == 3 && a.elems == 4 + 25);
    assert_true(a.row_stride == 5 && a.col_stride == 1 && clb_gemm_at(&a, 1, 2) == 4 + 5 + 2);
    /* B 3 x 7, column-major: ld 3 + 2, op(B)(q, j) at q + j * ld. */
    clb_gemm_layout(&tn_col, s, CLB_GEMM_B, &b);
    assert_true(b.ld == 5 && b.lines == 7 && b.row_stride == 1 && b.col_stride == 5);
    clb_gemm_layout(&tn_col, s, CLB_GEMM_C, &c);
    assert_true(c.ld == 7 && c.lines == 7 && c.elems == 4 + 49);
    clb_gemm_mode_label(&tn_col, label, sizeof(label));
    assert_string_equal(label, "TN col ld+2 off4");
    assert_string_equal(clb_gemm_mode_trans(&tn_col), "TN");
    assert_string_equal(clb_gemm_mode_layout(&tn_col), "col");
    /* The default: row-major, dense, as before modes. */
    clb_gemm_layout(NULL, s, CLB_GEMM_A, &a);
    assert_true(a.ld == 3 && a.row_stride == 3 && a.col_stride == 1 && a.elems == 15);
    clb_gemm_mode_label(NULL, label, sizeof(label));
    assert_string_equal(label, "");
    assert_true(clb_gemm_mode_is_default(&(struct clb_gemm_mode){ 0 }));
    assert_false(clb_gemm_mode_is_default(&(struct clb_gemm_mode){ .offset = 1 }));
    /* Sizes past BLAS's 32-bit leading dimensions or the element limit are refused. */
    const struct clb_gemm_mode padded = { .ld_pad = 1000000 };
    assert_true(clb_gemm_layout_sane(&padded, s, UINT64_C(1) << 50, why, sizeof(why)));
    assert_false(clb_gemm_layout_sane(&padded, (struct clb_gemm_shape){ 1, 2147483647, 1 },
                                      UINT64_C(1) << 50, why, sizeof(why)));
    assert_non_null(strstr(why, "leading dimension of B"));
    assert_false(clb_gemm_layout_sane(&padded, (struct clb_gemm_shape){ 1 << 20, 8, 1 << 20 },
                                      UINT64_C(1) << 40, why, sizeof(why)));
    assert_non_null(strstr(why, "buffer of A"));
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

/* Exact integers far beyond double's 53 bits (GCC and clang have them on 64-bit targets). */
__extension__ typedef __int128 i128;

/* A random integer in (-2^bits, 2^bits), exact as a double for bits <= 53. */
static double random_int(uint64_t *seed, unsigned bits)
{
    const uint64_t r = clb_rng_next(seed);
    const double v = (double)(r >> (64 - bits));
    return r & 1 ? -v : v;
}

/*
 * Compensated double keeps every bit it must: a sum of 4096 products of 31-bit integers
 * (62-bit products, inexact in double, a 74-bit sum) is within the bound of the exact sum,
 * and that bound is below 1, so the pair hi + lo is the exact sum, cancellation or not; a
 * sum of products with a wide factor (from those sums) and one of subnormal products are
 * within the bound. Each is compared in exact integers. Without fma's error term, the low
 * word of a wide factor, or the low word of the value, these fail; and the bound itself is
 * pinned to 2 gamma_(n+2)^2 A + n 2^-1074 (util/csum.h), so that loosening it fails too.
 */
static void compensated_double_keeps_every_bit(void **state)
{
    enum { N = 4096, W = 64 };
    static double x[N], y[N];
    struct clb_dd wide[W];
    uint64_t seed = 77;

    (void)state;
    for (int cancel = 0; cancel < 2; cancel++) {
        struct clb_dsum s = { 0, 0, 0 };
        i128 exact = 0;
        for (int i = 0; i < N; i++) {
            x[i] = random_int(&seed, 31);
            /* the second half nearly undoes the first: the sum is 2^40 times below A */
            y[i] = cancel && i >= N / 2 ? -y[i - N / 2] + random_int(&seed, 8) : random_int(&seed, 31);
            if (cancel && i >= N / 2)
                x[i] = x[i - N / 2];
            clb_dsum_add_prod(&s, x[i], y[i]);
            exact += (i128)x[i] * (i128)y[i];
        }
        const struct clb_dd v = clb_dsum_value(&s);
        print_message("sum of %d products%s: bound %.3g\n", N, cancel ? ", cancelling" : "",
                      clb_dsum_err(&s, N));
        assert_true(clb_dsum_err(&s, N) < 1);
        assert_true((i128)v.hi + (i128)v.lo == exact);
        assert_true(v.hi == v.hi + v.lo); /* normalised */
    }

    /* Wide factors: sums of 64 products each, then 64 products of a 31-bit integer and one. */
    struct clb_dsum s = { 0, 0, 0 };
    i128 exact = 0;
    for (int w = 0; w < W; w++) {
        struct clb_dsum f = { 0, 0, 0 };
        for (int i = 0; i < 64; i++)
            clb_dsum_add_prod(&f, random_int(&seed, 31), random_int(&seed, 31));
        wide[w] = clb_dsum_value(&f);
        assert_true(wide[w].lo != 0);
        const double a = random_int(&seed, 31);
        clb_dsum_add_prod_dd(&s, a, wide[w]);
        exact += (i128)a * ((i128)wide[w].hi + (i128)wide[w].lo);
    }
    struct clb_dd v = clb_dsum_value(&s);
    double err = fabs((double)(exact - (i128)v.hi - (i128)v.lo));
    print_message("sum of %d products with a wide factor: error %.3g, bound %.3g\n", W, err,
                  clb_dsum_err(&s, W));
    assert_true(err <= clb_dsum_err(&s, W));

    /* Subnormal products (k l 2^-1100, k and l below 2^31): rounded near zero, hence n 2^-1074. */
    s = (struct clb_dsum){ 0, 0, 0 };
    exact = 0;
    for (int i = 0; i < N; i++) {
        const double k = random_int(&seed, 31), l = random_int(&seed, 31);
        clb_dsum_add_prod(&s, ldexp(k, -560), ldexp(l, -540));
        exact += (i128)k * (i128)l;
    }
    v = clb_dsum_value(&s);
    err = ldexp(fabs((double)(exact - (i128)ldexp(v.hi, 1100) - (i128)ldexp(v.lo, 1100))), -1100);
    print_message("sum of %d subnormal products: error %.3g, bound %.3g\n", N, err,
                  clb_dsum_err(&s, N));
    assert_true(err > 0 && err <= clb_dsum_err(&s, N));

    /* The bound's value: 2 gamma_(n+2)^2 A + n 2^-1074, to a few roundings. */
    static const uint64_t ns[] = { 1, 2, 1000, UINT64_C(1) << 30 };
    for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
        const double u = 0x1p-53, g = (double)(ns[i] + 2) * u / (1 - (double)(ns[i] + 2) * u);
        const struct clb_dsum a = { 0, 0, 3.0 };
        const double want = 2 * g * g * 3.0 + (double)ns[i] * 0x1p-1074;
        assert_true(fabs(clb_dsum_err(&a, ns[i]) - want) <= 1e-14 * want);
    }
    const struct clb_dsum none = { 0, 0, 0 };
    assert_true(clb_dsum_err(&none, 4) == 4 * 0x1p-1074);
    assert_true(isinf(clb_dsum_err(&none, UINT64_C(1) << 52)));
}

/*
 * long double's unit roundoff as it runs: 2^-64 on x86-64, double's under valgrind, which
 * runs x87 arithmetic in double.
 */
static long double ld_unit_roundoff(void)
{
    volatile long double one = 1, e = LDBL_EPSILON;
    return one + e != one ? LDBL_EPSILON / 2 : DBL_EPSILON / 2;
}

/* clb_csum's bound for n rounded products (verify_arith.h's acc_err, long double path). */
static long double ld_dot_err(long double value, long double abs_sum, uint64_t n)
{
    const long double u = ld_unit_roundoff(), nu = (long double)n * u;
    return 2 * u * fabsl(value) + 4 * nu * nu * abs_sum + u * abs_sum;
}

/*
 * The two paths' reference arithmetic on the same data, Freivalds' shape: B x, then
 * A (B x), for random fp64 inputs and +-(1 + t/16) weights, and the plain dot products of the
 * full reference; each sum in long double (today's) and in compensated double agree within
 * the sum of their bounds, B x's bounds carried through |A|.
 */
static void compensated_paths_agree_within_bounds(void **state)
{
    enum { M = 32, N = 512, K = 256 };
    struct clb_gemm_data *d = data(CLB_FP64, M, N, K, 1, 0, 3);
    const double *a = d->a, *b = d->b;
    static double x[N], bx_err_ld[K], bx_err_dd[K];
    static long double bx_ld[K];
    static struct clb_dd bx_dd[K];
    uint64_t seed = 19;
    double worst = 0;

    (void)state;
    for (int j = 0; j < N; j++) {
        const uint64_t bits = clb_rng_next(&seed);
        x[j] = (bits & 16 ? -1.0 : 1.0) * (1.0 + (double)(bits & 15) / 16.0);
    }
    for (int q = 0; q < K; q++) {
        struct clb_csum ld = { 0, 0 };
        struct clb_dsum dd = { 0, 0, 0 };
        long double abs = 0;
        for (int j = 0; j < N; j++) {
            const long double t = b[q * N + j] * (long double)x[j];
            clb_csum_add(&ld, t);
            abs += fabsl(t);
            clb_dsum_add_prod(&dd, b[q * N + j], x[j]);
        }
        bx_ld[q] = clb_csum_value(&ld);
        bx_err_ld[q] = (double)ld_dot_err(bx_ld[q], abs, N);
        bx_dd[q] = clb_dsum_value(&dd);
        bx_err_dd[q] = clb_dsum_err(&dd, N);
        const long double diff = ((long double)bx_dd[q].hi - bx_ld[q]) + bx_dd[q].lo;
        assert_true(fabsl(diff) <= bx_err_ld[q] + bx_err_dd[q]);
    }
    for (int i = 0; i < M; i++) {
        for (int full = 0; full < 2; full++) {
            /* Freivalds' A (B x), or the full reference's entry (i, i) of A B */
            struct clb_csum ld = { 0, 0 };
            struct clb_dsum dd = { 0, 0, 0 };
            long double abs = 0, carried = 0;
            for (int q = 0; q < K; q++) {
                const double aq = a[i * K + q];
                const long double t = full ? aq * (long double)b[q * N + i] : aq * bx_ld[q];
                clb_csum_add(&ld, t);
                abs += fabsl(t);
                if (full) {
                    clb_dsum_add_prod(&dd, aq, b[q * N + i]);
                } else {
                    clb_dsum_add_prod_dd(&dd, aq, bx_dd[q]);
                    carried += fabs(aq) * (bx_err_ld[q] + bx_err_dd[q]);
                }
            }
            const long double v_ld = clb_csum_value(&ld);
            const struct clb_dd v_dd = clb_dsum_value(&dd);
            const long double diff = ((long double)v_dd.hi - v_ld) + v_dd.lo;
            const long double bound = ld_dot_err(v_ld, abs, K) + clb_dsum_err(&dd, K) + carried;
            if (fabsl(diff) > bound)
                fail_msg("row %d%s: the paths differ by %Lg, beyond their bounds' %Lg", i,
                         full ? " (full)" : "", fabsl(diff), bound);
            worst = fmax(worst, (double)(fabsl(diff) / bound));
            /* compensated double's bound is the tighter at these sizes, but for binary128's */
            assert_true(LDBL_MANT_DIG > 64 || clb_dsum_err(&dd, K) < ld_dot_err(v_ld, abs, K));
        }
    }
    print_message("largest difference of the paths / their bounds: %.3g\n", worst);
    clb_gemm_data_destroy(d);
}

/*
 * The reference itself, through verify, in exact integers. Full: fp64 inputs of 31 bits
 * (62-bit products, sums of 70 bits) against C rounded once from the exact product; the
 * compensated double reference is that rounding (no entry off), long double within an
 * ulp (its 64 bits are rounded again to double). Freivalds: inputs of 20 bits, so that
 * C = A B is exact in double and every residual of the exact reference is 0, while
 * A (B x) and (y'A) B need more than 53 bits and the products a (B x) more than 53 too:
 * compensated double finds 0 exactly; long double a residual within its bound.
 */
static void integer_references_are_exact(void **state)
{
    (void)state;
    for (int ab = 0; ab < 2; ab++) {
        const double alpha = ab ? 0.75 : 1, beta = ab ? -0.5 : 0;
        enum { M = 32, N = 32, K = 512 };
        struct clb_gemm_data *d = data(CLB_FP64, M, N, K, alpha, beta, 5);
        double *a = d->a, *b = d->b, *c0 = d->c0, *c = malloc(M * N * sizeof(*c));
        uint64_t seed = 8;
        double top = 0;
        assert_non_null(c);
        for (int i = 0; i < M * K; i++)
            a[i] = ldexp(random_int(&seed, 31), -31);
        for (int i = 0; i < K * N; i++)
            b[i] = ldexp(random_int(&seed, 31), -31);
        for (int i = 0; i < M * N; i++)
            c0[i] = ldexp(random_int(&seed, 31), -31);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                i128 e = 0; /* in units of 2^-64 */
                for (int q = 0; q < K; q++)
                    e += (i128)ldexp(a[i * K + q], 31) * (i128)ldexp(b[q * N + j], 31);
                e = e * (i128)(alpha * 4) + (i128)ldexp(beta * c0[i * N + j], 64);
                c[i * N + j] = ldexp((double)e, -64);
                top = fmax(top, fabs(c[i * N + j]));
            }
        }
        struct clb_gemm_reference *ref = reference(d, CLB_VERIFY_SOURCE_NAIVE);
        struct clb_verify_result v;
        clb_gemm_verify(ref, c, &v);
        print_message("full, alpha %g beta %g: largest |C - R| %.3g (ulp of the largest %.3g)\n",
                      alpha, beta, v.max_abs_err, ldexp(1, ilogb(top) - 52));
        assert_true(v.passed);
        if (CLB_VERIFY_COMPENSATED_DOUBLE)
            assert_true(v.max_abs_err == 0);
        else
            assert_true(v.max_abs_err <= ldexp(1, ilogb(top) - 52));
        clb_gemm_reference_destroy(ref);
        free(c);
        clb_gemm_data_destroy(d);
    }
    for (int ab = 0; ab < 2; ab++) {
        const double alpha = ab ? 0.75 : 1, beta = ab ? -0.5 : 0;
        enum { M = 8, N = 2048, K = 256 };
        struct clb_gemm_data *d = data(CLB_FP64, M, N, K, alpha, beta, 6);
        double *a = d->a, *b = d->b, *c0 = d->c0, *c = malloc(M * N * sizeof(*c));
        uint64_t seed = 9;
        double terms = 0, brow = 0;
        assert_non_null(c);
        for (int i = 0; i < M * K; i++)
            a[i] = random_int(&seed, 20);
        for (int i = 0; i < K * N; i++)
            b[i] = random_int(&seed, 20);
        for (int i = 0; i < M * N; i++)
            c0[i] = random_int(&seed, 20);
        for (int q = 0; q < K; q++) {
            double row = 0;
            for (int j = 0; j < N; j++)
                row += fabs(b[q * N + j]);
            brow = fmax(brow, row);
        }
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < N; j++) {
                int64_t e = 0;
                for (int q = 0; q < K; q++)
                    e += (int64_t)a[i * K + q] * (int64_t)b[q * N + j];
                c[i * N + j] = alpha * (double)e + beta * c0[i * N + j]; /* exact: 50 bits */
            }
            double arow = 0;
            for (int q = 0; q < K; q++)
                arow += fabs(a[i * K + q]);
            terms = fmax(terms, 2 * arow * brow);
        }
        struct clb_gemm_reference *ref = reference(d, CLB_VERIFY_SOURCE_FREIVALDS);
        struct clb_verify_result v;
        clb_gemm_verify(ref, c, &v);
        print_message("freivalds, alpha %g beta %g: largest residual %.3g (terms up to %.3g)\n",
                      alpha, beta, v.max_abs_err, terms);
        assert_true(v.passed);
        if (CLB_VERIFY_COMPENSATED_DOUBLE)
            assert_true(v.max_abs_err == 0);
        else
            assert_true(v.max_abs_err <= 8 * (double)ld_unit_roundoff() * terms);
        clb_gemm_reference_destroy(ref);
        free(c);
        clb_gemm_data_destroy(d);
    }
}

/*
 * Two groups, two meson tests run side by side: the checks at long K (thousands of k-terms
 * per entry, Freivalds at its own size), argument "long-k", and all the others.
 */
int main(int argc, char **argv)
{
    const struct CMUnitTest long_k[] = {
        cmocka_unit_test(dropped_k_term_fails),
        cmocka_unit_test(fp16_last_16_of_4096_fails),
        cmocka_unit_test(freivalds_at_its_own_size),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(correct_results_pass),
        cmocka_unit_test(noise_model_is_tight),
        cmocka_unit_test(wrong_entries_fail),
        cmocka_unit_test(lower_precision_fails),
        cmocka_unit_test(cancellation_passes),
        cmocka_unit_test(underflow_passes),
        cmocka_unit_test(zero_scalars),
        cmocka_unit_test(half_to_double_is_exact),
        cmocka_unit_test(method_by_size),
        cmocka_unit_test(data_is_random_nonzero_and_seeded),
        cmocka_unit_test(modes_read_through_layouts),
        cmocka_unit_test(mode_layouts),
        cmocka_unit_test(stats_median_and_spread),
        cmocka_unit_test(compensated_double_keeps_every_bit),
        cmocka_unit_test(compensated_paths_agree_within_bounds),
        cmocka_unit_test(integer_references_are_exact),
    };
    if (argc > 1 && !strcmp(argv[1], "long-k"))
        return cmocka_run_group_tests_name("long K", long_k, NULL, NULL);
    if (argc > 1) {
        fprintf(stderr, "usage: %s [long-k]\n", argv[0]);
        return 2;
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
