#include "clbench/bench/check.h"

#include <stdlib.h>
#include <string.h>

#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/timer.h"

void clb_device_check(const struct clb_device *dev, unsigned n, struct clb_check_result *out)
{
    struct clb_error *e = &out->error;
    struct clb_cl_env env = { 0 };
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf[3] = { NULL, NULL, NULL };
    float *host = malloc(3 * (size_t)n * sizeof(float));
    float *a = host, *b = host + n, *c = host + 2 * (size_t)n;
    size_t global = n;
    cl_int err;
    double t0 = clb_now_s();

    memset(out, 0, sizeof(*out));
    if (!host) {
        clb_error_set(e, "out of host memory");
        goto done;
    }
    /* Small integers: every product and sum is exact in float. */
    for (unsigned i = 0; i < n; i++) {
        a[i] = (float)(i % 7);
        b[i] = (float)((int)(i % 5) - 2);
    }
    if (clb_cl_env_init(&env, dev->id, false, e))
        goto done;
    if (!(prog = clb_cl_build(env.ctx, dev->id, clb_kernel_source("check"), NULL, e)))
        goto done;
    k = clCreateKernel(prog, "clb_check", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        goto done;
    for (int i = 0; i < 3; i++) {
        buf[i] = clb_cl_buffer(env.ctx, i < 2 ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR
                                               : CL_MEM_WRITE_ONLY,
                                n * sizeof(float), i < 2 ? host + i * (size_t)n : NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            goto done;
        if (CLB_CL(e, clSetKernelArg, k, (cl_uint)i, sizeof(cl_mem), &buf[i]))
            goto done;
    }
    if (CLB_CL(e, clEnqueueNDRangeKernel, env.queue, k, 1, NULL, &global, NULL, 0, NULL, NULL) ||
        CLB_CL(e, clEnqueueReadBuffer, env.queue, buf[2], CL_TRUE, 0, n * sizeof(float), c, 0,
               NULL, NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(env.queue)))
        goto done;
    for (unsigned i = 0; i < n; i++) {
        float want = a[i] * b[i] + (float)i;
        if (c[i] != want) {
            clb_error_set(e, "wrong result: out[%u] = %g, expected %g", i, (double)c[i],
                          (double)want);
            goto done;
        }
    }
    out->ok = true;

done:
    out->seconds = clb_now_s() - t0;
    for (int i = 0; i < 3; i++)
        if (buf[i])
            clReleaseMemObject(buf[i]);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    clb_cl_env_finish(&env);
    free(host);
}
