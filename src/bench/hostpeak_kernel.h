#ifndef CLBENCH_HOSTPEAK_KERNEL_H
#define CLBENCH_HOSTPEAK_KERNEL_H

/*
 * Private to src/bench/hostpeak*.c: the one kernel pattern every ISA stamps
 * out, and the variants each file defines (registered in hostpeak.c).
 */
#include <stdint.h>

#include "clbench/bench/hostpeak.h"

/*
 * The clock's yardstick (hostpeak_x86.c, hostpeak_arm.c): returns x + 16 x
 * iterations (iterations >= 1), adding a register holding 1 at a time, so
 * each add waits for the one before: one add a cycle on every x86-64 and
 * AArch64 core (a register operand: some renamers fold small immediate
 * adds). Written in assembly so no optimisation level folds or spills it.
 * CLB_HP_HAS_ADD_CHAIN is 0 on architectures without it.
 */
#if defined(__x86_64__) || defined(__aarch64__)
#define CLB_HP_HAS_ADD_CHAIN 1
uint64_t clb_hp_add_chain(uint64_t x, uint64_t iterations);
#else
#define CLB_HP_HAS_ADD_CHAIN 0
#endif
enum { CLB_HP_ADDS_PER_ITERATION = 16 };

#define CLB_HP_REP12(X, ...)                                                                      \
    X(0, __VA_ARGS__) X(1, __VA_ARGS__) X(2, __VA_ARGS__) X(3, __VA_ARGS__) X(4, __VA_ARGS__)   \
    X(5, __VA_ARGS__) X(6, __VA_ARGS__) X(7, __VA_ARGS__) X(8, __VA_ARGS__) X(9, __VA_ARGS__)   \
    X(10, __VA_ARGS__) X(11, __VA_ARGS__)
#define CLB_HP_REP24(X, ...)                                                                      \
    CLB_HP_REP12(X, __VA_ARGS__)                                                                  \
    X(12, __VA_ARGS__) X(13, __VA_ARGS__) X(14, __VA_ARGS__) X(15, __VA_ARGS__)                 \
    X(16, __VA_ARGS__) X(17, __VA_ARGS__) X(18, __VA_ARGS__) X(19, __VA_ARGS__)                 \
    X(20, __VA_ARGS__) X(21, __VA_ARGS__) X(22, __VA_ARGS__) X(23, __VA_ARGS__)

#define CLB_HP_LOAD(i, V, LOADU, W) V x##i = LOADU(p + (W) * (i));
#define CLB_HP_ROUND(i, STEP) x##i = STEP(x##i, a, q);
#define CLB_HP_STORE(i, STOREU, W) STOREU(p + (W) * (i), x##i);

/*
 * A kernel `fn` for clb_host_peak_variant.kernel: REP (CLB_HP_REP12/24)
 * accumulators of vector type V holding W elements of type T each; SET1
 * broadcasts, LOADU/STOREU move W unaligned elements, STEP(x, a, q) is one
 * round. ATTR carries the function's target attribute (or nothing).
 * The accumulators are named variables, not an array, so they stay in
 * registers at -O2.
 */
#define CLB_HP_KERNEL(ATTR, fn, REP, V, T, W, SET1, LOADU, STOREU, STEP)                        \
    ATTR static void fn(void *xv, const void *aqv, uint64_t rounds)                             \
    {                                                                                            \
        T *p = xv;                                                                               \
        const T *aq = aqv;                                                                       \
        const V a = SET1(aq[0]), q = SET1(aq[1]);                                                \
        REP(CLB_HP_LOAD, V, LOADU, W)                                                            \
        for (uint64_t r = 0; r < rounds; r++) {                                                  \
            REP(CLB_HP_ROUND, STEP)                                                              \
        }                                                                                        \
        REP(CLB_HP_STORE, STOREU, W)                                                             \
    }

extern const struct clb_host_peak_variant clb_hp_scalar_fp32, clb_hp_scalar_fp64;
#if defined(__x86_64__)
extern const struct clb_host_peak_variant clb_hp_avx512f_fp32, clb_hp_avx512f_fp64;
extern const struct clb_host_peak_variant clb_hp_avx2_fp32, clb_hp_avx2_fp64;
extern const struct clb_host_peak_variant clb_hp_sse2_fp32, clb_hp_sse2_fp64;
#endif
#if defined(__aarch64__)
extern const struct clb_host_peak_variant clb_hp_sve_fp32, clb_hp_sve_fp64;
extern const struct clb_host_peak_variant clb_hp_neon_fp32, clb_hp_neon_fp64;
#endif

#endif
