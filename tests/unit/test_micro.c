/* The checks behind peak and bandwidth: right results pass, corrupted ones fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>
#include <cmocka.h>

#include "clbench/bench/bandwidth.h"
#include "clbench/bench/micro.h"
#include "clbench/bench/peak.h"
#include "clbench/util/csum.h"
#include <CL/cl_half.h>

static const enum clb_precision precs[] = { CLB_FP32,  CLB_FP64,  CLB_FP16,
                                            CLB_INT32, CLB_INT16, CLB_INT8 };
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
 * summed in uint32_t), its chains k = 0 .. chains - 1. Chain `skip`
 * (chains lane + k; -1: none) runs one round short; one_lane gives every lane lane
 * 0's start, as a compiler computing one lane and copying it would.
 */
static double emulate(enum clb_precision prec, unsigned width, unsigned chains, unsigned iters,
                      uint64_t g, int skip, bool one_lane)
{
    const bool half = prec == CLB_FP16, dbl = prec == CLB_FP64;
    const bool i16 = prec == CLB_INT16, i8 = prec == CLB_INT8;
    uint32_t usum = 0;
    double dsum = 0;
    float fsum = 0;

    for (unsigned l = 0; l < width; l++)
        for (unsigned k = 0; k < chains; k++) {
            const unsigned lane = one_lane ? 0 : l, n = iters - (skip == (int)(chains * l + k));
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
            } else if (prec == CLB_INT32) {
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
    return i16 || i8 || prec == CLB_INT32 ? usum : dbl ? dsum : fsum;
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
        for (size_t w = 0; w < 5; w++)
            for (unsigned c = 1; c <= 8; c *= 2) {
                clb_peak_expect_init(&x, precs[p], widths[w], c, 1024);
                for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
                    double want = emulate(precs[p], widths[w], c, 1024, items[i], -1, false);
                    if (clb_peak_expected(&x, items[i]) != want)
                        fail_msg("%s x%u work-item %llu: %.17g, brute force %.17g", precs[p],
                                 widths[w], (unsigned long long)items[i],
                                 clb_peak_expected(&x, items[i]), want);
                }
            }
    /* Chains end at u 2^-10: work-item 0, one lane: (0 + ... + 7) 2^-10. */
    clb_peak_expect_init(&x, CLB_FP16, 1, 8, 1024);
    assert_true(clb_peak_expected(&x, 0) == 28 * 0x1p-10);
    assert_true(clb_peak_expected(&x, 8) == (28 + 8 * 128) * 0x1p-10);
    /* Two chains of fp64 x16 (a GPU's count): work-item 1 has u = k + 8 l + 128, k < 2, l < 16:
     * 32 (128 - 1024 + 1024) + 16 + 2 x 8 x 120 = 6032, in units of 2^-10. */
    clb_peak_expect_init(&x, CLB_FP64, 16, 2, 1024);
    assert_true(clb_peak_expected(&x, 1) == 6032 * 0x1p-10);
}

static void peak_skipped_round_fails(void **state)
{
    enum { N = 64 };
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++)
            for (unsigned c = 1; c <= 8; c *= 2) {
                clb_peak_expect_init(&x, precs[p], widths[w], c, 1024);
                for (size_t i = 0; i < N; i++)
                    store(&x, buf, i, clb_peak_expected(&x, i));
                assert_true(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
                /* The last chain of the last lane of work-item 37 one round short. */
                store(&x, buf, 37,
                      emulate(precs[p], widths[w], c, 1024, 37, (int)(c * widths[w]) - 1, false));
                assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
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
        for (size_t w = 0; w < 5; w++)
            for (unsigned c = 1; c <= 8; c *= 2) {
                const unsigned iters = precs[p] == CLB_INT8 ? 1000 : 1024;
                clb_peak_expect_init(&x, precs[p], widths[w], c, iters);
                for (size_t i = 0; i < N; i++) {
                    assert_true(clb_peak_expected(&x, i) ==
                                emulate(precs[p], widths[w], c, iters, i, -1, false));
                    store(&x, buf, i, emulate(precs[p], widths[w], c, 0, i, -1, false));
                }
                assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
            }
    clb_peak_expect_init(&x, CLB_INT8, 16, 8, 1024);
    for (size_t i = 0; i < N; i++)
        assert_true(clb_peak_expected(&x, i) == emulate(CLB_INT8, 16, 8, 0, i, -1, false));
}

static void peak_copied_results_fail(void **state)
{
    enum { N = 64 };
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++)
        for (size_t w = 0; w < 5; w++)
            for (unsigned c = 1; c <= 8; c *= 2) {
                clb_peak_expect_init(&x, precs[p], widths[w], c, 1024);
                /* Work-item 0 computed once for its warp and broadcast. */
                for (size_t i = 0; i < N; i++)
                    store(&x, buf, i, clb_peak_expected(&x, 0));
                assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
                assert_non_null(strstr(why, "work-item 1 "));
                /* Lane 0 computed once and copied to the other lanes. */
                for (size_t i = 0; i < N; i++)
                    store(&x, buf, i, emulate(precs[p], widths[w], c, 1024, i, -1, widths[w] > 1));
                assert_true(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)) == (widths[w] == 1));
                /* Garbage. */
                for (size_t i = 0; i < N; i++)
                    store(&x, buf, i, clb_peak_expected(&x, i));
                store(&x, buf, N - 1, x.integer ? clb_peak_expected(&x, N - 1) + 1 : NAN);
                assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
            }
}

/*
 * One work-item of the int8dot kernel by brute force: each chain's bytes
 * times (3, 5, 7, 11) added to it, in 64 bits (so a saturating or wrapping
 * step would show), chain `skip` (-1: none) one round short. *top gets the
 * largest value any chain reached.
 */
static uint32_t emulate_dot(unsigned chains, unsigned iters, uint64_t g, int skip,
                            uint64_t *top)
{
    static const uint64_t coef[4] = { 3, 5, 7, 11 };
    uint32_t sum = 0;

    for (unsigned k = 0; k < chains; k++) {
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
    clb_peak_expect_init(&x, CLB_INT8DOT, 4, 8, 1024);
    assert_true(x.integer && x.form == CLB_PEAK_BY_CLASS && x.out_size == 4);
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
        assert_true(clb_peak_expected(&x, items[i]) == emulate_dot(8, 1024, items[i], -1, &top));
    /* Far from saturation: dot_acc_sat is then an exact multiply-add. */
    assert_true(top < (UINT64_C(1) << 30));
    for (size_t i = 0; i < N; i++)
        buf[i] = (uint32_t)clb_peak_expected(&x, i);
    assert_true(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
    /* Any chain one round short: the chains only grow, so the sum is short. */
    for (int k = 0; k < 8; k++) {
        buf[37] = emulate_dot(8, 1024, 37, k, &top);
        assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
        assert_non_null(strstr(why, "work-item 37 "));
    }
    buf[37] = (uint32_t)clb_peak_expected(&x, 37);
    /* Work-item 0 computed once and broadcast. */
    for (size_t i = 0; i < N; i++)
        buf[i] = (uint32_t)clb_peak_expected(&x, 0);
    assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
    assert_non_null(strstr(why, "work-item 1 "));
    /* Every class differs from every other. */
    for (int a = 0; a < 7; a++)
        for (int b = a + 1; b < 7; b++)
            assert_true(x.by_class[a] != x.by_class[b]);
    /* Fewer rounds, a different answer. */
    struct clb_peak_expect y;
    clb_peak_expect_init(&y, CLB_INT8DOT, 4, 8, 1023);
    assert_true(y.by_class[3] != x.by_class[3]);
    /* Fewer chains: the sum of those alone. */
    clb_peak_expect_init(&y, CLB_INT8DOT, 4, 3, 1024);
    for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++)
        assert_true(clb_peak_expected(&y, items[i]) == emulate_dot(3, 1024, items[i], -1, &top));
}

/* Arrays of n elements (float or double) all holding v. */
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

/*
 * A chunk of a launch checked on its own (peak reads its outputs back 2^20 at a
 * time): its work-items' own values pass only at their own index, and a fault names
 * the launch-wide index.
 */
static void peak_verify_chunk(void **state)
{
    enum { N = 64 };
    const uint64_t first = (UINT64_C(1) << 20) * 3 + 5; /* no multiple of 7 apart from 0 */
    uint64_t buf[N];
    char why[256];
    struct clb_peak_expect x;

    (void)state;
    for (size_t p = 0; p < N_PRECS; p++) {
        clb_peak_expect_init(&x, precs[p], 4, 8, 1024);
        for (size_t i = 0; i < N; i++)
            store(&x, buf, i, clb_peak_expected(&x, first + i));
        assert_true(clb_peak_verify(&x, first, buf, N, why, sizeof(why)));
        assert_false(clb_peak_verify(&x, 0, buf, N, why, sizeof(why)));
        store(&x, buf, 9, clb_peak_expected(&x, first + 10));
        assert_false(clb_peak_verify(&x, first, buf, N, why, sizeof(why)));
        assert_non_null(strstr(why, "work-item 3145742 ")); /* first + 9 */
    }
}

/*
 * The chain counts, value by value: CPUs 8 always; GPUs hold chains x width
 * elements (each at least a 32-bit word) within 64 words, 1 to 8 chains.
 */
static void peak_chain_rule(void **state)
{
    static const struct {
        unsigned width;
        size_t bytes;
        unsigned gpu;
    } cases[] = {
        { 1, 4, 8 },  { 8, 4, 8 },  { 16, 4, 4 },  /* fp32, int32 */
        { 1, 8, 8 },  { 4, 8, 8 },  { 8, 8, 4 },  { 16, 8, 2 }, /* fp64 */
        { 8, 2, 8 },  { 16, 2, 4 }, { 16, 1, 4 }, /* fp16, int16, int8: a word each */
        { 32, 8, 1 }, { 64, 8, 1 }, /* beyond any kernel: still one chain */
        { 3, 4, 8 },  { 6, 4, 8 },  { 12, 4, 5 }, { 5, 8, 6 },
    };

    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const unsigned got = clb_peak_chains(true, cases[i].width, cases[i].bytes);
        if (got != cases[i].gpu)
            fail_msg("gpu, width %u of %zu bytes: %u chains, expected %u", cases[i].width,
                     cases[i].bytes, got, cases[i].gpu);
        assert_int_equal(clb_peak_chains(false, cases[i].width, cases[i].bytes), 8);
    }
}

#define BIG (UINT64_C(1) << 40)

/* The launch sizing rule, value by value: two calls' seconds at one size, the next size. */
static const struct {
    double s[2];
    uint64_t global, local;
    double target;
    uint64_t max, want;
} sizing_cases[] = {
    /* 1 ms for 2^20 work-items, 20 ms wanted: x 20 x 1.25. */
    { { 0.001, 0.001 }, 1 << 20, 256, 0.02, BIG, 26214400 },
    /* Rounded up to whole groups of local: 33792 x 2.5 = 84480 = 330 groups of 256
     * exactly; x 5 = 168960 = 660 groups; 1000 x 25 = 25000 -> 25088 (98 of 256), 25024
     * (391 of 64); 960 x 2.5 = 2400 = 50 groups of 48. */
    { { 0.01, 0.01 }, 33792, 256, 0.02, BIG, 84480 },
    { { 0.0625, 0.0625 }, 33792, 256, 0.25, BIG, 168960 },
    { { 0.001, 0.001 }, 1000, 256, 0.02, BIG, 25088 },
    { { 0.001, 0.001 }, 1000, 64, 0.02, BIG, 25024 },
    { { 0.01, 0.01 }, 960, 48, 0.02, BIG, 2400 },
    /* The faster of the two decides: one call slowed past the target by another process
     * does not end the growth (the audit's pocl fp32 x16, stopped at 2816 work-items on one
     * core); x 0.02 / 0.004 x 1.25 = x 6.25. */
    { { 0.03, 0.001 }, 1 << 20, 256, 0.02, BIG, 26214400 },
    { { 0.001, 0.03 }, 1 << 20, 256, 0.02, BIG, 26214400 },
    { { 0.021, 0.004 }, 8192, 256, 0.02, BIG, 51200 },
    /* Long enough already, both calls: unchanged, even one not of whole groups. */
    { { 0.02, 0.02 }, 1 << 20, 256, 0.02, BIG, 1 << 20 },
    { { 0.03, 0.025 }, 1 << 20, 256, 0.02, BIG, 1 << 20 },
    { { 0.5, 0.5 }, 1000, 256, 0.02, BIG, 1000 },
    /* A first call lost in timer noise grows at most x 1024 in one step. */
    { { 1e-7, 1e-7 }, 33792, 256, 0.02, BIG, 33792 * 1024 },
    { { 0, 0 }, 33792, 256, 0.02, BIG, 33792 * 1024 },
    /* Held to the device's room, itself rounded down to whole groups; there it stays. */
    { { 0.001, 0.001 }, 1 << 20, 256, 0.02, 5000000, 4999936 },
    { { 0.001, 0.001 }, 4999936, 256, 0.02, 5000000, 4999936 },
};

static void peak_launch_sizing(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(sizing_cases) / sizeof(sizing_cases[0]); i++) {
        const uint64_t got =
            clb_peak_next_global(sizing_cases[i].s, sizing_cases[i].global,
                                 sizing_cases[i].local, sizing_cases[i].target,
                                 sizing_cases[i].max);
        if (got != sizing_cases[i].want)
            fail_msg("case %zu: %g s and %g s for %llu: next %llu, expected %llu", i,
                     sizing_cases[i].s[0], sizing_cases[i].s[1],
                     (unsigned long long)sizing_cases[i].global, (unsigned long long)got,
                     (unsigned long long)sizing_cases[i].want);
    }
    /* From an H200's first launch (132 CUs x 4 groups of 256, 1 ms: launch cost) to 20 ms. */
    const uint64_t max = clb_peak_max_global(UINT64_C(1) << 36, 4, 256);
    const uint64_t g = clb_peak_first_global(132, 256, max);
    assert_int_equal(g, 135168);
    assert_int_equal(clb_peak_next_global((const double[2]){ 0.001, 0.001 }, g, 256, 0.02, max),
                     3379200);
}

/* The work-group size from what the kernel and device report, case by case. */
static const struct {
    uint64_t multiple, kernel_max, device_max, want;
} local_cases[] = {
    { 8, 4096, 4096, 256 },  /* pocl on a CPU */
    { 32, 1024, 1024, 256 }, /* NVIDIA */
    { 64, 256, 1024, 256 },  /* AMD, a kernel's limit */
    { 32, 192, 1024, 192 },  /* registers allow 192: 6 warps */
    { 32, 200, 1024, 192 },  /* whole warps within it */
    { 48, 1024, 1024, 240 }, /* no power of two */
    { 16, 4096, 128, 128 },  /* the device's limit */
    { 64, 32, 1024, 32 },    /* a multiple the kernel cannot hold gives way */
    { 0, 0, 0, 256 },        /* nothing reported: no bound */
    { 1, 1, 1, 1 },
};

static void peak_local_size(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(local_cases) / sizeof(local_cases[0]); i++) {
        const uint64_t got = clb_peak_local_size(local_cases[i].multiple,
                                                 local_cases[i].kernel_max,
                                                 local_cases[i].device_max);
        if (got != local_cases[i].want)
            fail_msg("multiple %llu, kernel %llu, device %llu: %llu, expected %llu",
                     (unsigned long long)local_cases[i].multiple,
                     (unsigned long long)local_cases[i].kernel_max,
                     (unsigned long long)local_cases[i].device_max, (unsigned long long)got,
                     (unsigned long long)local_cases[i].want);
    }
}

/* The first launch, the room, and whether a launch fills the device, case by case. */
static const struct {
    uint64_t units, local, max, first;
} first_cases[] = {
    { 2, 256, BIG, 2048 },      /* this kind of 2-core pocl: 4 groups a core */
    { 8, 256, BIG, 8192 },
    { 0, 256, BIG, 1024 },      /* no count reported: one unit */
    { 132, 256, BIG, 135168 },  /* H200 */
    { 8, 256, 4096, 4096 },     /* held to the room */
};

static const struct {
    uint64_t global, local, units;
    bool fills;
} fill_cases[] = {
    { 8192, 256, 8, true },
    { 7936, 256, 8, false },  /* 31 groups for 8 units */
    { 2816, 2816, 2, false }, /* the audit's: one group, one core */
    { 1 << 20, 256, 132, true },
    { 4096, 256, 0, false },  /* no count: unknown, not claimed */
    { 4096, 0, 2, false },
};

static const struct {
    uint64_t alloc;
    size_t out_size;
    uint64_t local, want;
} room_cases[] = {
    /* One output each within the largest allocation, 32-bit indices, whole groups. */
    { UINT64_C(1) << 30, 4, 256, UINT64_C(1) << 28 },
    { UINT64_C(1) << 30, 8, 256, UINT64_C(1) << 27 },
    { 4000003, 4, 256, 999936 },
    { UINT64_C(1) << 40, 4, 256, UINT64_C(0xffffff00) },
    { UINT64_C(1) << 40, 4, 1, UINT64_C(0xffffffff) },
    { UINT64_C(1) << 30, 4, 192, 268435392 },
    { 1000, 4, 256, 0 },
};

static void peak_launch_shape(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(first_cases) / sizeof(first_cases[0]); i++)
        if (clb_peak_first_global(first_cases[i].units, first_cases[i].local,
                                  first_cases[i].max) != first_cases[i].first)
            fail_msg("first launch, case %zu", i);
    for (size_t i = 0; i < sizeof(fill_cases) / sizeof(fill_cases[0]); i++)
        if (clb_peak_fills_device(fill_cases[i].global, fill_cases[i].local,
                                  fill_cases[i].units) != fill_cases[i].fills)
            fail_msg("fills device, case %zu", i);
    for (size_t i = 0; i < sizeof(room_cases) / sizeof(room_cases[0]); i++)
        assert_int_equal(clb_peak_max_global(room_cases[i].alloc, room_cases[i].out_size,
                                             room_cases[i].local),
                         room_cases[i].want);
}

static void peak_c_version(void **state)
{
    (void)state;
    assert_true(clb_peak_c_version_3("OpenCL C 3.0 "));
    assert_true(clb_peak_c_version_3("OpenCL C 3.0 (Build 0)"));
    assert_false(clb_peak_c_version_3("OpenCL C 1.2 PoCL"));
    assert_false(clb_peak_c_version_3("OpenCL C 2.0"));
    assert_false(clb_peak_c_version_3(""));
    assert_false(clb_peak_c_version_3(NULL));
}

/* The start pattern: exact values, every element its own within a period. */
static void stream_start_pattern(void **state)
{
    (void)state;
    assert_true(clb_stream_start(0) == 0x1p-30);
    assert_true(clb_stream_start(1) == (1 + 10123 * 0x1p-14) * 0x1p-29);
    assert_true(clb_stream_start(60) == 0x1p30 * (1 + (60 * 10123 % 16381) * 0x1p-14));
    /* Exact in float as in double. */
    for (uint64_t j = 0; j < 5000; j++)
        assert_true((double)(float)clb_stream_start(j) == clb_stream_start(j));
    /* Any distance short of the period (powers of two, work-group strides, the primes
     * themselves) changes the value; the period does not. */
    static const uint64_t d[] = { 1, 2, 16, 61, 64, 256, 1024, 4096, 16381, 16384, 65536,
                                  1u << 20, 3u << 20, CLB_STREAM_PERIOD - 1 };
    for (uint64_t j = 0; j < 4096; j += 7) {
        for (size_t i = 0; i < sizeof(d) / sizeof(*d); i++)
            assert_true(clb_stream_start(j) != clb_stream_start(j + d[i]));
        assert_true(clb_stream_start(j) == clb_stream_start(j + CLB_STREAM_PERIOD));
    }
}

/* One round from 1.0 by hand; float's rounding shows, double's does not. */
static void stream_one_round(void **state)
{
    struct clb_stream_expect x;
    double lo, hi;

    (void)state;
    /* c = a = 1; b = 0.4 c = 0.4; c = a + b = 1.4; a = b + 0.4 c = 0.96 (element 0 is
     * 2^-30 x 1.0). */
    assert_int_equal(clb_stream_expect_init(&x, 1, true), 0);
    clb_stream_expected(&x, 0, 0, &lo, &hi);
    assert_true(fabs(lo * 0x1p30 - 0.96) < 1e-15 && fabs(hi * 0x1p30 - 0.96) < 1e-15);
    clb_stream_expected(&x, 0, 1, &lo, &hi);
    assert_true(fabs(lo * 0x1p30 - 0.4) < 1e-15 && lo == hi);
    clb_stream_expected(&x, 0, 2, &lo, &hi);
    assert_true(fabs(lo * 0x1p30 - 1.4) < 1e-15 && lo == hi);
    clb_stream_expect_free(&x);
    assert_int_equal(clb_stream_expect_init(&x, 1, false), 0);
    clb_stream_expected(&x, 0, 0, &lo, &hi);
    assert_true(fabs(lo * 0x1p30 - 0.96) < 1e-7 && fabs(lo * 0x1p30 - 0.96) > 1e-12);
    clb_stream_expect_free(&x);
    /* No round: the starts themselves, b and c one and two elements on. */
    assert_int_equal(clb_stream_expect_init(&x, 0, false), 0);
    clb_stream_expected(&x, 5, 2, &lo, &hi);
    assert_true(lo == hi && lo == clb_stream_start(7));
    clb_stream_expect_free(&x);
}

/*
 * Neighbouring mantissas' ranges never overlap, in any array, after one round or 200
 * (the most between re-initialisations), nor the largest mantissa's with the next
 * exponent's smallest: no two elements of a period may hold the same value.
 */
static void stream_ranges_apart(void **state)
{
    static const unsigned iters[] = { 1, 200 };

    (void)state;
    for (int p = 0; p < 2; p++)
        for (size_t t = 0; t < 2; t++) {
            struct clb_stream_expect x;
            double widest = 0;
            assert_int_equal(clb_stream_expect_init(&x, iters[t], p == 1), 0);
            for (int k = 0; k < 3; k++) {
                for (unsigned g = 0; g < 16381; g++) {
                    const double lo = x.lo[3 * g + (unsigned)k], hi = x.hi[3 * g + (unsigned)k];
                    assert_true(lo <= hi);
                    if (hi - lo > widest * lo)
                        widest = (hi - lo) / lo;
                    if (g + 1 < 16381)
                        assert_true(hi < x.lo[3 * (g + 1) + (unsigned)k]);
                }
                assert_true(x.hi[3 * 16380 + (unsigned)k] < 2 * x.lo[(unsigned)k]);
            }
            /* The gap between mantissas is 2^-14; the widest range after 200 rounds is a
             * few float ulps (fused and plain rounding apart), not the 1e-4 a bound on
             * every rounding would allow. */
            assert_true(widest < (p ? 1e-13 : 1e-5));
            if (iters[t] == 200)
                assert_true(widest > 0);
            clb_stream_expect_free(&x);
        }
}

/*
 * A device by brute force: the arrays from their starts, `iters` rounds of copy, mul,
 * add, triad in the precision's own arithmetic, the triad fused where fused(round, j)
 * says; kernel `wrap` (1 copy ... 4 triad, 5 dot, 6 read, 7 chunked, as stream.cl's
 * CLB_WRAP) reads index j mod `window` instead of j. Then the sums as the kernels form
 * them.
 */
struct sim {
    bool fp64;
    size_t n;
    void *a, *b, *c;
    struct clb_stream_outcome o; /* read: the gpu path's */
    double read_chunked;         /* the cpu path's read sum */
};

static double get(const void *x, bool fp64, size_t j)
{
    return fp64 ? ((const double *)x)[j] : ((const float *)x)[j];
}

static void put(void *x, bool fp64, size_t j, double v)
{
    if (fp64)
        ((double *)x)[j] = v;
    else
        ((float *)x)[j] = (float)v;
}

static double mul_p(double x, double y, bool fp64)
{
    const float p = (float)x * (float)y;
    return fp64 ? x * y : p;
}

static double add_p(double x, double y, bool fp64)
{
    const float t = (float)x + (float)y;
    return fp64 ? x + y : t;
}

static double triad_p(double b, double s, double c, bool fp64, bool fused)
{
    if (fused)
        return fp64 ? fma(s, c, b) : fmaf((float)s, (float)c, (float)b);
    return add_p(b, mul_p(s, c, fp64), fp64);
}

static bool never(unsigned r, size_t j) { (void)r, (void)j; return false; }
static bool always(unsigned r, size_t j) { (void)r, (void)j; return true; }
static bool odd_rounds(unsigned r, size_t j) { (void)j; return r % 2; }
static bool some_elements(unsigned r, size_t j) { return (j * 7 + r) % 3 == 0; }

/* The gpu path's read pass: work-item i of G = n / 16 adds a[i], a[i + G], ... a[i + 15 G]
 * in order, in the precision; the partials summed compensated as the host does (a plain
 * sum, in double under valgrind, would add its own rounding). */
static double sim_read(const struct sim *m, const void *a)
{
    struct clb_csum total = { 0, 0 };
    const size_t g = m->n / 16;
    for (size_t i = 0; i < g; i++) {
        double v = 0;
        for (size_t k = 0; k < 16; k++)
            v = add_p(v, get(a, m->fp64, i + k * g), m->fp64);
        clb_csum_add(&total, v);
    }
    return (double)clb_csum_value(&total);
}

/* The chunked sums (b NULL: the cpu path's read, a alone; else the chunked dot's products):
 * chunks of 1024, 32 vectors of 16 in each of two accumulators, their sum, then a tree
 * over the 16 lanes. */
static double sim_chunked(const struct sim *m, const void *a, const void *b)
{
    struct clb_csum total = { 0, 0 };
    for (size_t i = 0; i < m->n / 1024; i++) {
        double s0[16] = { 0 }, s1[16] = { 0 };
        for (size_t v = 0; v < 64; v += 2)
            for (size_t l = 0; l < 16; l++) {
                const size_t j0 = 1024 * i + 16 * v + l, j1 = j0 + 16;
                const double x0 = get(a, m->fp64, j0), x1 = get(a, m->fp64, j1);
                s0[l] = add_p(s0[l], b ? mul_p(x0, get(b, m->fp64, j0), m->fp64) : x0, m->fp64);
                s1[l] = add_p(s1[l], b ? mul_p(x1, get(b, m->fp64, j1), m->fp64) : x1, m->fp64);
            }
        for (int l = 0; l < 16; l++)
            s0[l] = add_p(s0[l], s1[l], m->fp64);
        for (int step = 8; step > 0; step /= 2)
            for (int l = 0; l < step; l++)
                s0[l] = add_p(s0[l], s0[l + step], m->fp64);
        clb_csum_add(&total, s0[0]);
    }
    return (double)clb_csum_value(&total);
}

/* A copy of x whose element j is x[j mod window]: what a kernel reading wrapped sees. */
static void *wrapped(const struct sim *m, const void *x, size_t window)
{
    void *w = filled(m->fp64, m->n, 0);
    for (size_t j = 0; j < m->n; j++)
        put(w, m->fp64, j, get(x, m->fp64, j % window));
    return w;
}

static void sim_run(struct sim *m, bool fp64, size_t n, unsigned iters,
                    bool (*fused)(unsigned, size_t), int wrap, size_t window)
{
    const double s = fp64 ? 0.4 : (float)0.4;

    *m = (struct sim){ .fp64 = fp64, .n = n };
    if (!wrap)
        window = n;
    m->a = filled(fp64, n, 0), m->b = filled(fp64, n, 0), m->c = filled(fp64, n, 0);
    for (size_t j = 0; j < n; j++) {
        put(m->a, fp64, j, clb_stream_start(j));
        put(m->b, fp64, j, clb_stream_start(j + 1));
        put(m->c, fp64, j, clb_stream_start(j + 2));
    }
    for (unsigned r = 0; r < iters; r++) {
#define AT(k, j) (wrap == (k) ? (j) % window : (j))
        for (size_t j = 0; j < n; j++)
            put(m->c, fp64, j, get(m->a, fp64, AT(1, j)));
        for (size_t j = 0; j < n; j++)
            put(m->b, fp64, j, mul_p(s, get(m->c, fp64, AT(2, j)), fp64));
        for (size_t j = 0; j < n; j++)
            put(m->c, fp64, j, add_p(get(m->a, fp64, AT(3, j)), get(m->b, fp64, AT(3, j)), fp64));
        for (size_t j = 0; j < n; j++)
            put(m->a, fp64, j, triad_p(get(m->b, fp64, AT(4, j)), s, get(m->c, fp64, AT(4, j)),
                                       fp64, fused(r, j)));
#undef AT
    }
    m->o = (struct clb_stream_outcome){ .a = m->a, .b = m->b, .c = m->c, .n = n, .fp64 = fp64,
                                        .iters = iters, .has_chunked = true,
                                        .dot_global = 96, .dot_local = 32 };
    /* The sums over the arrays each kernel saw: wrapped for the faulty one. */
    void *wa = wrapped(m, m->a, window), *wb = wrapped(m, m->b, window);
    struct clb_stream_outcome seen = m->o;
    if (wrap == 5)
        seen.a = wa, seen.b = wb;
    m->o.dot = clb_stream_dot_replay(&seen, fused(0, 0));
    m->o.read = sim_read(m, wrap == 6 ? wa : m->a);
    m->read_chunked = sim_chunked(m, wrap == 6 ? wa : m->a, NULL);
    m->o.dot_chunked = sim_chunked(m, wrap == 7 ? wa : m->a, wrap == 7 ? wb : m->b);
    free(wa);
    free(wb);
}

static void sim_free(struct sim *m)
{
    free(m->a);
    free(m->b);
    free(m->c);
}

/* A right device passes however it rounds the triad: plain, fused, mixed by round or by
 * element; the sums are tight (held against the arrays, not a band around them). */
static void stream_verify_right_device(void **state)
{
    bool (*const modes[])(unsigned, size_t) = { never, always, odd_rounds, some_elements };
    struct clb_stream_verdict v;

    (void)state;
    for (int p = 0; p < 2; p++)
        for (size_t f = 0; f < 4; f++) {
            struct sim m;
            sim_run(&m, p == 1, 8192, 9, modes[f], 0, 0);
            if (!clb_stream_verify(&m.o, &v))
                fail_msg("fp%d mode %zu: %s|%s|%s|%s", p ? 64 : 32, f, v.arrays, v.dot,
                         v.read, v.chunked);
            const double u = p ? 0x1p-53 : 0x1p-24, dot = m.o.dot, read = m.o.read;
            m.o.dot = dot * (1 + 16 * u);
            assert_false(clb_stream_verify(&m.o, &v));
            assert_non_null(strstr(v.dot, "wrong result: dot"));
            assert_true(!v.arrays[0] && !v.read[0] && !v.chunked[0]);
            m.o.dot = dot;
            /* The read sum's bounds (clb_stream_verify says why): 16 ulps on the gpu
             * path, 64 on the cpu path; just inside passes, just outside fails. */
            for (int chunked = 0; chunked < 2; chunked++) {
                const double exact = chunked ? m.read_chunked : read, tol = chunked ? 64 : 16;
                m.o.read_chunked = chunked;
                m.o.read = exact;
                if (!clb_stream_verify(&m.o, &v))
                    fail_msg("fp%d chunked %d: %s", p ? 64 : 32, chunked, v.read);
                m.o.read = exact * (1 + (tol - 2) * u);
                assert_true(clb_stream_verify(&m.o, &v));
                m.o.read = exact * (1 + (tol + 2) * u);
                assert_false(clb_stream_verify(&m.o, &v));
                assert_non_null(strstr(v.read, "read sum"));
                assert_true(!v.arrays[0] && !v.dot[0] && !v.chunked[0]);
            }
            m.o.read_chunked = false;
            m.o.read = read;
            m.o.dot_chunked *= 1 + 256 * u;
            assert_false(clb_stream_verify(&m.o, &v));
            assert_non_null(strstr(v.chunked, "chunked dot"));
            m.o.has_chunked = false; /* not run (a GPU): not checked */
            assert_true(clb_stream_verify(&m.o, &v));
            sim_free(&m);
        }
}

/*
 * The right count of the wrong elements, as CLBENCH_FAULT_STREAM_INDEX makes the
 * kernels read: each of copy, mul, add and triad fails the arrays, and leaves the
 * sums' checks alone; dot, read and the chunked dot each fail their own sum only.
 */
static void stream_verify_wrong_indices(void **state)
{
    static const char *const what[] = { "", "array", "array", "array", "array",
                                        "wrong result: dot", "read sum", "chunked dot" };
    struct clb_stream_verdict v;

    (void)state;
    for (int p = 0; p < 2; p++)
        for (int wrap = 1; wrap <= 7; wrap++) {
            struct sim m;
            sim_run(&m, p == 1, 16384, 3, always, wrap, 4096);
            assert_false(clb_stream_verify(&m.o, &v));
            const char *msg = wrap <= 4 ? v.arrays : wrap == 5 ? v.dot : wrap == 6 ? v.read
                                                                               : v.chunked;
            if (!strstr(msg, what[wrap]))
                fail_msg("fp%d wrap %d: '%s'", p ? 64 : 32, wrap, msg);
            /* Either read path's wrong elements fail the read sum alone. */
            if (wrap == 6) {
                struct clb_stream_outcome cpu = m.o;
                cpu.read_chunked = true;
                cpu.read = m.read_chunked;
                assert_false(clb_stream_verify(&cpu, &v));
                assert_non_null(strstr(v.read, "read sum"));
                assert_true(!v.arrays[0] && !v.dot[0] && !v.chunked[0]);
            }
            /* The first wrong element is the window's end: every one past it is wrong. */
            if (wrap <= 4)
                assert_non_null(strstr(msg, "element 4096 "));
            else
                assert_true(!v.arrays[0]);
            sim_free(&m);
        }
}

/* One element from one wrong index, near or far, or one round too few or too many; an
 * element one ulp out of its range; a NaN. */
static void stream_verify_one_element(void **state)
{
    static const size_t from[] = { 1, 61, 4096, 16381 };
    const size_t j = 3000;
    struct clb_stream_verdict v;

    (void)state;
    for (int p = 0; p < 2; p++) {
        const bool fp64 = p == 1;
        struct sim m;
        sim_run(&m, fp64, 20480, 5, some_elements, 0, 0);
        if (!clb_stream_verify(&m.o, &v))
            fail_msg("fp%d: %s|%s|%s|%s", fp64 ? 64 : 32, v.arrays, v.dot, v.read, v.chunked);
        for (int k = 0; k < 3; k++) {
            void *x = k == 0 ? m.a : k == 1 ? m.b : m.c;
            for (size_t i = 0; i < sizeof(from) / sizeof(*from); i++) {
                const double keep = get(x, fp64, j);
                put(x, fp64, j, get(x, fp64, j + from[i]));
                assert_false(clb_stream_verify(&m.o, &v));
                assert_non_null(strstr(v.arrays, "element 3000 "));
                put(x, fp64, j, keep);
            }
        }
        m.o.iters = 4;
        assert_false(clb_stream_verify(&m.o, &v));
        m.o.iters = 6;
        assert_false(clb_stream_verify(&m.o, &v));
        m.o.iters = 5;
        struct clb_stream_expect x;
        assert_int_equal(clb_stream_expect_init(&x, 5, fp64), 0);
        double lo, hi;
        clb_stream_expected(&x, 777, 2, &lo, &hi);
        clb_stream_expect_free(&x);
        const double keep = get(m.c, fp64, 777);
        put(m.c, fp64, 777, fp64 ? nextafter(hi, INFINITY) : nextafterf((float)hi, INFINITY));
        assert_false(clb_stream_verify(&m.o, &v));
        assert_non_null(strstr(v.arrays, "array c element 777 "));
        put(m.c, fp64, 777, fp64 ? nextafter(lo, 0) : nextafterf((float)lo, 0));
        assert_false(clb_stream_verify(&m.o, &v));
        put(m.c, fp64, 777, NAN);
        assert_false(clb_stream_verify(&m.o, &v));
        put(m.c, fp64, 777, keep);
        assert_true(clb_stream_verify(&m.o, &v));
        sim_free(&m);
    }
}

/* Local memory: the whole tile read 64 times is the expected sum; a window of it (the
 * fault hook's 64 entries) is not; every entry's bits its own. */
static void stream_local_sum(void **state)
{
    (void)state;
    for (int p = 0; p < 2; p++) {
        const bool fp64 = p == 1;
        uint64_t all = 0, window = 0;
        for (unsigned j = 0; j < 256; j++) {
            all += 64 * clb_stream_local_bits(j, fp64);
            window += 64 * clb_stream_local_bits(j % 64, fp64);
            for (unsigned i = 0; i < j; i++)
                assert_true(clb_stream_local_bits(i, fp64) != clb_stream_local_bits(j, fp64));
        }
        if (!fp64)
            all = (uint32_t)all, window = (uint32_t)window;
        assert_true(all == clb_stream_local_expected(fp64));
        assert_true(window != clb_stream_local_expected(fp64));
        /* A float in [1, 2): 0x3f8..., a double 0x3ff... */
        assert_true(clb_stream_local_bits(5, fp64) >> (fp64 ? 52 : 23) == (fp64 ? 0x3ffu : 0x7fu));
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

static void row_summary(void **state)
{
    struct clb_micro_results r = { 0 };
    struct clb_row *row = clb_micro_add(&r, NULL, CLB_BENCH_BANDWIDTH, "gbps");

    (void)state;
    assert_non_null(row);
    row->work = 2e9;
    row->times_s = malloc(3 * sizeof(double));
    row->times_s[0] = 1.0, row->times_s[1] = 0.5, row->times_s[2] = 2.0;
    row->n_times = 3;
    clb_micro_row_summarize(row);
    assert_true(row->value == 2.0 && row->best == 4.0); /* median 1 s, fastest 0.5 s */
    row = clb_micro_add(&r, NULL, CLB_BENCH_LATENCY, "us");
    row->times_s = malloc(2 * sizeof(double));
    row->times_s[0] = 10e-6, row->times_s[1] = 30e-6;
    row->n_times = 2;
    clb_micro_row_summarize(row);
    assert_true(fabs(row->value - 20.0) < 1e-9 && fabs(row->best - 10.0) < 1e-9);
    clb_micro_results_finish(&r);
}

/* bandwidth's default arrays: 1 GiB from 16 GB (10^9) of global memory on a device that is
 * not a CPU, else 256 MiB, then within one allocation and a quarter of global memory. */
static void stream_default_bytes(void **state)
{
    const uint64_t mib = UINT64_C(1) << 20, gib = UINT64_C(1) << 30;

    (void)state;
    /* An H200 (141 GiB, a quarter of it per allocation), a 16 GiB card, 16 GB exactly. */
    assert_int_equal(clb_stream_default_bytes(150754820096u, 37688705024u, false), gib);
    assert_int_equal(clb_stream_default_bytes(16 * gib, 4 * gib, false), gib);
    assert_int_equal(clb_stream_default_bytes(16000000000u, 4 * gib, false), gib);
    /* Just under 16 GB; a CPU device of any size (this VM's pocl: 5.6 GB or 17.5 GB, as
     * much as was free). */
    assert_int_equal(clb_stream_default_bytes(15999999999u, 4 * gib, false), 256 * mib);
    assert_int_equal(clb_stream_default_bytes(5999681536u, 2 * gib, true), 256 * mib);
    assert_int_equal(clb_stream_default_bytes(17542406144u, 8 * gib, true), 256 * mib);
    assert_int_equal(clb_stream_default_bytes(512 * gib, 128 * gib, true), 256 * mib);
    /* The limits: one allocation, a quarter of global memory. */
    assert_int_equal(clb_stream_default_bytes(32 * gib, 512 * mib, false), 512 * mib);
    assert_int_equal(clb_stream_default_bytes(512 * mib, 512 * mib, false), 128 * mib);
    assert_int_equal(clb_stream_default_bytes(512 * mib, 512 * mib, true), 128 * mib);
    assert_int_equal(clb_stream_default_bytes(0, 0, false), 0);
}

/* Which clock a bandwidth headline is from: a GPU's own always, a CPU device's where it
 * agrees with the host's within CLB_CLOCK_AGREE (pocl at 64 KiB: 154.6 against 7.42 GB/s). */
static void bandwidth_clock_rule(void **state)
{
    static const struct {
        bool cpu;
        double device_gbps, host_gbps;
        bool host;
    } cases[] = {
        { false, 154.6, 7.42, false }, /* a GPU: the host adds the bus's round trip */
        { true, 154.6, 7.42, true },   /* pocl waking its threads */
        { true, 40.0, 39.0, false },   /* agree: the device clock stands */
        { true, 40.0, 40.0 / (1.0 + CLB_CLOCK_AGREE), false }, /* just within */
        { true, 40.0, 40.0 / (1.0 + CLB_CLOCK_AGREE) * 0.999, true },
        { true, 40.0, 0.0, false },    /* no host figure: nothing to hold it against */
        { true, 30.0, 40.0, false },   /* the host's reads faster: never switch to it */
    };
    (void)state;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (clb_bandwidth_host_clock(cases[i].cpu, cases[i].device_gbps, cases[i].host_gbps) !=
            cases[i].host)
            fail_msg("case %zu: cpu %d device %.4g host %.4g: expected the %s clock", i,
                     cases[i].cpu, cases[i].device_gbps, cases[i].host_gbps,
                     cases[i].host ? "host" : "device");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(peak_expected_is_the_kernel),
        cmocka_unit_test(peak_skipped_round_fails),
        cmocka_unit_test(peak_dropped_loop_fails),
        cmocka_unit_test(peak_copied_results_fail),
        cmocka_unit_test(peak_int8dot),
        cmocka_unit_test(peak_verify_chunk),
        cmocka_unit_test(peak_chain_rule),
        cmocka_unit_test(peak_launch_sizing),
        cmocka_unit_test(peak_local_size),
        cmocka_unit_test(peak_launch_shape),
        cmocka_unit_test(peak_c_version),
        cmocka_unit_test(stream_start_pattern),
        cmocka_unit_test(stream_one_round),
        cmocka_unit_test(stream_ranges_apart),
        cmocka_unit_test(stream_verify_right_device),
        cmocka_unit_test(stream_verify_wrong_indices),
        cmocka_unit_test(stream_verify_one_element),
        cmocka_unit_test(stream_local_sum),
        cmocka_unit_test(stream_dot_replay),
        cmocka_unit_test(row_summary),
        cmocka_unit_test(stream_default_bytes),
        cmocka_unit_test(bandwidth_clock_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
