/*
 * clbench's own GEMM: C = alpha * A * B + beta * C, any M, N, K, with C
 * row-major (leading dimension ldc, from element c_off of its buffer) and A
 * and B read through strides: A's entry (i, k) is element
 * a_off + i * a_rs + k * a_cs of its buffer, B's (k, j) b_off + k * b_rs +
 * j * b_cs. So every BLAS mode runs here: a transposed or column-major A or
 * B is the same matrix read with its strides swapped, and a column-major C
 * is the row-major C^T = op(B)^T op(A)^T, which the host sets up by
 * swapping A and B (src/backends/clbench_gemm.c).
 * Two variants, chosen by the host (by the device's type, or --code-path):
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
 * clb_gemm_gpu (GPUs): a work-group of LX x LY work-items computes an
 * MT x NT = (LY * TM) x (LX * TN) tile of C over a range of K. Per KW-wide
 * slice of K it stages the slices of A (KW x MT) and B (KW x NT) in local
 * memory, loaded coalesced along whichever dimension of each is contiguous
 * (zero outside the matrices); each work-item keeps a TM x TN register tile
 * and reads its TM values of A and TN of B for each k as vectors of VW (TM
 * and TN multiples of VW), so TM / VW + TN / VW local loads feed TM * TN
 * FMAs (8 x 8 of float4: 4 loads, 64 FMAs). The next slice is read from
 * global memory into registers while the current one is computed; every
 * tile loop is unrolled with compile-time bounds, so the tile stays in
 * registers. K split (the host's choice where the problem has fewer than 4
 * work-groups per compute unit): work-group z of the NDRange's third
 * dimension takes [z * kchunk, (z + 1) * kchunk) and writes its raw sums to
 * a buffer, and clb_gemm_gpu_sum adds the parts in order into C with alpha
 * and beta; unsplit, clb_gemm_gpu writes C itself.
 *
 * Build options: -DTM=rows -DVW=width -DNV=vectors (TN = VW * NV; clb_gemm
 * takes VW = 4, 8 or 16, clb_gemm_gpu 2 or 4), -DKW=slice with -DLX= -DLY=
 * for clb_gemm_gpu and clb_gemm_gpu_sum (the program then holds only them;
 * the host checks that MT * KW and NT * KW are multiples of LX * LY),
 * [-DUSE_FP64].
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
/*
 * The GPU variant. Work-item (lx, ly) owns rows g * LY * VW + ly * VW + e and
 * columns h * LX * VW + lx * VW + e (g < TM / VW, h < TN / VW, e < VW) of the
 * work-group's MT x NT tile, so that its values of a k lie in TM / VW and
 * TN / VW aligned vectors of the local slices: per k, TM / VW + TN / VW
 * vector loads from local memory feed TM * TN FMAs, and a warp's loads of B
 * are consecutive vectors (no bank conflicts) while those of A are one
 * broadcast per row of work-items.
 */
#define MT (LY * TM)
#define NT (LX * TN)
#define WG (LX * LY)
/* Elements of each slice a work-item loads: MT * KW and NT * KW are multiples of WG (host-checked). */
#define LA (MT * KW / WG)
#define LB (NT * KW / WG)
/* A row of a slice: MT (NT) values, one vector of padding so that the loads of consecutive k
 * of one row of A (a loader's k-fastest order) fall on different banks. */
#define RA (MT / VW + 1)
#define RB (NT / VW + 1)

#if VW == 2
#define SPLIT(dst, i, v) (dst[(i)] = (v).s0, dst[(i) + 1] = (v).s1)
#elif VW == 4
#define SPLIT(dst, i, v) (dst[(i)] = (v).s0, dst[(i) + 1] = (v).s1, dst[(i) + 2] = (v).s2, \
                          dst[(i) + 3] = (v).s3)
#endif

/* Slice [kk, kk + KW) of A and B, clipped to the matrices and to k < k_end, into pa and pb. */
#define LOAD_SLICE(kk)                                                                      \
    _Pragma("unroll") for (int i = 0; i < LA; i++) {                                        \
        const uint x = tid + i * WG;                                                        \
        const uint r = a_kfast ? x / KW : x % MT, k = a_kfast ? x % KW : x / MT;            \
        pa[i] = bi + r < M && (kk) + k < k_end                                              \
                    ? A[(size_t)(bi + r) * a_rs + (size_t)((kk) + k) * a_cs]                \
                    : (T)0;                                                                 \
    }                                                                                       \
    _Pragma("unroll") for (int i = 0; i < LB; i++) {                                        \
        const uint x = tid + i * WG;                                                        \
        const uint q = b_nfast ? x % NT : x / KW, k = b_nfast ? x / NT : x % KW;            \
        pb[i] = bj + q < N && (kk) + k < k_end                                              \
                    ? B[(size_t)((kk) + k) * b_rs + (size_t)(bj + q) * b_cs]                \
                    : (T)0;                                                                 \
    }

/*
 * The tile (get_group_id(1), get_group_id(0)) of C over the K range
 * [z * kchunk, (z + 1) * kchunk) with z = get_group_id(2) (kchunk a multiple
 * of KW). splits == 1: C = alpha * acc + beta * C; else the raw sums go to
 * W (splits x M x N, dense) for clb_gemm_gpu_sum.
 * NDRange (ceil(N / NT) * LX, ceil(M / MT) * LY, splits).
 */
__kernel __attribute__((reqd_work_group_size(LX, LY, 1)))
void clb_gemm_gpu(const uint M, const uint N, const uint K, const uint a_rs, const uint a_cs,
                  const uint b_rs, const uint b_cs, const uint ldc, const uint a_off,
                  const uint b_off, const uint c_off, const T alpha,
                  __global const T *restrict A, __global const T *restrict B, const T beta,
                  __global T *restrict C, const uint kchunk, const uint splits,
                  __global T *restrict W)
{
    __local VT as[KW][RA];
    __local VT bs[KW][RB];
    const uint lx = get_local_id(0), ly = get_local_id(1);
    const uint tid = ly * LX + lx;
    const uint bi = get_group_id(1) * MT, bj = get_group_id(0) * NT;
    const uint z = get_group_id(2);
    const uint k_begin = z * kchunk;
    const uint k_end = K - k_begin < kchunk ? K : k_begin + kchunk;
    /* Coalesced loads: along whichever of A's and B's dimensions is contiguous. */
    const bool a_kfast = a_cs == 1, b_nfast = b_cs == 1 || b_rs != 1;
    T pa[LA], pb[LB];
    VT acc[TM][TN / VW];

    A += a_off;
    B += b_off;
#pragma unroll
    for (int r = 0; r < TM; r++)
#pragma unroll
        for (int h = 0; h < TN / VW; h++)
            acc[r][h] = (VT)(0);
    LOAD_SLICE(k_begin)
    for (uint kk = k_begin; kk < k_end; kk += KW) {
        barrier(CLK_LOCAL_MEM_FENCE); /* the previous slice is read */
#pragma unroll
        for (int i = 0; i < LA; i++) {
            const uint x = tid + i * WG;
            const uint r = a_kfast ? x / KW : x % MT, k = a_kfast ? x % KW : x / MT;
            ((__local T *)as[k])[r] = pa[i];
        }
#pragma unroll
        for (int i = 0; i < LB; i++) {
            const uint x = tid + i * WG;
            const uint q = b_nfast ? x % NT : x / KW, k = b_nfast ? x / NT : x % KW;
            ((__local T *)bs[k])[q] = pb[i];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* The next slice's loads are in flight while this one is computed. */
        if (kk + KW < k_end) {
            LOAD_SLICE(kk + KW)
        }
#pragma unroll
        for (int k = 0; k < KW; k++) {
            T av[TM];
            VT bv[TN / VW];
#pragma unroll
            for (int g = 0; g < TM / VW; g++) {
                const VT v = as[k][g * LY + ly];
                SPLIT(av, g * VW, v);
            }
#pragma unroll
            for (int h = 0; h < TN / VW; h++)
                bv[h] = bs[k][h * LX + lx];
#pragma unroll
            for (int r = 0; r < TM; r++)
#pragma unroll
                for (int h = 0; h < TN / VW; h++)
                    acc[r][h] = fma((VT)(av[r]), bv[h], acc[r][h]);
        }
    }
#pragma unroll
    for (int r = 0; r < TM; r++) {
        const uint i = bi + (r / VW) * LY * VW + ly * VW + r % VW;
#pragma unroll
        for (int h = 0; h < TN / VW; h++) {
            T out[VW];
            SPLIT(out, 0, acc[r][h]);
#pragma unroll
            for (int e = 0; e < VW; e++) {
                const uint j = bj + h * LX * VW + lx * VW + e;
                if (i < M && j < N) {
                    if (splits > 1) {
                        W[((size_t)z * M + i) * N + j] = out[e];
                    } else {
                        __global T *c = C + c_off + (size_t)i * ldc + j;
                        *c = alpha * out[e] + (beta != (T)0 ? beta * *c : (T)0);
                    }
                }
            }
        }
    }
}

/* C = alpha * (the splits' sums of W, in order) + beta * C; NDRange (N, M). */
__kernel void clb_gemm_gpu_sum(const uint M, const uint N, const uint splits, const uint ldc,
                               const uint c_off, const T alpha, __global const T *restrict W,
                               const T beta, __global T *restrict C)
{
    const uint j = get_global_id(0), i = get_global_id(1);

    if (i >= M || j >= N)
        return;
    T s = 0;
    for (uint z = 0; z < splits; z++)
        s += W[((size_t)z * M + i) * N + j];
    __global T *c = C + c_off + (size_t)i * ldc + j;
    *c = alpha * s + (beta != (T)0 ? beta * *c : (T)0);
}
#endif
