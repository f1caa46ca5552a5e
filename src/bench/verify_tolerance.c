#include "verify_parts.h"

#include <math.h>

/*
 * How far a sum of N squared errors may exceed the modelled variance: the
 * model is an upper estimate (a correct result's ratio is 0.3 to 0.7), the
 * sum fluctuates like chi-square/N, and one entry whose partial sums
 * happened to wander far (their squares' sum has an exponential tail) can
 * dominate a short row alone: 400/N covers that in rows of 16 to 256 entries.
 */
double clb_vf_tau(double n)
{
    return fmax(1.5 + 10.0 / sqrt(n), 400.0 / n);
}

/*
 * The absolute error one operation may add near zero, beyond u times its
 * result: the smallest normal number, as a device that flushes subnormals to
 * zero may (OpenCL allows it for fp16 and fp32 without CL_FP_DENORM).
 */
double clb_vf_underflow_unit(enum clb_precision p)
{
    return p == CLB_FP16 ? 0x1p-14 : p == CLB_FP32 ? 0x1p-126 : 0x1p-1022;
}

/*
 * Operations whose underflow error reaches an entry: the K sums and products
 * (scaled by alpha) and alpha's product when alpha is not 0, beta's product
 * when beta is not 0. With both 0 the result must be exactly 0.
 */
double clb_vf_underflow_ops(const struct clb_gemm_data *d, bool squared)
{
    const double k1 = (double)d->shape.k + 1;
    return (d->alpha != 0 ? (squared ? d->alpha * d->alpha : fabs(d->alpha)) * k1 + 1 : 0) +
           (d->beta != 0 ? 1 : 0);
}

/* Rigorous bound gamma_n = n u / (1 - n u) of n roundings; infinite when n u >= 1. */
double clb_vf_gamma_n(double n, double u)
{
    return n * u < 1.0 ? n * u / (1.0 - n * u) : INFINITY;
}

/*
 * Per entry: the tolerance and the modelled variance from R, S (sum |ab|),
 * P (sum (ab)^2), c0 and the reference's own error bound.
 */
void clb_vf_entry_tolerance(const struct clb_gemm_reference *r, double ref, double s, double p,
                            double c0, double ref_err, double *tol, double *var)
{
    const struct clb_gemm_data *d = r->data;
    const double k = (double)d->shape.k;
    const double u = clb_precision_unit_roundoff(d->precision);
    const double ul = clb_vf_underflow_unit(d->precision);
    const double v = r->u2_3 * (d->alpha * d->alpha * (k + 3) / 2 * p + 3 * ref * ref +
                                3 * d->beta * d->beta * c0 * c0) +
                     clb_vf_underflow_ops(d, true) * ul * ul / 3 + ref_err * ref_err;
    const double rigorous =
        clb_vf_gamma_n(k + 3, u) * (fabs(d->alpha) * s + fabs(d->beta * c0)) +
        clb_vf_underflow_ops(d, false) * ul;

    *var = v;
    *tol = fmin(rigorous, LAMBDA_ENTRY * sqrt(v)) + ref_err;
}
