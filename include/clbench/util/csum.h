#ifndef CLBENCH_UTIL_CSUM_H
#define CLBENCH_UTIL_CSUM_H

#include <float.h>
#include <math.h>
#include <stdint.h>

/*
 * Compensated sums, two kinds: in long double (fast where that is x87's 64-bit extended
 * format, in hardware) and in double with error-free transformations (where long double is
 * binary128 in software, as on aarch64, or no wider than double). Each comes with a bound on
 * its own error: absolute, in the units of the terms summed.
 *
 * Neumaier's compensated sum, in long double: after n terms t the result is within
 *     clb_csum_err(result, sum |t|, n) = 2u |result| + 4 n^2 u^2 sum |t|
 * of their exact sum (u: long double's unit roundoff, 2^-64 on x86-64; double's where long
 * double is double, as under valgrind, which this constant does not see), so a long
 * reference sum adds next to none of its own rounding. Start from { 0, 0 }.
 */
struct clb_csum {
    long double s, c;
};

static inline void clb_csum_add(struct clb_csum *a, long double v)
{
    long double t = a->s + v;
    a->c += fabsl(a->s) >= fabsl(v) ? (a->s - t) + v : (v - t) + a->s;
    a->s = t;
}

static inline long double clb_csum_value(const struct clb_csum *a)
{
    return a->s + a->c;
}

static inline double clb_csum_err(long double value, long double abs_sum, uint64_t n)
{
    const long double u = (long double)LDBL_EPSILON / 2, nu = (long double)n * u;
    return (double)(2 * u * fabsl(value) + 4 * nu * nu * abs_sum);
}

/*
 * Compensated double: Ogita, Rump and Oishi's Dot2 ("Accurate sum and dot product", SIAM J.
 * Sci. Comput. 26, 2005), its result kept as the unevaluated pair s + c instead of rounded
 * to one double, so that it is accurate to about u^2 = 2^-106 of the terms' magnitudes.
 *
 * struct clb_dd is the value hi + lo, exactly; normalised (as clb_dsum_value leaves it):
 * hi = fl(hi + lo), so |lo| <= u |hi|, with u = 2^-53.
 *
 * struct clb_dsum: start from { 0, 0, 0 } and add n terms, each a product x*y of doubles
 * (clb_dsum_add_prod) or of a double and a normalised clb_dd (clb_dsum_add_prod_dd). Then
 * clb_dsum_value, exactly s + c, is within
 *     clb_dsum_err(a, n) = 2 gamma_(n+2)^2 A + n 2^-1074,   gamma_j = j u / (1 - j u),
 * of the exact sum of the n products, where A = a->abs, the sum (in double) of the terms'
 * rounded magnitudes |fl(x y)|. It holds for any order and signs, with no branch, while
 * (n + 2) u <= 1/8 (n up to 2^50; beyond, the bound is infinite) and nothing overflows.
 *
 * Why: each term is split into p = fl(x y) and e. For doubles e = fma(x, y, -p) = x y - p
 * exactly (TwoProd); for y = hi + lo, e = fl(fma(x, hi, -p) + fl(x lo)), within 3.0001 u^2 |p|
 * of x y - p, and |e| <= 2.0001 u |p|. Where a product underflows, each of its two roundings
 * may err by half the least subnormal more: the n 2^-1074. TwoSum (Knuth's: no branch, no
 * order of magnitudes assumed) makes s_(i-1) + p_i = s_i + q_i exactly, and the q_i, the
 * roundings of a recursive sum of the p_i, add up to sum |q_i| <= gamma_(n-1) P, P = sum |p_i|.
 * c sums fl(q_i + e_i) in n roundings, so
 *     |s + c - sum x y| <= gamma_n (sum |q_i| + sum |e_i|) + sum (e_i's own errors)
 *                       <= (gamma_n gamma_(n-1) + 2.0001 u gamma_n + 3.0001 u^2) P
 *                       <= gamma_(n+2)^2 P,
 * and P <= A / (1 - gamma_(n-1)): the factor 2 covers that and the bound's own rounding.
 *
 * Against clb_csum on x86-64 (u = 2^-64) this has no term in |result| (clb_csum's 2^-63
 * |result|), and A's coefficient, about (n + 2)^2 2^-105, is below the 2^-64 sum |t| that a
 * long double sum of rounded products carries (fp64 products, or products with a wide
 * factor) while n + 2 <= 2^20.5: it is the tighter there. Where every long double product
 * is exact (fp32, fp16 inputs), clb_csum's own 4 n^2 2^-128 sum |t| + 2^-63 |result| is
 * the tighter only under a cancellation sum |t| / |result| beyond about 2^41 / (n + 2)^2.
 */
struct clb_dd {
    double hi, lo;
};

struct clb_dsum {
    double s, c, abs;
};

/* a + b = s + *e exactly, s = fl(a + b). */
static inline double clb_two_sum(double a, double b, double *e)
{
    const double s = a + b, bb = s - a;
    *e = (a - (s - bb)) + (b - bb);
    return s;
}

/* Adds the term p + e, p the rounded product and e its (much smaller) rest. */
static inline void clb_dsum_add(struct clb_dsum *a, double p, double e)
{
    double q;
    a->s = clb_two_sum(a->s, p, &q);
    a->c += q + e;
    a->abs += fabs(p);
}

/* Adds x*y; returns fl(x*y). fma must be an instruction for this to be fast. */
static inline double clb_dsum_add_prod(struct clb_dsum *a, double x, double y)
{
    const double p = x * y;
    clb_dsum_add(a, p, fma(x, y, -p));
    return p;
}

/* Adds x*(y.hi + y.lo), y normalised; returns fl(x*y.hi). */
static inline double clb_dsum_add_prod_dd(struct clb_dsum *a, double x, struct clb_dd y)
{
    const double p = x * y.hi;
    clb_dsum_add(a, p, fma(x, y.hi, -p) + x * y.lo);
    return p;
}

/* s + c exactly, normalised. */
static inline struct clb_dd clb_dsum_value(const struct clb_dsum *a)
{
    struct clb_dd v;
    v.hi = clb_two_sum(a->s, a->c, &v.lo);
    return v;
}

/* The bound above after n terms. */
static inline double clb_dsum_err(const struct clb_dsum *a, uint64_t n)
{
    const double nu = (double)(n + 2) * 0x1p-53, g = nu / (1 - nu);
    return nu <= 0x1p-3 ? 2 * g * g * a->abs + (double)n * 0x1p-1074 : INFINITY;
}

#endif
