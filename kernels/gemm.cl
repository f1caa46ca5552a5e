/*
 * clbench's own GEMM: C = alpha * A * B + beta * C, row-major, any M, N, K.
 *
 * Each work-item owns a TM x TN tile of C held in registers (TM vectors of
 * TN elements) and walks its share of K: per k, one vector of B and TM
 * scalars of A feed TM independent vector FMAs. Tiles wholly inside C take
 * that path; tiles on the right or bottom edge a guarded scalar one.
 *
 * The host splits K into chunks of at most KC (one launch each, the first
 * applying beta, the rest accumulating), so the panel of B a work-group
 * streams stays in cache, and packs A and B with padded leading dimensions
 * (clb_gemm_pack) when theirs are multiples of a large power of two, which
 * would map every row onto the same cache sets. There is no local memory:
 * on CPUs the registers would be spilled around every barrier.
 *
 * Build options: -DTM=rows -DTN=4|8|16 [-DUSE_FP64]
 * NDRange: (ceil(N / TN), ceil(M / TM)) rounded up to the local size.
 */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define T double
#else
#define T float
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VT CAT(T, TN)
#define VLOAD CAT(vload, TN)
#define VSTORE CAT(vstore, TN)

/* C[i, j] for k in [k0, k0 + kc): A is M x lda, B is K x ldb, C is M x ldc. */
__kernel void clb_gemm(const uint M, const uint N, const uint k0, const uint kc,
                       const uint lda, const uint ldb, const uint ldc, const T alpha,
                       __global const T *restrict A, __global const T *restrict B,
                       const T beta, __global T *restrict C)
{
    const uint j0 = get_global_id(0) * TN;
    const uint i0 = get_global_id(1) * TM;

    if (i0 >= M || j0 >= N)
        return;
    if (i0 + TM <= M && j0 + TN <= N) {
        VT acc[TM];
#pragma unroll
        for (int r = 0; r < TM; r++)
            acc[r] = (VT)(0);
        __global const T *a = A + (size_t)i0 * lda + k0;
        __global const T *b = B + (size_t)k0 * ldb + j0;
        for (uint k = 0; k < kc; k++) {
            const VT bv = VLOAD(0, b + (size_t)k * ldb);
#pragma unroll
            for (int r = 0; r < TM; r++)
                acc[r] = fma((VT)(a[(size_t)r * lda + k]), bv, acc[r]);
        }
#pragma unroll
        for (int r = 0; r < TM; r++) {
            __global T *c = C + (size_t)(i0 + r) * ldc + j0;
            VT v = alpha * acc[r];
            if (beta != (T)0)
                v += beta * VLOAD(0, c);
            VSTORE(v, 0, c);
        }
        return;
    }
    for (uint r = 0; r < TM && i0 + r < M; r++) {
        for (uint q = 0; q < TN && j0 + q < N; q++) {
            T s = 0;
            for (uint k = k0; k < k0 + kc; k++)
                s = fma(A[(size_t)(i0 + r) * lda + k], B[(size_t)k * ldb + j0 + q], s);
            __global T *c = C + (size_t)(i0 + r) * ldc + j0 + q;
            *c = alpha * s + (beta != (T)0 ? beta * *c : (T)0);
        }
    }
}

/* dst (rows x ld_dst) = src (rows x cols, leading dimension ld_src), zero-padded. */
__kernel void clb_gemm_pack(const uint rows, const uint cols, const uint ld_src,
                            const uint ld_dst, __global const T *restrict src,
                            __global T *restrict dst)
{
    const uint c = get_global_id(0), r = get_global_id(1);

    if (r < rows && c < ld_dst)
        dst[(size_t)r * ld_dst + c] = c < cols ? src[(size_t)r * ld_src + c] : (T)0;
}
