/* Plain C kernels, for any CPU. */
#include "hostpeak_kernel.h"

/*
 * A multiply and an add, never fma(): without an FMA instruction fma() is a
 * slow library call. Built with -std=c11, GCC does not contract them into one
 * (-ffp-contract=off); clang may, where the ISA has FMA. Either way a round
 * counts 2 flops and stays exact.
 * GCC and clang at -O2 pack the 12 independent chains into SIMD vectors (SLP),
 * which would make this "scalar" row an SSE or NEON one in disguise: an empty
 * asm that claims to change x in a scalar FP register stops that, and emits
 * nothing.
 */
#if defined(__x86_64__) && defined(__GNUC__)
#define KEEP_SCALAR(x) __asm__("" : "+x"(x))
#elif defined(__aarch64__) && defined(__GNUC__)
#define KEEP_SCALAR(x) __asm__("" : "+w"(x))
#else
#define KEEP_SCALAR(x) (void)0
#endif

static inline float muladd32(float x, float a, float q)
{
    x = x * a + q;
    KEEP_SCALAR(x);
    return x;
}

static inline double muladd64(double x, double a, double q)
{
    x = x * a + q;
    KEEP_SCALAR(x);
    return x;
}

#define SET1(v) (v)
#define LOADU(p) (*(p))
#define STOREU(p, v) (*(p) = (v))

CLB_HP_KERNEL(, scalar_fp32, CLB_HP_REP12, float, float, 1, SET1, LOADU, STOREU, muladd32)
CLB_HP_KERNEL(, scalar_fp64, CLB_HP_REP12, double, double, 1, SET1, LOADU, STOREU, muladd64)

static bool always(const struct clb_cpu_isa *isa)
{
    (void)isa;
    return true;
}

const struct clb_host_peak_variant clb_hp_scalar_fp32 = {
    .name = "scalar", .precision = CLB_FP32, .lanes = 1, .acc = 12, .fused = false,
    .supported = always, .kernel = scalar_fp32,
};
const struct clb_host_peak_variant clb_hp_scalar_fp64 = {
    .name = "scalar", .precision = CLB_FP64, .lanes = 1, .acc = 12, .fused = false,
    .supported = always, .kernel = scalar_fp64,
};
