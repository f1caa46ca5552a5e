/*
 * Device memory bandwidth, after BabelStream: copy, mul (scale), add, triad
 * and dot over three float arrays. Every kernel touches each element once;
 * with arrays far larger than the caches they measure DRAM/HBM bandwidth.
 * The host starts from a = 0.1, b = 0.2, c = 0 and checks the arrays and the
 * dot product against the same sequence computed on scalars.
 */
__kernel void clb_stream_init(__global float *a, __global float *b, __global float *c,
                              float va, float vb, float vc)
{
    size_t i = get_global_id(0);
    a[i] = va;
    b[i] = vb;
    c[i] = vc;
}

__kernel void clb_stream_copy(__global const float *a, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i];
}

__kernel void clb_stream_mul(__global float *b, __global const float *c, float scalar)
{
    size_t i = get_global_id(0);
    b[i] = scalar * c[i];
}

__kernel void clb_stream_add(__global const float *a, __global const float *b,
                             __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void clb_stream_triad(__global float *a, __global const float *b,
                               __global const float *c, float scalar)
{
    size_t i = get_global_id(0);
    a[i] = b[i] + scalar * c[i];
}

/*
 * Each work-group reduces its own contiguous block of a * b into one partial
 * sum; within the block, neighbouring work-items read neighbouring elements
 * (coalesced on GPUs, vectorisable across work-items on CPUs).
 */
__kernel void clb_stream_dot(__global const float *a, __global const float *b,
                             __global float *partial, __local float *scratch, uint n)
{
    size_t lid = get_local_id(0), lsize = get_local_size(0), g = get_group_id(0);
    size_t block = (n + get_num_groups(0) - 1) / get_num_groups(0);
    size_t begin = g * block, end = min((size_t)n, begin + block);
    float sum = 0.0f;

    for (size_t i = begin + lid; i < end; i += lsize)
        sum += a[i] * b[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = lsize / 2; s > 0; s /= 2) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[g] = scratch[0];
}

/*
 * The same dot product for CPU devices: each work-item sums one contiguous
 * chunk of DOT_CHUNK elements with 16-wide vectors, which a CPU streams and
 * vectorises; partial sums go to the host. (Strided access per work-item,
 * as above, defeats CPU caches.)
 */
#define DOT_CHUNK 1024
__kernel void clb_stream_dot_chunked(__global const float *a, __global const float *b,
                                     __global float *partial)
{
    size_t i = get_global_id(0);
    __global const float *pa = a + i * DOT_CHUNK, *pb = b + i * DOT_CHUNK;
    float16 s0 = (float16)(0.0f), s1 = (float16)(0.0f);

    for (int j = 0; j < DOT_CHUNK / 16; j += 2) {
        s0 += vload16(j, pa) * vload16(j, pb);
        s1 += vload16(j + 1, pa) * vload16(j + 1, pb);
    }
    float16 s = s0 + s1;
    float8 h = s.lo + s.hi;
    float4 q = h.lo + h.hi;
    float2 d = q.lo + q.hi;
    partial[i] = d.x + d.y;
}
