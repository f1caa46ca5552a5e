/*
 * aarch64 kernels: NEON (Advanced SIMD) is baseline there, so no attribute is
 * needed. SVE is detected and reported (clbench/util/cpu.h) but measured with NEON:
 * an SVE kernel behind GCC 12's function-level target("+sve") could not be
 * built or run here (no aarch64 compiler or machine), and an untested kernel
 * is no yardstick. Most SVE cores (Neoverse V1, V2, N2) reach the same peak
 * with NEON, whose pipes match their SVE throughput; on A64FX, whose 512-bit
 * SVE has no NEON equivalent, this figure is a lower bound.
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

const struct clb_host_peak_variant clb_hp_neon_fp32 = {
    .name = "neon", .precision = "fp32", .lanes = 4, .acc = 24, .fused = true,
    .supported = has_neon, .kernel = neon_fp32,
};
const struct clb_host_peak_variant clb_hp_neon_fp64 = {
    .name = "neon", .precision = "fp64", .lanes = 2, .acc = 24, .fused = true,
    .supported = has_neon, .kernel = neon_fp64,
};
#endif
