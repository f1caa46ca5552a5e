/*
 * x86-64 kernels. Each function carries its own target attribute, so this
 * file builds with the generic x86-64 flags and only runs AVX code after the
 * dispatcher has checked the CPU.
 */
#include "hostpeak_kernel.h"

#if defined(__x86_64__)
#include <immintrin.h>

/*
 * 12 accumulators everywhere: FMA latency (4 cycles on Zen 4 and Intel since
 * Skylake, 5 on Haswell) times 2 pipes needs 8-10 independent chains in
 * flight, and 12 plus a and q still fit AVX2's and SSE2's 16 registers.
 * AVX-512 has 32, but 12 already saturate both of Intel's 512-bit pipes and
 * Zen 4's one 512-bit FMA per cycle. SSE2 has no FMA: its chains are a
 * multiply then a dependent add (about 7 cycles), so 12 chains keep its 2+2
 * pipes slightly short of full; it is the fallback, not the yardstick.
 */
#define FMA512_PS(x, a, q) _mm512_fmadd_ps(x, a, q)
#define FMA512_PD(x, a, q) _mm512_fmadd_pd(x, a, q)
#define FMA256_PS(x, a, q) _mm256_fmadd_ps(x, a, q)
#define FMA256_PD(x, a, q) _mm256_fmadd_pd(x, a, q)
#define MULADD128_PS(x, a, q) _mm_add_ps(_mm_mul_ps(x, a), q)
#define MULADD128_PD(x, a, q) _mm_add_pd(_mm_mul_pd(x, a), q)

CLB_HP_KERNEL(__attribute__((target("avx512f"))), avx512f_fp32, CLB_HP_REP12, __m512, float, 16,
              _mm512_set1_ps, _mm512_loadu_ps, _mm512_storeu_ps, FMA512_PS)
CLB_HP_KERNEL(__attribute__((target("avx512f"))), avx512f_fp64, CLB_HP_REP12, __m512d, double, 8,
              _mm512_set1_pd, _mm512_loadu_pd, _mm512_storeu_pd, FMA512_PD)
CLB_HP_KERNEL(__attribute__((target("avx2,fma"))), avx2_fp32, CLB_HP_REP12, __m256, float, 8,
              _mm256_set1_ps, _mm256_loadu_ps, _mm256_storeu_ps, FMA256_PS)
CLB_HP_KERNEL(__attribute__((target("avx2,fma"))), avx2_fp64, CLB_HP_REP12, __m256d, double, 4,
              _mm256_set1_pd, _mm256_loadu_pd, _mm256_storeu_pd, FMA256_PD)
CLB_HP_KERNEL(, sse2_fp32, CLB_HP_REP12, __m128, float, 4, _mm_set1_ps, _mm_loadu_ps,
              _mm_storeu_ps, MULADD128_PS)
CLB_HP_KERNEL(, sse2_fp64, CLB_HP_REP12, __m128d, double, 2, _mm_set1_pd, _mm_loadu_pd,
              _mm_storeu_pd, MULADD128_PD)

uint64_t clb_hp_add_chain(uint64_t x, uint64_t iterations)
{
    /* A register, not an immediate: renamers that fold small immediate adds (Intel since
     * Golden Cove) cannot run this chain faster than one add a cycle. */
    const uint64_t one = 1;
    __asm__ volatile("1:\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "add %2, %0\n\t"
        "dec %1\n\t"
        "jnz 1b\n\t"
                     : "+r"(x), "+r"(iterations)
                     : "r"(one)
                     : "cc");
    return x;
}

static bool has_avx512f(const struct clb_cpu_isa *isa)
{
    return isa->avx512f;
}

static bool has_avx2_fma(const struct clb_cpu_isa *isa)
{
    return isa->avx2 && isa->fma;
}

static bool has_sse2(const struct clb_cpu_isa *isa)
{
    return isa->sse2;
}

const struct clb_host_peak_variant clb_hp_avx512f_fp32 = {
    .name = "avx512f", .precision = CLB_FP32, .lanes = 16, .acc = 12, .fused = true,
    .supported = has_avx512f, .kernel = avx512f_fp32,
};
const struct clb_host_peak_variant clb_hp_avx512f_fp64 = {
    .name = "avx512f", .precision = CLB_FP64, .lanes = 8, .acc = 12, .fused = true,
    .supported = has_avx512f, .kernel = avx512f_fp64,
};
const struct clb_host_peak_variant clb_hp_avx2_fp32 = {
    .name = "avx2+fma", .precision = CLB_FP32, .lanes = 8, .acc = 12, .fused = true,
    .supported = has_avx2_fma, .kernel = avx2_fp32,
};
const struct clb_host_peak_variant clb_hp_avx2_fp64 = {
    .name = "avx2+fma", .precision = CLB_FP64, .lanes = 4, .acc = 12, .fused = true,
    .supported = has_avx2_fma, .kernel = avx2_fp64,
};
const struct clb_host_peak_variant clb_hp_sse2_fp32 = {
    .name = "sse2", .precision = CLB_FP32, .lanes = 4, .acc = 12, .fused = false,
    .supported = has_sse2, .kernel = sse2_fp32,
};
const struct clb_host_peak_variant clb_hp_sse2_fp64 = {
    .name = "sse2", .precision = CLB_FP64, .lanes = 2, .acc = 12, .fused = false,
    .supported = has_sse2, .kernel = sse2_fp64,
};
#endif
