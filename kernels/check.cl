/*
 * Smoke test for `clbench devices --check`: proves the device compiles and
 * runs a kernel and returns the right numbers. Each work-item computes
 * out[i] = a[i] * b[i] + i, which the host recomputes exactly (small integers
 * in float are exact).
 */
__kernel void clb_check(__global const float *a, __global const float *b,
                        __global float *out)
{
    size_t i = get_global_id(0);
    out[i] = a[i] * b[i] + (float)i;
}
