/*
 * Device memory bandwidth, after BabelStream: copy, mul (scale), add, triad
 * and dot over three arrays of REAL (float, or double with -DREAL=double
 * -DCLB_FP64), plus a read-only pass (the figure clpeak's "global memory
 * bandwidth" gives: reads only; coalesced for GPUs, in contiguous chunks for
 * CPUs) and, on the cpu code path, a dot product in contiguous chunks. The host
 * times each launch on the device's clock (its profiling event), not
 * around the driver's clFinish. Every kernel touches each element once; with arrays far
 * larger than the caches they measure DRAM/HBM bandwidth. Every element
 * starts from its own value (clb_stream_init below), so a kernel that reads
 * the right count of the wrong elements leaves a wrong element or a wrong
 * sum: the host checks every element against the recurrence from that
 * element's start, and the dot products and the read pass's sum against the
 * arrays.
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

/*
 * Test hook (CLBENCH_FAULT_STREAM_INDEX, clbench/cl/cl.h): built with
 * -DCLB_WRAP=K, kernel K (K_COPY ... K_LOCAL below) reads index i modulo a
 * small window instead of i: the right count of the wrong elements, which
 * the host's checks must catch. In every other build IX(k, i, window) is i,
 * and the kernels are BabelStream's as written.
 */
#define K_COPY 1
#define K_MUL 2
#define K_ADD 3
#define K_TRIAD 4
#define K_DOT 5
#define K_READ 6
#define K_CHUNKED 7
#define K_LOCAL 8
#define WINDOW 4096 /* elements: 16 KiB of float */
#ifdef CLB_WRAP
#define IX(k, i, window) ((k) == CLB_WRAP ? (i) % (window) : (i))
#else
#define IX(k, i, window) (i)
#endif

/*
 * Element j's start (clb_stream_start in clbench/bench/micro.h says why):
 * (1 + g 2^-14) 2^e with g = 10123 (j mod 16381) mod 16381 and
 * e = (j mod 61) - 30, written as its bits, so that it is exact in float and
 * double alike and no division of the device's rounds it.
 */
static REAL stream_start(ulong j)
{
    const uint g = (uint)(j % 16381) * 10123u % 16381u;
    const int e = (int)(j % 61) - 30;
#ifdef CLB_FP64
    return as_double((ulong)(1023 + e) << 52 | (ulong)g << 38);
#else
    return as_float((uint)(127 + e) << 23 | g << 9);
#endif
}

/* a, b and c start from the pattern at j, j + 1 and j + 2 (untimed). */
__kernel void clb_stream_init(__global REAL *a, __global REAL *b, __global REAL *c)
{
    size_t i = get_global_id(0);
    a[i] = stream_start(i);
    b[i] = stream_start((ulong)i + 1);
    c[i] = stream_start((ulong)i + 2);
}

__kernel void clb_stream_copy(__global const REAL *a, __global REAL *c)
{
    size_t i = get_global_id(0);
    c[i] = a[IX(K_COPY, i, WINDOW)];
}

__kernel void clb_stream_mul(__global REAL *b, __global const REAL *c, REAL scalar)
{
    size_t i = get_global_id(0);
    b[i] = scalar * c[IX(K_MUL, i, WINDOW)];
}

__kernel void clb_stream_add(__global const REAL *a, __global const REAL *b, __global REAL *c)
{
    size_t i = get_global_id(0);
    c[i] = a[IX(K_ADD, i, WINDOW)] + b[IX(K_ADD, i, WINDOW)];
}

__kernel void clb_stream_triad(__global REAL *a, __global const REAL *b, __global const REAL *c,
                               REAL scalar)
{
    size_t i = get_global_id(0);
    a[i] = b[IX(K_TRIAD, i, WINDOW)] + scalar * c[IX(K_TRIAD, i, WINDOW)];
}

/*
 * BabelStream's dot product, as its OpenCL version defines it: a fixed grid
 * (on CPUs a work-group per compute unit of twice the native double vector
 * width, elsewhere 4 per compute unit of the largest work-group the device
 * allows; set by the host, within the kernel's own CL_KERNEL_WORK_GROUP_SIZE,
 * a power of two for the tree) strides over the arrays, each
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
        slot[lid] += a[IX(K_DOT, i, WINDOW)] * b[IX(K_DOT, i, WINDOW)];
    for (size_t step = get_local_size(0) / 2; step > 0; step /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < step)
            slot[lid] += slot[lid + step];
    }
    if (lid == 0)
        partial[get_group_id(0)] = slot[0];
}

/*
 * Reads only, as clpeak's global bandwidth, in two variants (the host's
 * --code-path picks one; both sum every element of a once and store one
 * partial sum per work-item). The gpu path, clb_stream_read: n / 16
 * work-items, work-item i adding a[i], a[i + G], ..., a[i + 15 G] in order
 * (G the global size), so that neighbouring work-items load neighbouring
 * elements: one load of a warp or wavefront is one contiguous run. The cpu
 * path, clb_stream_read_chunked: one contiguous chunk of READ_CHUNK elements
 * a work-item, read with 16-wide vector loads into two accumulators, which a
 * CPU core streams and vectorises (as clb_stream_dot_chunked).
 */
__kernel void clb_stream_read(__global const REAL *a, __global REAL *partial)
{
    const size_t i = get_global_id(0), g = get_global_size(0);
    REAL s = 0;

    for (uint k = 0; k < 16; k++)
        s += a[IX(K_READ, i + k * g, WINDOW)];
    partial[i] = s;
}

#define READ_CHUNK 1024
__kernel void clb_stream_read_chunked(__global const REAL *a, __global REAL *partial)
{
    const size_t i = get_global_id(0);
    __global const REAL *p = a + IX(K_READ, i, WINDOW / READ_CHUNK) * READ_CHUNK;
    VREAL16 s0 = (VREAL16)(0), s1 = (VREAL16)(0);

    for (int j = 0; j < READ_CHUNK / 16; j += 2) {
        s0 += vload16(j, p);
        s1 += vload16(j + 1, p);
    }
    VREAL16 s = s0 + s1;
    VREAL8 h = s.lo + s.hi;
    VREAL4 q = h.lo + h.hi;
    VREAL2 d = q.lo + q.hi;
    partial[i] = d.x + d.y;
}

/*
 * A dot product for CPU devices (the cpu code path): each work-item sums one contiguous chunk of
 * DOT_CHUNK elements with 16-wide vectors, which a CPU streams and
 * vectorises; partial sums go to the host. (A grid stride per work-item, as
 * BabelStream's kernel has, can defeat CPU caches.)
 */
#define DOT_CHUNK 1024
__kernel void clb_stream_dot_chunked(__global const REAL *a, __global const REAL *b,
                                     __global REAL *partial)
{
    size_t i = get_global_id(0);
    const size_t at = IX(K_CHUNKED, i, WINDOW / DOT_CHUNK) * DOT_CHUNK;
    __global const REAL *pa = a + at, *pb = b + at;
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
 * with values in [1, 2) whose mantissas are a hash of the entry (every bit
 * of the sum below depends on which entries were read; clb_stream_local_bits
 * in clbench/bench/micro.h), then each work-item reads 16 x
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
#define TILE(j) as_double(0x3ff0000000000000ul | (ulong)(j) * 0x9e3779b97f4a7c15ul >> 12)
#else
#define BITS uint
#define AS_BITS as_uint
#define TILE(j) as_float(0x3f800000u | (uint)(j) * 2654435761u >> 9)
#endif
__kernel __attribute__((reqd_work_group_size(LOCAL_N, 1, 1))) void
clb_stream_local(__global BITS *out, uint rounds)
{
    __local REAL tile[LOCAL_N];
    const uint lid = get_local_id(0);
    BITS sum = 0;

    tile[lid] = TILE(lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint r = 0; r < rounds; r++) {
        const uint base = lid + 16 * r;
        for (uint j = 0; j < 16; j++)
            sum += AS_BITS(tile[IX(K_LOCAL, (base + j) & (LOCAL_N - 1), LOCAL_N / 4)]);
    }
    out[get_global_id(0)] = sum;
}
