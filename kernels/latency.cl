/*
 * Launch latency: the smallest kernel that still proves it ran. One
 * work-item stores `v`; the host checks the last value after the loop.
 */
__kernel void clb_latency(__global uint *out, uint v)
{
    if (get_global_id(0) == 0)
        out[0] = v;
}
