#ifndef CLBENCH_UTIL_CSUM_H
#define CLBENCH_UTIL_CSUM_H

#include <math.h>

/*
 * Neumaier's compensated sum, in long double: the result is within
 * 2u|s| + 4n^2u^2 sum|t| of the exact sum of n terms t (u: long double's
 * unit roundoff, double's where long double is double, as under valgrind),
 * so a long reference sum adds next to none of its own rounding.
 * Start from { 0, 0 }.
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

#endif
