/*
 * Peak arithmetic rate: each work-item runs ITERS rounds of 8 independent
 * multiply-add chains on vectors of WIDTH elements of type T, enough
 * independent work to keep every FMA pipe busy (latency ~4 cycles x 2 pipes
 * on CPUs; warps interleave on GPUs). One round is 8 * WIDTH * 2 operations.
 *
 * Build options: -DT=float|double|half|uint -DWIDTH=1|2|4|8|16 -DITERS=1024,
 * plus -DT_IS_DOUBLE, -DT_IS_HALF or -DT_IS_UINT for those types.
 * Arguments: out (one element per work-item: float for half and float,
 * double for double, uint for uint), a, b (the multiply-add coefficients).
 *
 * Floating point: x <- fma(x, a, b) with a = 1, b = q = 2^-10. Chain k
 * (0..7) of lane l of work-item g starts at -1 + u q, u = k + 8 l +
 * 128 (g mod 7) < 896, so every value it takes is a multiple of q below 1 in
 * magnitude: exact in half, float and double, fused or not. After ITERS =
 * 1024 rounds it holds exactly u q, and a skipped round leaves it q short.
 * uint: x <- x * a + b (mod 2^32) from k + 1000 l + 7919 g, exact by nature.
 * Starts differ per chain, lane and neighbouring work-item, so computing one
 * lane or one work-item of a warp and broadcasting it changes the result.
 *
 * Each work-item returns the sum over its lanes of the 8 chains' sum, in
 * float for half (exact: multiples of 2^-10 below 2^8) and in T otherwise
 * (exact for float and double; wrapping for uint), so the host demands
 * equality.
 */
#if defined(T_IS_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#elif defined(T_IS_HALF)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define CAT_(t, w) t##w
#define CAT(t, w) CAT_(t, w)

/* ACC: the type of the sums and of out. */
#ifdef T_IS_HALF
#define ACC float
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
#ifdef T_IS_HALF
#define WIDEN(x) CAT(convert_, VACC)(x)
#else
#define WIDEN(x) (x)
#endif

#ifdef T_IS_UINT
#define STEP(x) x = x * a + b
#else
#define STEP(x) x = fma(x, (V)(a), (V)(b))
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

/*
 * origin holds, per lane, the chain-0 start without the final scaling: for
 * floating point the integer u - 1024 (at most 1024 in magnitude, so exact in
 * half), which times b = 2^-10 is the start, exactly.
 */
#ifdef T_IS_UINT
#define ORIGIN(g) (LANES * E(1000) + E(7919u * (uint)(g)))
#define START(k) (origin + E(k))
#else
#define ORIGIN(g) (LANES * E(8) + E(128 * (int)((g) % 7) - 1024))
#define START(k) ((origin + E(k)) * b)
#endif

__kernel void clb_peak(__global ACC *out, T a, T b)
{
    const V origin = ORIGIN(get_global_id(0));
    V x0 = START(0), x1 = START(1), x2 = START(2), x3 = START(3);
    V x4 = START(4), x5 = START(5), x6 = START(6), x7 = START(7);

    for (int i = 0; i < ITERS; i++) {
        STEP(x0); STEP(x1); STEP(x2); STEP(x3);
        STEP(x4); STEP(x5); STEP(x6); STEP(x7);
    }
    VACC s = ((WIDEN(x0) + WIDEN(x1)) + (WIDEN(x2) + WIDEN(x3))) +
             ((WIDEN(x4) + WIDEN(x5)) + (WIDEN(x6) + WIDEN(x7)));
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
