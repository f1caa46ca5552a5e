#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "clbench/util/csum.h"
#include "bandwidth_parts.h"

/* The start pattern (clbench/bench/bandwidth.h, stream_start in stream.cl): mantissas from a
 * multiplier modulo a prime, exponents modulo another prime. */
enum { MANTISSAS = 16381, MULTIPLIER = 10123, EXPONENTS = 61, LOWEST_EXPONENT = -30 };
/* Default bytes per array: far beyond the caches of CPUs and GPUs alike; on a device
 * (not a CPU) of 16 GB or more, 1 GiB (clb_stream_default_bytes). */
#define DEFAULT_BYTES (UINT64_C(256) << 20)
#define BIG_BYTES (UINT64_C(1) << 30)
/* Arrays each kernel reads plus writes (read: one store per 16 loads, or per chunk). */
static const double arrays_moved[N_KERNELS] = { 2, 2, 3, 3, 2, 1 + 1.0 / READ_STRIDED, 2 };

uint64_t clb_stream_default_bytes(uint64_t global_bytes, uint64_t max_alloc_bytes, bool cpu)
{
    uint64_t bytes = !cpu && global_bytes >= UINT64_C(16000000000) ? BIG_BYTES : DEFAULT_BYTES;

    if (bytes > max_alloc_bytes)
        bytes = max_alloc_bytes;
    if (bytes > global_bytes / 4)
        bytes = global_bytes / 4;
    return bytes;
}

double clb_stream_start(uint64_t j)
{
    const unsigned g = (unsigned)(j % MANTISSAS) * MULTIPLIER % MANTISSAS;
    const int e = (int)(j % EXPONENTS) + LOWEST_EXPONENT;
    return ldexp(1 + g * 0x1p-14, e);
}

/*
 * acc + a * b in the device's precision: the product rounded then added, or
 * fused into the add (OpenCL C may contract either way). The product is its
 * own statement so that the host's compiler does not contract it either (in
 * C11 mode GCC contracts nothing, clang only within one expression).
 */
static double add_product(double acc, double a, double b, bool fp64, bool fused)
{
    if (fp64) {
        if (fused)
            return fma(a, b, acc);
        const double p = a * b;
        return acc + p;
    }
    const float fa = (float)a, fb = (float)b, facc = (float)acc;
    if (fused)
        return fmaf(fa, fb, facc);
    const float p = fa * fb;
    return facc + p;
}

/* x * y and x + y, each rounded once in the device's precision. */
static double mul_in(double x, double y, bool fp64)
{
    const float p = (float)x * (float)y;
    return fp64 ? x * y : p;
}

static double add_in(double x, double y, bool fp64)
{
    const float t = (float)x + (float)y;
    return fp64 ? x + y : t;
}

int clb_stream_expect_init(struct clb_stream_expect *x, unsigned iters, bool fp64)
{
    const double s = fp64 ? SCALAR : (float)SCALAR;

    *x = (struct clb_stream_expect){ .iters = iters, .fp64 = fp64,
                                     .lo = malloc(3 * MANTISSAS * sizeof(double)),
                                     .hi = malloc(3 * MANTISSAS * sizeof(double)) };
    if (!x->lo || !x->hi) {
        clb_stream_expect_free(x);
        return -1;
    }
    for (unsigned g = 0; g < MANTISSAS; g++) {
        double *lo = x->lo + 3 * g, *hi = x->hi + 3 * g;
        lo[0] = hi[0] = 1 + g * 0x1p-14;
        lo[1] = hi[1] = lo[2] = hi[2] = 0; /* b and c: replaced in the first round */
        for (unsigned r = 0; r < iters; r++)
            for (int side = 0; side < 2; side++) {
                double *v = side ? hi : lo;
                /* copy c = a; mul b = 0.4 c; add c = a + b; triad a = b + 0.4 c, both ways. */
                v[1] = mul_in(s, v[0], fp64);
                v[2] = add_in(v[0], v[1], fp64);
                const double plain = add_product(v[1], s, v[2], fp64, false);
                const double fused = add_product(v[1], s, v[2], fp64, true);
                v[0] = side ? fmax(plain, fused) : fmin(plain, fused);
            }
    }
    return 0;
}

void clb_stream_expect_free(struct clb_stream_expect *x)
{
    free(x->lo);
    free(x->hi);
    x->lo = x->hi = NULL;
}

void clb_stream_expected(const struct clb_stream_expect *x, uint64_t j, int array, double *lo,
                         double *hi)
{
    if (x->iters == 0) {
        *lo = *hi = clb_stream_start(j + (uint64_t)array);
        return;
    }
    /* Exact: a power of two scales every rounding alike (clbench/bench/bandwidth.h). */
    const unsigned g = (unsigned)(j % MANTISSAS) * MULTIPLIER % MANTISSAS;
    const int e = (int)(j % EXPONENTS) + LOWEST_EXPONENT;
    *lo = ldexp(x->lo[3 * g + (unsigned)array], e);
    *hi = ldexp(x->hi[3 * g + (unsigned)array], e);
}

size_t clb_bw_elements(uint64_t bytes, size_t elem)
{
    return (size_t)(bytes / elem) / DOT_CHUNK * DOT_CHUNK;
}

double clb_bw_bytes_per_call(int k, bool cpu, size_t n, size_t elem)
{
    return (k == K_READ && cpu ? 1 + 1.0 / READ_CHUNK : arrays_moved[k]) * (double)n *
           (double)elem;
}

bool clb_bandwidth_host_clock(bool cpu, double device_gbps, double host_gbps)
{
    return cpu && host_gbps > 0 && device_gbps > host_gbps * (1.0 + CLB_CLOCK_AGREE);
}

/* Element j of an array of float or double. */
static double at(const void *x, bool fp64, size_t j)
{
    return fp64 ? ((const double *)x)[j] : ((const float *)x)[j];
}

double clb_stream_dot_replay(const struct clb_stream_outcome *o, bool fused)
{
    const size_t G = o->dot_global, L = o->dot_local;
    if (!G || !L || G % L || !o->a || !o->b)
        return NAN;
    double *slot = calloc(G, sizeof(*slot));
    if (!slot)
        return NAN;
    /* Work-item g adds the elements g, g + G, ... in order into its slot. */
    for (size_t i = 0, g = 0; i < o->n; i++, g = g + 1 == G ? 0 : g + 1)
        slot[g] = add_product(slot[g], at(o->a, o->fp64, i), at(o->b, o->fp64, i), o->fp64,
                              fused);
    struct clb_csum sum = { 0, 0 };
    for (double *v = slot; v < slot + G; v += L) {
        /* The work-group's tree, in the device's precision. */
        for (size_t step = L / 2; step > 0; step /= 2)
            for (size_t l = 0; l < step; l++)
                v[l] = o->fp64 ? v[l] + v[l + step] : (double)((float)v[l] + (float)v[l + step]);
        /* The host's compensated sum of the partials, as partial_sum (bandwidth.c) does. */
        clb_csum_add(&sum, v[0]);
    }
    free(slot);
    return (double)clb_csum_value(&sum);
}

double clb_bw_exact_sum(const void *a, const void *b, bool fp64, size_t n)
{
    struct clb_csum sum = { 0, 0 };
    for (size_t j = 0; j < n; j++)
        clb_csum_add(&sum, b ? at(a, fp64, j) * at(b, fp64, j) : at(a, fp64, j));
    return (double)clb_csum_value(&sum);
}

/* Whether every element of the arrays lies in its range; else `why` names the first that does not. */
static bool arrays_verify(const struct clb_stream_outcome *o, char *why, size_t len)
{
    const void *arrays[3] = { o->a, o->b, o->c };
    struct clb_stream_expect x;
    bool ok = true;

    if (clb_stream_expect_init(&x, o->iters, o->fp64)) {
        snprintf(why, len, "out of host memory");
        return false;
    }
    /* g and the exponent step with j (j + 1's mantissa index is g + 10123 mod 16381), as
     * clb_stream_expected computes them, without a division an element. */
    double scale[EXPONENTS];
    for (int i = 0; i < EXPONENTS; i++)
        scale[i] = ldexp(1, i + LOWEST_EXPONENT);
    for (size_t j = 0, g = 0, ei = 0; ok && j < o->n; j++) {
        for (int k = 0; k < 3; k++) {
            double lo, hi;
            if (!arrays[k])
                continue;
            if (o->iters)
                lo = x.lo[3 * g + (size_t)k] * scale[ei], hi = x.hi[3 * g + (size_t)k] * scale[ei];
            else
                clb_stream_expected(&x, j, k, &lo, &hi);
            const double v = at(arrays[k], o->fp64, j);
            if (!(v >= lo && v <= hi)) { /* NaN too */
                const int digits = o->fp64 ? 17 : 9;
                if (lo == hi)
                    snprintf(why, len, "wrong result: array %c element %zu is %.*g, expected %.*g",
                             "abc"[k], j, digits, v, digits, lo);
                else
                    snprintf(why, len, "wrong result: array %c element %zu is %.*g, expected "
                             "%.*g to %.*g", "abc"[k], j, digits, v, digits, lo, digits, hi);
                ok = false;
                break;
            }
        }
        g = g + MULTIPLIER >= MANTISSAS ? g + MULTIPLIER - MANTISSAS : g + MULTIPLIER;
        ei = ei + 1 == EXPONENTS ? 0 : ei + 1;
    }
    clb_stream_expect_free(&x);
    return ok;
}

bool clb_stream_verify(const struct clb_stream_outcome *o, struct clb_stream_verdict *v)
{
    const double u = o->fp64 ? 0x1p-53 : 0x1p-24;
    const int digits = o->fp64 ? 17 : 9;

    v->arrays[0] = v->dot[0] = v->read[0] = v->chunked[0] = '\0';
    arrays_verify(o, v->arrays, sizeof(v->arrays));
    if (!o->a || !o->b)
        return !v->arrays[0];
    /*
     * The sums are held against the arrays the device holds, not the host's recurrence:
     * an element may sit anywhere in its range (the device fuses the triad or not), and the
     * order of a long sum's roundings follows every bit of its terms. Every term is
     * positive, so a bound relative to the sum holds whatever the terms' magnitudes
     * (2^-85 to 2^62 here). BabelStream's dot is replayed exactly over the device's grid
     * (plain or fused adds; the host's compensated sums of the partials, on both sides,
     * differ by far less than the 4 ulps allowed). The gpu path's read pass adds 16 elements
     * a work-item in sequence: 15 roundings, each partial within (1 + u)^15 - 1, about 15u,
     * of its exact sum, and so the total (16 ulps allowed). The cpu path's adds 32 vectors
     * of 16 into each of two accumulators (31 roundings a lane), adds the two (1) and the
     * 16 lanes in a tree of depth 4: within (1 + u)^36 - 1, about 36u (64 ulps). The chunked dot
     * rounds a product and adds 32 of them a lane, then adds s0 + s1 and 16 lanes in a
     * tree of depth 4: within (1 + u)^38 - 1, about 38u (64 ulps allowed). The read pass
     * and the chunked dot cover whole work-items (n is whole chunks).
     */
    const double plain = clb_stream_dot_replay(o, false), fused = clb_stream_dot_replay(o, true);
    const double dot = fabs(o->dot - fused) < fabs(o->dot - plain) ? fused : plain;
    if (!(fabs(o->dot - dot) <= 4 * u * fabs(dot)))
        snprintf(v->dot, sizeof(v->dot), "wrong result: dot %.*g, expected %.*g", digits,
                 o->dot, digits, dot);
    const size_t per = o->read_chunked ? READ_CHUNK : READ_STRIDED;
    const double read = clb_bw_exact_sum(o->a, NULL, o->fp64, o->n / per * per);
    if (!(fabs(o->read - read) <= (o->read_chunked ? 64 : 16) * u * fabs(read)))
        snprintf(v->read, sizeof(v->read), "wrong result: read sum %.*g, expected %.*g", digits,
                 o->read, digits, read);
    if (o->has_chunked) {
        const double chunked =
            clb_bw_exact_sum(o->a, o->b, o->fp64, o->n / DOT_CHUNK * DOT_CHUNK);
        if (!(fabs(o->dot_chunked - chunked) <= 64 * u * fabs(chunked)))
            snprintf(v->chunked, sizeof(v->chunked), "wrong result: chunked dot %.*g, "
                     "expected %.*g", digits, o->dot_chunked, digits, chunked);
    }
    return !v->arrays[0] && !v->dot[0] && !v->read[0] && !v->chunked[0];
}
