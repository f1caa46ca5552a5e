/*
 * Device memory bandwidth, after BabelStream: copy, mul (scale), add, triad
 * and dot over three arrays of REAL (float, or double with -DREAL=double
 * -DCLB_FP64), plus a read-only pass (the figure clpeak's "global memory
 * bandwidth" gives: reads only) and, for CPU devices, a dot product in
 * contiguous chunks. Every kernel touches each element once; with arrays far
 * larger than the caches they measure DRAM/HBM bandwidth. The host starts
 * from a = 0.1, b = 0.2, c = 0 and checks the arrays, the dot product and
 * the read pass's sum against the same sequence computed on scalars.
 */
#ifdef CLB_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifndef REAL
#define REAL float
#endif
#define VREAL16 CLB_CAT(REAL, 16)
#define VREAL8 CLB_CAT(REAL, 8)
#define VREAL4 CLB_CAT(REAL, 4)
#define VREAL2 CLB_CAT(REAL, 2)
#define CLB_CAT(a, b) CLB_CAT_(a, b)
#define CLB_CAT_(a, b) a##b

__kernel void clb_stream_init(__global REAL *a, __global REAL *b, __global REAL *c, REAL va,
                              REAL vb, REAL vc)
{
    size_t i = get_global_id(0);
    a[i] = va;
    b[i] = vb;
    c[i] = vc;
}

__kernel void clb_stream_copy(__global const REAL *a, __global REAL *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i];
}

__kernel void clb_stream_mul(__global REAL *b, __global const REAL *c, REAL scalar)
{
    size_t i = get_global_id(0);
    b[i] = scalar * c[i];
}

__kernel void clb_stream_add(__global const REAL *a, __global const REAL *b, __global REAL *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void clb_stream_triad(__global REAL *a, __global const REAL *b, __global const REAL *c,
                               REAL scalar)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + scalar * c[i];
}

/*
 * BabelStream's dot product, as its OpenCL version defines it: a fixed grid
 * (on CPUs a work-group per compute unit of twice the native double vector
 * width, elsewhere 4 per compute unit of the largest work-group the device
 * allows; set by the host) strides over the arrays, each
 * work-item accumulating straight into its slot of local memory; the
 * work-group then halves that array in a tree, and one partial sum per
 * work-group goes to the host.
 */
__kernel void clb_stream_dot(__global const REAL *a, __global const REAL *b,
                             __global REAL *partial, __local REAL *slot, uint n)
{
    size_t i = get_global_id(0);
    const size_t lid = get_local_id(0);

    slot[lid] = 0;
    for (; i < n; i += get_global_size(0))
        slot[lid] += a[i] * b[i];
    for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < step)
            slot[lid] += slot[lid + step];
    }
    if (lid == 0)
        partial[get_group_id(0)] = slot[0];
}

/*
 * Reads only, as clpeak's global bandwidth: each work-item loads 16
 * neighbouring elements and stores their sum (one store per 16 loads).
 */
__kernel void clb_stream_read(__global const REAL *a, __global REAL *partial)
{
    size_t i = get_global_id(0);
    VREAL16 v = vload16(i, a);
    VREAL8 h = v.lo + v.hi;
    VREAL4 q = h.lo + h.hi;
    VREAL2 d = q.lo + q.hi;
    partial[i] = d.x + d.y;
}

/*
 * A dot product for CPU devices: each work-item sums one contiguous chunk of
 * DOT_CHUNK elements with 16-wide vectors, which a CPU streams and
 * vectorises; partial sums go to the host. (A grid stride per work-item, as
 * BabelStream's kernel has, can defeat CPU caches.)
 */
#define DOT_CHUNK 1024
__kernel void clb_stream_dot_chunked(__global const REAL *a, __global const REAL *b,
                                     __global REAL *partial)
{
    size_t i = get_global_id(0);
    __global const REAL *pa = a + i * DOT_CHUNK, *pb = b + i * DOT_CHUNK;
    VREAL16 s0 = (VREAL16)(0), s1 = (VREAL16)(0);

    for (int j = 0; j < DOT_CHUNK / 16; j += 2) {
        s0 += vload16(j, pa) * vload16(j, pb);
        s1 += vload16(j + 1, pa) * vload16(j + 1, pb);
    }
    VREAL16 s = s0 + s1;
    VREAL8 h = s.lo + s.hi;
    VREAL4 q = h.lo + h.hi;
    VREAL2 d = q.lo + q.hi;
    partial[i] = d.x + d.y;
}

/*
 * Local-memory bandwidth: a work-group of LOCAL_N work-items fills a tile
 * with 0, 1, ..., LOCAL_N - 1 (as REAL), then each work-item reads 16 x
 * rounds entries, walking the tile from its own slot (neighbouring
 * work-items hit neighbouring banks), and adds their bit patterns as
 * integers, so no floating-point unit (fp64 is slow on many GPUs) paces the
 * loads. With 16 x rounds a multiple of LOCAL_N, every work-item's sum is
 * (16 rounds / LOCAL_N) x the sum of the tile's bit patterns, modulo 2^32
 * (2^64 for double): the host knows it exactly.
 */
#define LOCAL_N 256
#ifdef CLB_FP64
#define BITS ulong
#define AS_BITS as_ulong
#else
#define BITS uint
#define AS_BITS as_uint
#endif
__kernel __attribute__((reqd_work_group_size(LOCAL_N, 1, 1))) void
clb_stream_local(__global BITS *out, uint rounds)
{
    __local REAL tile[LOCAL_N];
    const uint lid = get_local_id(0);
    BITS sum = 0;

    tile[lid] = (REAL)lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < rounds; r++) {
        const uint base = lid + 16 * r;
        for (uint j = 0; j < 16; j++)
            sum += AS_BITS(tile[(base + j) & (LOCAL_N - 1)]);
    }
    out[get_global_id(0)] = sum;
}
