/*
 * aarch64 kernels: NEON (Advanced SIMD) is baseline there, so it needs no
 * attribute; the SVE kernels are built for SVE by a pragma around them and
 * run only after the dispatcher has seen SVE in AT_HWCAP, at the vector
 * length Linux gives the process (prctl PR_SVE_GET_VL: 128 to 2048 bits), so
 * one binary measures a 128-bit Neoverse V2 and a 512-bit A64FX alike. On
 * cores whose SVE and NEON pipes are the same units (Neoverse V2, N2: 128-bit
 * SVE) both reach the same peak; where SVE is wider than NEON's 128 bits
 * (Neoverse V1's 2 x 256, A64FX's 2 x 512) only SVE reaches it.
 */
#include "hostpeak_kernel.h"

#if defined(__aarch64__)
#include <arm_neon.h>

/*
 * 24 accumulators: FMA latency 4 cycles times up to 4 128-bit pipes (Neoverse
 * V1/V2, Apple cores) needs 16 chains in flight; 24 leave margin and, with a
 * and q, fit the 32 vector registers. The chain runs through the addend,
 * x <- x + a * q (the same value with a = 1): FMLA accumulates into its
 * destination, and x * a + q would need a copy of q per chain and round,
 * which spills.
 */
#define FMA_F32(x, a, q) vfmaq_f32(x, a, q)
#define FMA_F64(x, a, q) vfmaq_f64(x, a, q)

CLB_HP_KERNEL(, neon_fp32, CLB_HP_REP24, float32x4_t, float, 4, vdupq_n_f32, vld1q_f32,
              vst1q_f32, FMA_F32)
CLB_HP_KERNEL(, neon_fp64, CLB_HP_REP24, float64x2_t, double, 2, vdupq_n_f64, vld1q_f64,
              vst1q_f64, FMA_F64)

/*
 * SVE: the same 24 chains (32 Z registers hold them, a and q), each an
 * all-true-predicated FMLA, which like NEON's accumulates into its
 * destination. A vector holds svcntw() floats or svcntd() doubles: the
 * length this process has, which clb_cpu_isa.sve_bits reports.
 */
#pragma GCC push_options
#pragma GCC target("+sve")
#include <arm_sve.h>

#define SVE_LD_F32(p) svld1_f32(svptrue_b32(), p)
#define SVE_ST_F32(p, x) svst1_f32(svptrue_b32(), p, x)
#define SVE_FMA_F32(x, a, q) svmla_f32_x(svptrue_b32(), x, a, q)
#define SVE_LD_F64(p) svld1_f64(svptrue_b64(), p)
#define SVE_ST_F64(p, x) svst1_f64(svptrue_b64(), p, x)
#define SVE_FMA_F64(x, a, q) svmla_f64_x(svptrue_b64(), x, a, q)

CLB_HP_KERNEL(, sve_fp32, CLB_HP_REP24, svfloat32_t, float, svcntw(), svdup_n_f32, SVE_LD_F32,
              SVE_ST_F32, SVE_FMA_F32)
CLB_HP_KERNEL(, sve_fp64, CLB_HP_REP24, svfloat64_t, double, svcntd(), svdup_n_f64, SVE_LD_F64,
              SVE_ST_F64, SVE_FMA_F64)
#pragma GCC pop_options

uint64_t clb_hp_add_chain(uint64_t x, uint64_t iterations)
{
    const uint64_t one = 1; /* a register operand, as on x86 */
    __asm__ volatile("1:\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "add %0, %0, %2\n\t"
                     "subs %1, %1, #1\n\t"
                     "b.ne 1b\n\t"
                     : "+r"(x), "+r"(iterations)
                     : "r"(one)
                     : "cc");
    return x;
}

static bool has_neon(const struct clb_cpu_isa *isa)
{
    return isa->neon;
}

static bool has_sve(const struct clb_cpu_isa *isa)
{
    return isa->sve && isa->sve_bits;
}

/* From the OS's figure, not svcntw(): this runs on CPUs without SVE too (an unavailable row). */
static unsigned sve_lanes(unsigned element_bits)
{
    struct clb_cpu_isa isa;

    clb_cpu_isa_detect(&isa);
    return isa.sve_bits / element_bits;
}

static unsigned sve_lanes_fp32(void)
{
    return sve_lanes(32);
}

static unsigned sve_lanes_fp64(void)
{
    return sve_lanes(64);
}

const struct clb_host_peak_variant clb_hp_sve_fp32 = {
    .name = "sve", .precision = CLB_FP32, .lanes_now = sve_lanes_fp32, .acc = 24, .fused = true,
    .supported = has_sve, .kernel = sve_fp32,
};
const struct clb_host_peak_variant clb_hp_sve_fp64 = {
    .name = "sve", .precision = CLB_FP64, .lanes_now = sve_lanes_fp64, .acc = 24, .fused = true,
    .supported = has_sve, .kernel = sve_fp64,
};

const struct clb_host_peak_variant clb_hp_neon_fp32 = {
    .name = "neon", .precision = CLB_FP32, .lanes = 4, .acc = 24, .fused = true,
    .supported = has_neon, .kernel = neon_fp32,
};
const struct clb_host_peak_variant clb_hp_neon_fp64 = {
    .name = "neon", .precision = CLB_FP64, .lanes = 2, .acc = 24, .fused = true,
    .supported = has_neon, .kernel = neon_fp64,
};
#endif
