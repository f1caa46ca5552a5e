/*
 * clbench's own GEMM: C = alpha * A * B + beta * C, any M, N, K, with C
 * row-major (leading dimension ldc, from element c_off of its buffer) and A
 * and B read through strides: A's entry (i, k) is element
 * a_off + i * a_rs + k * a_cs of its buffer, B's (k, j) b_off + k * b_rs +
 * j * b_cs. So every BLAS mode runs here: a transposed or column-major A or
 * B is the same matrix read with its strides swapped, and a column-major C
 * is the row-major C^T = op(B)^T op(A)^T, which the host sets up by
 * swapping A and B (src/backends/clbench_gemm.c).
 * Two variants, chosen by the host:
 *
 * clb_gemm (CPUs): each work-item owns a TM x TN tile of C in registers
 * (TM rows of NV vectors of VW elements) and walks a chunk of K over packed
 * panels: per k, NV vector loads of B and TM broadcasts of A feed TM * NV
 * independent vector FMAs. The host first packs A into panels of TM rows
 * (K x TM, each k's TM values adjacent) and B into panels of TN columns
 * (K x TN, each k's TN values adjacent), zero-padded, so each work-item reads
 * two contiguous streams: no page crossed per k, no cache-set conflicts, no
 * edge cases in the inner loop. The host splits K into chunks of KC (one
 * launch each, the first applying beta, the rest adding onto C) so the panels
 * a work-group shares stay in cache. No local memory: on CPUs the registers
 * would be spilled around every barrier.
 *
 * clb_gemm_local (GPUs): a work-group of LX x LY work-items computes a
 * (LY * TM) x (LX * TN) tile of C; per KW-wide slice of K it stages the
 * slices of A and B in local memory (coalesced loads, zero outside the
 * matrices), then each work-item accumulates TM x TN values strided by the
 * work-group size, so neighbouring work-items touch neighbouring words.
 *
 * Build options: -DTM=rows -DVW=width -DNV=vectors (TN = VW * NV; clb_gemm
 * takes VW = 4, 8 or 16), -DKW=slice for clb_gemm_local with -DLX= -DLY=
 * (the program then holds only it), [-DUSE_FP64].
 */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define T double
#else
#define T float
#endif

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define VT CAT(T, VW)
#define VLOAD CAT(vload, VW)
#define VSTORE CAT(vstore, VW)
#define TN (VW * NV)

#ifndef KW
/* Ap (ceil(M / TM) panels of K x TM) from A (M x K, strides a_rs and a_cs);
 * NDRange (K, ceil(M / TM)). */
__kernel void clb_gemm_pack_a(const uint M, const uint K, const uint a_rs, const uint a_cs,
                              const uint a_off, __global const T *restrict A,
                              __global T *restrict Ap)
{
    const uint k = get_global_id(0), ip = get_global_id(1);
    __global T *dst = Ap + ((size_t)ip * K + k) * TM;
    __global const T *src = A + a_off + (size_t)k * a_cs;

    if (k >= K)
        return;
    for (uint r = 0; r < TM; r++)
        dst[r] = ip * TM + r < M ? src[(size_t)(ip * TM + r) * a_rs] : (T)0;
}

/* Bp (ceil(N / TN) panels of K x TN) from B (K x N, strides b_rs and b_cs);
 * NDRange (ceil(N / TN), K). */
__kernel void clb_gemm_pack_b(const uint K, const uint N, const uint b_rs, const uint b_cs,
                              const uint b_off, __global const T *restrict B,
                              __global T *restrict Bp)
{
    const uint jp = get_global_id(0), k = get_global_id(1);
    __global const T *src = B + b_off + (size_t)k * b_rs + (size_t)jp * TN * b_cs;
    __global T *dst = Bp + ((size_t)jp * K + k) * TN;

    if (k >= K)
        return;
    if ((jp + 1) * TN <= N && b_cs == 1) {
        for (uint v = 0; v < NV; v++)
            VSTORE(VLOAD(v, src), v, dst);
        return;
    }
    for (uint q = 0; q < TN; q++)
        dst[q] = jp * TN + q < N ? src[(size_t)q * b_cs] : (T)0;
}

/* C tile (i0, j0) = alpha * acc + beta * C, clipped to M x N. */
#define STORE_TILE(acc, i0, j0)                                                             \
    for (uint r = 0; r < TM && i0 + r < M; r++) {                                           \
        __global T *c = C + (size_t)(i0 + r) * ldc + j0;                                    \
        for (uint v = 0; v < NV && j0 + v * VW < N; v++) {                                  \
            if (j0 + (v + 1) * VW <= N) {                                                   \
                VT x = alpha * acc[r][v];                                                   \
                if (beta != (T)0)                                                           \
                    x += beta * VLOAD(v, c);                                                \
                VSTORE(x, v, c);                                                            \
            } else {                                                                        \
                T part[VW];                                                                 \
                VSTORE(acc[r][v], 0, part);                                                 \
                for (uint q = 0; q < VW && j0 + v * VW + q < N; q++) {                      \
                    __global T *e = c + v * VW + q;                                         \
                    *e = alpha * part[q] + (beta != (T)0 ? beta * *e : (T)0);               \
                }                                                                           \
            }                                                                               \
        }                                                                                   \
    }

/* k in [k0, k0 + kc) of the packed panels; NDRange (ceil(N / TN), ceil(M / TM)). */
__kernel void clb_gemm(const uint M, const uint N, const uint K, const uint k0, const uint kc,
                       const uint ldc, const uint c_off, const T alpha,
                       __global const T *restrict Ap, __global const T *restrict Bp,
                       const T beta, __global T *restrict C)
{
    const uint jp = get_global_id(0), ip = get_global_id(1);
    const uint i0 = ip * TM, j0 = jp * TN;

    if (i0 >= M || j0 >= N)
        return;
    C += c_off;
    __global const T *a = Ap + ((size_t)ip * K + k0) * TM;
    __global const T *b = Bp + ((size_t)jp * K + k0) * TN;
    VT acc[TM][NV];
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int v = 0; v < NV; v++)
            acc[r][v] = (VT)(0);
    for (uint k = 0; k < kc; k++, a += TM, b += TN) {
        VT bv[NV];
#pragma unroll
        for (int v = 0; v < NV; v++)
            bv[v] = VLOAD(v, b);
#pragma unroll
        for (int r = 0; r < TM; r++) {
            const VT av = (VT)(a[r]);
#pragma unroll
            for (int v = 0; v < NV; v++)
                acc[r][v] = fma(av, bv[v], acc[r][v]);
        }
    }
    STORE_TILE(acc, i0, j0)
}

#else
/* The whole of K from A and B as they are; NDRange (ceil(N / (LX*TN))*LX, ceil(M / (LY*TM))*LY). */
__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void clb_gemm_local(const uint M, const uint N, const uint K, const uint a_rs, const uint a_cs,
                    const uint b_rs, const uint b_cs, const uint ldc, const uint a_off,
                    const uint b_off, const uint c_off, const T alpha,
                    __global const T *restrict A, __global const T *restrict B, const T beta,
                    __global T *restrict C)
{
    /* +1: rows of the tiles start on different banks. */
    __local T as[KW][LY * TM + 1];
    __local T bs[KW][LX * TN + 1];
    const uint lx = get_local_id(0), ly = get_local_id(1);
    const uint tid = ly * LX + lx;
    const uint bi = get_group_id(1) * LY * TM, bj = get_group_id(0) * LX * TN;
    T acc[TM][TN];

    for (uint r = 0; r < TM; r++)
        for (uint q = 0; q < TN; q++)
            acc[r][q] = 0;
    for (uint kk = 0; kk < K; kk += KW) {
        /* A's slice: LY*TM rows x KW, read along k; B's: KW x LX*TN, read along n. */
        for (uint x = tid; x < LY * TM * KW; x += LX * LY) {
            const uint r = x / KW, k = x % KW;
            as[k][r] = bi + r < M && kk + k < K
                           ? A[a_off + (size_t)(bi + r) * a_rs + (size_t)(kk + k) * a_cs]
                           : (T)0;
        }
        for (uint x = tid; x < KW * LX * TN; x += LX * LY) {
            const uint k = x / (LX * TN), q = x % (LX * TN);
            bs[k][q] = kk + k < K && bj + q < N
                           ? B[b_off + (size_t)(kk + k) * b_rs + (size_t)(bj + q) * b_cs]
                           : (T)0;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < KW; k++) {
            T av[TM], bv[TN];
            for (uint r = 0; r < TM; r++)
                av[r] = as[k][ly + r * LY];
            for (uint q = 0; q < TN; q++)
                bv[q] = bs[k][lx + q * LX];
            for (uint r = 0; r < TM; r++)
                for (uint q = 0; q < TN; q++)
                    acc[r][q] = fma(av[r], bv[q], acc[r][q]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (uint r = 0; r < TM; r++) {
        const uint i = bi + ly + r * LY;
        for (uint q = 0; q < TN && i < M; q++) {
            const uint j = bj + lx + q * LX;
            if (j < N) {
                __global T *c = C + c_off + (size_t)i * ldc + j;
                *c = alpha * acc[r][q] + (beta != (T)0 ? beta * *c : (T)0);
            }
        }
    }
}
#endif
