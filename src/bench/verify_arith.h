#ifndef CLBENCH_BENCH_VERIFY_ARITH_H
#define CLBENCH_BENCH_VERIFY_ARITH_H

/*
 * Private to src/bench/verify*.c: the arithmetic the reference is computed
 * and compared in (clbench/bench/verify.h), as inline code every part
 * compiles the same way.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>

#include "clbench/util/csum.h"

/*
 * The reference's arithmetic, chosen once for the build: long double with Neumaier's sums
 * (clb_csum) where long double is x87's 64-bit extended format, in hardware; elsewhere (IEEE
 * binary128, in software on aarch64, or no wider than double) compensated double (clb_dsum),
 * whose bound is the tighter where it matters (util/csum.h has both, and compares them).
 * -DCLB_VERIFY_COMPENSATED_DOUBLE=0 or 1 chooses either anywhere, to test and time both.
 *   wide           a value held beyond double: B x, y'A, the references, the sums
 *   struct acc     a compensated sum of products and the sum of their magnitudes
 *   acc_mul        adds x*y, doubles; returns it rounded to double
 *   acc_mulw       adds x*y, y wide (as acc_value leaves it)
 *   acc_err        a bound on |acc_value - the exact sum| after n terms
 *   acc_err_exact  the same where every term is exact in long double (products of fp32 or
 *                  fp16 inputs, of an input and a weight, of +-1 and a wide)
 */
#ifndef CLB_VERIFY_COMPENSATED_DOUBLE
#define CLB_VERIFY_COMPENSATED_DOUBLE (LDBL_MANT_DIG != 64)
#endif

#if CLB_VERIFY_COMPENSATED_DOUBLE
typedef struct clb_dd wide;
struct acc {
    struct clb_dsum sum;
};

static inline double acc_mul(struct acc *a, double x, double y)
{
    return clb_dsum_add_prod(&a->sum, x, y);
}

static inline double acc_mulw(struct acc *a, double x, wide y)
{
    return clb_dsum_add_prod_dd(&a->sum, x, y);
}

static inline wide acc_value(const struct acc *a)
{
    return clb_dsum_value(&a->sum);
}

static inline double acc_abs(const struct acc *a)
{
    return a->sum.abs;
}

static inline double acc_err_exact(const struct acc *a, uint64_t n)
{
    return clb_dsum_err(&a->sum, n);
}

static inline double acc_err(const struct acc *a, uint64_t n)
{
    return clb_dsum_err(&a->sum, n);
}

static inline wide wide_of(double x)
{
    return (wide){ x, 0 };
}

static inline double wide_double(wide w)
{
    return w.hi;
}
#else
/* long double's unit roundoff: 2^-64 on x86-64, 2^-113 where it is binary128. */
#define U_LD ((long double)LDBL_EPSILON / 2)

typedef long double wide;
struct acc {
    struct clb_csum sum;
    long double abs;
};

static inline double acc_mulw(struct acc *a, double x, wide y)
{
    const long double t = x * y;
    clb_csum_add(&a->sum, t);
    a->abs += fabsl(t);
    return (double)t;
}

static inline double acc_mul(struct acc *a, double x, double y)
{
    return acc_mulw(a, x, y);
}

static inline wide acc_value(const struct acc *a)
{
    return clb_csum_value(&a->sum);
}

static inline double acc_abs(const struct acc *a)
{
    return (double)a->abs;
}

static inline double acc_err_exact(const struct acc *a, uint64_t n)
{
    return clb_csum_err(acc_value(a), a->abs, n);
}

/*
 * Each product rounded once: exact on x86-64 where a weight of 5 bits times an input fits
 * long double's 64, but not for fp64 products, a wide factor, or where long double is double
 * (valgrind, other ABIs).
 */
static inline double acc_err(const struct acc *a, uint64_t n)
{
    return acc_err_exact(a, n) + (double)(U_LD * a->abs);
}

static inline wide wide_of(double x)
{
    return x;
}

static inline double wide_double(wide w)
{
    return (double)w;
}
#endif

/*
 * fma is an instruction on aarch64 (and wherever the build targets FMA), but the x86-64
 * baseline has none: there the loops of compensated double come twice, with FMA and
 * without, chosen at load time by the CPU (glibc's fma(), no instruction, in the latter).
 */
#if CLB_VERIFY_COMPENSATED_DOUBLE && defined(__x86_64__) && !defined(__FMA__) && \
    defined(__ELF__) && defined(__GNUC__)
#define FMA_CLONES __attribute__((target_clones("fma", "default")))
#else
#define FMA_CLONES
#endif

/* alpha a + beta b, and a bound on the error it adds to a's and b's. */
static inline wide combine(double alpha, wide a, double beta, wide b, double *err)
{
    struct acc z = { 0 };

    acc_mulw(&z, alpha, a);
    acc_mulw(&z, beta, b);
    *err = acc_err(&z, 2);
    return acc_value(&z);
}

/* |a - b| in double, and a bound on its error beyond that last rounding (relative to it). */
static inline double distance(wide a, wide b, double *err)
{
    struct acc z = { 0 };

    acc_mulw(&z, 1, a);
    acc_mulw(&z, -1, b);
    *err = acc_err_exact(&z, 2);
    return fabs(wide_double(acc_value(&z)));
}

#endif
