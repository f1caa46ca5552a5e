/*
 * Peak arithmetic rate: each work-item runs ITERS rounds of 8 independent
 * multiply-add chains on vectors of WIDTH elements of type T, enough
 * independent work to keep every FMA pipe busy (latency ~4 cycles x 2 pipes
 * on CPUs; warps interleave on GPUs). One round is 8 * WIDTH * 2 operations.
 *
 * Build options: -DT=float|double|half|uint -DWIDTH=1|2|4|8|16 -DITERS=n
 * Floating point: x <- fma(x, a, b) with a = 1 - 2^-10, b = 2^-10, which
 * moves each chain towards 1 at a known rate, so the host can recompute the
 * result and tell whether every round ran. uint: x <- x * a + b, exactly.
 * Each work-item returns the sum over its lanes of the 8 chains' sum.
 */
#if defined(T_IS_DOUBLE)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#elif defined(T_IS_HALF)
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif

#define CAT_(t, w) t##w
#define CAT(t, w) CAT_(t, w)
#if WIDTH == 1
#define V T
#else
#define V CAT(T, WIDTH)
#endif

#ifdef T_IS_UINT
#define STEP(x) x = x * a + b
#else
#define STEP(x) x = fma(x, (V)(a), (V)(b))
#endif

/*
 * Chain k starts at k / 8 + lane / 128 (floating point) or k + 1000 lane
 * (uint): every lane differs, so a compiler cannot compute one lane and
 * broadcast it without the result showing.
 */
#if WIDTH == 1
#define LANES ((V)(0))
#elif WIDTH == 2
#define LANES ((V)(0, 1))
#elif WIDTH == 4
#define LANES ((V)(0, 1, 2, 3))
#elif WIDTH == 8
#define LANES ((V)(0, 1, 2, 3, 4, 5, 6, 7))
#else
#define LANES ((V)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15))
#endif
#ifdef T_IS_UINT
#define START(k) ((V)(k) + LANES * (T)1000)
#else
#define START(k) ((V)((T)(k) / (T)8) + LANES / (T)128)
#endif

__kernel void clb_peak(__global T *out, T a, T b)
{
    V x0 = START(0), x1 = START(1), x2 = START(2), x3 = START(3);
    V x4 = START(4), x5 = START(5), x6 = START(6), x7 = START(7);

    for (int i = 0; i < ITERS; i++) {
        STEP(x0); STEP(x1); STEP(x2); STEP(x3);
        STEP(x4); STEP(x5); STEP(x6); STEP(x7);
    }
    V s = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
#if WIDTH == 1
    out[get_global_id(0)] = s;
#else
    /* The lanes summed in order, as the host does. */
    T lanes[WIDTH];
    CAT(vstore, WIDTH)(s, 0, lanes);
    T r = lanes[0];
    for (int l = 1; l < WIDTH; l++)
        r += lanes[l];
    out[get_global_id(0)] = r;
#endif
}
