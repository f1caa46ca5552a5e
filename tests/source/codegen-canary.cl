/*
 * Kernels whose counts tests/source/codegen.sh knows in advance, compiled for
 * each target before the real ones: if a compiler's output changes so that
 * codegen.awk stops seeing spills, multiply-adds or local loads, these fail
 * instead of every kernel passing unseen.
 */

/* A private array indexed at run time: it lives in private memory (a PTX
 * .local depot, AMD scratch) on every target. */
__kernel void clb_canary_spill(__global float *out, uint i)
{
    float a[64];
    for (int k = 0; k < 64; k++)
        a[k] = out[k];
    out[0] = a[i & 63];
}

/* A loop that is not unrolled: 8 independent fma and 8 multiplies per pass,
 * so 8 multiply-adds and at most 8 / 17 of its instructions FMAs. */
__kernel void clb_canary_mix(__global float *out, float a, float b, uint n)
{
    float x[8], y[8];
    for (int k = 0; k < 8; k++)
        x[k] = y[k] = out[k];
#pragma unroll 1
    for (uint i = 0; i < n; i++)
        for (int k = 0; k < 8; k++) {
            x[k] = fma(x[k], a, b);
            y[k] = y[k] * a;
        }
    float s = 0;
    for (int k = 0; k < 8; k++)
        s += x[k] + y[k];
    out[0] = s;
}

/* A loop that is not unrolled: per pass 2 local loads (one a 4-wide vector
 * load) feeding 4 fma, so 4 multiply-adds and 2 local load instructions. */
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void
clb_canary_lds(__global float *out, uint n)
{
    __local float4 t[64];
    __local float u[64];
    const uint l = get_local_id(0);
    t[l] = vload4(l, out);
    u[l] = out[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 acc = 0;
#pragma unroll 1
    for (uint i = 0; i < n; i++)
        acc = fma(t[(l + i) & 63], (float4)(u[(l + 2 * i) & 63]), acc);
    vstore4(acc, l, out);
}
