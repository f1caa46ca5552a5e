/*
 * Peak arithmetic rate: each work-item runs ITERS rounds of CHAINS (1..8,
 * default 8) independent multiply-add chains on vectors of WIDTH elements of
 * type T, enough independent work to keep every FMA pipe busy (latency ~4
 * cycles x 2 pipes on CPUs: 8 chains; on GPUs warps interleave, and the host
 * holds a work-item's accumulators, CHAINS x WIDTH elements, to a register
 * budget: clb_peak_chains in clbench/bench/micro.h). One round is
 * CHAINS * WIDTH * 2 operations.
 *
 * Build options: -DT=float|double|half|uint|ushort|uchar -DWIDTH=1|2|4|8|16
 * -DITERS=1024 (uchar: 1000) -DCHAINS=1..8, plus -DT_IS_DOUBLE, -DT_IS_HALF or
 * -DT_IS_UINT (uint, ushort, uchar) for those types and -DT_IS_NARROW for ushort and uchar.
 * Arguments: out (one element per work-item: float for half and float, uint
 * for ushort and uchar, T otherwise), a, b (the multiply-add coefficients).
 *
 * Floating point: x <- fma(x, a, b) with a = 1, b = q = 2^-10. Chain k
 * (0..CHAINS-1) of lane l of work-item g starts at -1 + u q, u = k + 8 l +
 * 128 (g mod 7) < 896, so every value it takes is a multiple of q below 1 in
 * magnitude: exact in half, float and double, fused or not. After ITERS =
 * 1024 rounds it holds exactly u q, and a skipped round leaves it q short.
 * Integers: x <- x * a + b (mod 2^32, 2^16, 2^8), exact by nature, from
 * k + 1000 l + 7919 g (uint) or k + 9 l + 7919 g (ushort, uchar: an odd lane
 * step, so a lane copied to the others changes the sum even mod 2^8). The
 * host passes 1664525 and 1013904223 truncated to T: a = 1 mod 4 and b odd,
 * so every chain has full period 2^bits and no round leaves it unchanged;
 * uchar runs 1000 rounds, no multiple of its period 256, so that even a loop
 * that never ran changes the result.
 * Starts differ per chain, lane and neighbouring work-item, so computing one
 * lane or one work-item of a warp and broadcasting it changes the result.
 *
 * Each work-item returns the sum over its lanes of its chains' sum, in
 * float for half (exact: multiples of 2^-10 below 2^8), in uint for ushort
 * and uchar (each chain's value, never wrapping: a sum mod 2^8 of up to 128
 * chains would not see a loop that never ran) and in T otherwise (exact
 * for float and double; wrapping for uint), so the host demands equality.
 *
 * -DT_IS_DOT (T=uint, WIDTH=1): cl_khr_integer_dot_product. Each chain is
 * x <- dot_acc_sat(bytes of x, bytes of a, x), unsigned, a 4x8-bit dot
 * product accumulated into x and fed back as the next operand (so nothing
 * is loop-invariant), from x = b (1 + k + 8 (g mod 7)) with b = 0x01010101.
 * The host passes a = bytes (3, 5, 7, 11): x never stops growing (every
 * round adds at least one non-zero byte times its coefficient) and stays
 * below 2^30, so the accumulation never saturates and a skipped round leaves
 * a chain short. One dot_acc_sat is 8 operations (4 multiplies, 4 adds), as
 * clpeak counts. -DDOT_PACKED uses dot_acc_sat_4x8packed_uu_uint, -DDOT_VECTOR
 * the uchar4 form; -DDOT_EMULATED (the test hook
 * CLBENCH_FAKE_INTEGER_DOT_PRODUCT) writes the same arithmetic out in
 * OpenCL C, where no driver has the extension.
 *
 * -DCLB_COUNT_OPS (tests only, never timed): a fourth argument, __global uint
 * *ops, receives per work-item the operations its steps ran, counted where
 * they run: each STEP adds 2 per element of the vector it updates (vec_step:
 * one multiply and one add), and the emulated dot product 2 per byte pair it
 * multiplies and adds (a built-in dot_acc_sat: 2 per byte of its uchar4
 * inputs). The count follows the loop as compiled (its ITERS, its chains), so
 * a test holds the host's work count against it (tests/device/test_peakcount.c).
 */
#if defined(T_IS_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#elif defined(T_IS_HALF)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#elif defined(T_IS_DOT) && !defined(DOT_EMULATED)
#pragma OPENCL EXTENSION cl_khr_integer_dot_product : enable
#endif

#define CAT_(t, w) t##w
#define CAT(t, w) CAT_(t, w)

#ifndef CHAINS
#define CHAINS 8
#endif
#if CHAINS < 1 || CHAINS > 8
#error "CHAINS must be 1..8"
#endif
/* EACH(M): M(0) .. M(CHAINS - 1), the chains x0 .. x<CHAINS-1>. */
#define EACH1(M) M(0)
#define EACH2(M) EACH1(M) M(1)
#define EACH3(M) EACH2(M) M(2)
#define EACH4(M) EACH3(M) M(3)
#define EACH5(M) EACH4(M) M(4)
#define EACH6(M) EACH5(M) M(5)
#define EACH7(M) EACH6(M) M(6)
#define EACH8(M) EACH7(M) M(7)
#define EACH(M) CAT(EACH, CHAINS)(M)

/* ACC: the type of the sums and of out. */
#if defined(T_IS_HALF)
#define ACC float
#elif defined(T_IS_NARROW)
#define ACC uint
#else
#define ACC T
#endif
#if WIDTH == 1
#define V T
#define VACC ACC
#else
#define V CAT(T, WIDTH)
#define VACC CAT(ACC, WIDTH)
#endif
#if defined(T_IS_HALF) || defined(T_IS_NARROW)
#define WIDEN(x) CAT(convert_, VACC)(x)
#else
#define WIDEN(x) (x)
#endif

#if defined(T_IS_DOT)
#if !defined(DOT_EMULATED) && !defined(cl_khr_integer_dot_product) && \
    !defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
#error "the OpenCL C compiler does not define cl_khr_integer_dot_product"
#endif
#if defined(DOT_EMULATED)
/* The unsigned packed form written out: bytes multiplied pairwise, summed, saturated. */
#if defined(CLB_COUNT_OPS)
uint dot_acc_emulated(uint x, uint y, uint acc, uint *n_ops)
#else
uint dot_acc_emulated(uint x, uint y, uint acc)
#endif
{
    ulong s = (ulong)acc;
    for (int i = 0; i < 32; i += 8) {
        s += (ulong)((x >> i) & 0xffu) * ((y >> i) & 0xffu);
#if defined(CLB_COUNT_OPS)
        *n_ops += 2u; /* the multiply and the add above */
#endif
    }
    return s > 0xffffffffUL ? 0xffffffffu : (uint)s;
}
#if defined(CLB_COUNT_OPS)
#define DOT_ACC(x, y, acc) dot_acc_emulated((x), (y), (acc), &n_ops)
#else
#define DOT_ACC(x, y, acc) dot_acc_emulated((x), (y), (acc))
#endif
#elif defined(DOT_VECTOR)
#define DOT_ACC(x, y, acc) dot_acc_sat(as_uchar4(x), as_uchar4(y), (acc))
#else
#define DOT_ACC(x, y, acc) dot_acc_sat_4x8packed_uu_uint((x), (y), (acc))
#endif
#define STEP_(x) x = DOT_ACC(x, a, x)
#elif defined(T_IS_UINT)
#define STEP_(x) x = x * a + b
#else
#define STEP_(x) x = fma(x, (V)(a), (V)(b))
#endif
#if !defined(CLB_COUNT_OPS)
#define STEP(x) STEP_(x)
#elif defined(T_IS_DOT) && defined(DOT_EMULATED)
#define STEP(x) STEP_(x) /* counted inside dot_acc_emulated */
#elif defined(T_IS_DOT)
#define STEP(x) (STEP_(x), n_ops += 2u * (uint)vec_step(uchar4))
#else
#define STEP(x) (STEP_(x), n_ops += 2u * (uint)vec_step(x))
#endif

/* Lane numbers, each element already of type T. */
#define E(n) ((T)(n))
#if WIDTH == 1
#define LANES E(0)
#elif WIDTH == 2
#define LANES ((V)(E(0), E(1)))
#elif WIDTH == 4
#define LANES ((V)(E(0), E(1), E(2), E(3)))
#elif WIDTH == 8
#define LANES ((V)(E(0), E(1), E(2), E(3), E(4), E(5), E(6), E(7)))
#else
#define LANES ((V)(E(0), E(1), E(2), E(3), E(4), E(5), E(6), E(7), \
                   E(8), E(9), E(10), E(11), E(12), E(13), E(14), E(15)))
#endif

#ifdef T_IS_NARROW
#define LANE_STEP 9
#else
#define LANE_STEP 1000
#endif

/*
 * origin holds, per lane, the chain-0 start without the final scaling: for
 * floating point the integer u - 1024 (at most 1024 in magnitude, so exact in
 * half), which times b = 2^-10 is the start, exactly.
 */
#if defined(T_IS_DOT)
#define ORIGIN(g) (b * (8u * (uint)((g) % 7) + 1u))
#define START(k) (origin + b * (uint)(k))
#elif defined(T_IS_UINT)
#define ORIGIN(g) (LANES * E(LANE_STEP) + E(7919u * (uint)(g)))
#define START(k) (origin + E(k))
#else
#define ORIGIN(g) (LANES * E(8) + E(128 * (int)((g) % 7) - 1024))
#define START(k) ((origin + E(k)) * b)
#endif

#if defined(CLB_COUNT_OPS)
__kernel void clb_peak(__global ACC *out, T a, T b, __global uint *ops)
#else
__kernel void clb_peak(__global ACC *out, T a, T b)
#endif
{
#if defined(CLB_COUNT_OPS)
    uint n_ops = 0;
#endif
    const V origin = ORIGIN(get_global_id(0));
#define DECLARE(k) V x##k = START(k);
#define ADVANCE(k) STEP(x##k);
#define ADD(k) s += WIDEN(x##k);
    EACH(DECLARE)

    for (int i = 0; i < ITERS; i++) {
        EACH(ADVANCE)
    }
#if defined(CLB_COUNT_OPS)
    ops[get_global_id(0)] = n_ops;
#endif
    /* Exact in any order (see above): floating sums are multiples of q far below 2^24 q,
     * the narrow ones never wrap in uint, and uint wraps mod 2^32 whatever the order. */
    VACC s = (VACC)(0);
    EACH(ADD)
#if WIDTH == 1
    out[get_global_id(0)] = s;
#else
    ACC lanes[WIDTH];
    CAT(vstore, WIDTH)(s, 0, lanes);
    ACC r = lanes[0];
    for (int l = 1; l < WIDTH; l++)
        r += lanes[l];
    out[get_global_id(0)] = r;
#endif
}
