#include "buffers.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"

#include <string.h>

int clb_gemm_buffers_upload(const struct clb_gemm_buffers *b, cl_command_queue q,
                            const struct clb_gemm_data *d, struct clb_error *e)
{
    const size_t es = clb_precision_bytes(d->precision);

    if (CLB_CL(e, clEnqueueWriteBuffer, q, b->a, CL_FALSE, 0, d->la.elems * es, d->a, 0, NULL,
               NULL) ||
        CLB_CL(e, clEnqueueWriteBuffer, q, b->b, CL_FALSE, 0, d->lb.elems * es, d->b, 0, NULL,
               NULL) ||
        CLB_CL(e, clEnqueueWriteBuffer, q, b->c, CL_FALSE, 0, d->lc.elems * es, d->c0, 0, NULL,
               NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(q))) {
        /* Writes already queued still read host memory the caller may free next. */
        clFinish(q);
        return -1;
    }
    return 0;
}

int clb_gemm_buffers_create(struct clb_gemm_buffers *b, const struct clb_cl_env *env,
                            const struct clb_gemm_data *d, struct clb_error *e)
{
    const size_t es = clb_precision_bytes(d->precision);
    cl_int err;

    memset(b, 0, sizeof(*b));
    b->a = clb_cl_buffer(env->ctx, CL_MEM_READ_ONLY, d->la.elems * es, NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer(A)", err))
        return -1;
    b->b = clb_cl_buffer(env->ctx, CL_MEM_READ_ONLY, d->lb.elems * es, NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer(B)", err))
        return -1;
    b->c = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, d->lc.elems * es, NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer(C)", err))
        return -1;
    /* Buffers are allocated lazily by most drivers: the first write commits them. */
    return clb_gemm_buffers_upload(b, env->queue, d, e);
}

int clb_gemm_buffers_download(const struct clb_gemm_buffers *b, cl_command_queue q,
                              const struct clb_gemm_data *d, void *c, struct clb_error *e)
{
    return CLB_CL(e, clEnqueueReadBuffer, q, b->c, CL_TRUE, 0,
                  d->lc.elems * clb_precision_bytes(d->precision), c, 0, NULL, NULL)
               ? -1
               : 0;
}

void clb_gemm_buffers_release(struct clb_gemm_buffers *b)
{
    cl_mem *mems[] = { &b->a, &b->b, &b->c };
    for (size_t i = 0; i < 3; i++) {
        if (*mems[i])
            clReleaseMemObject(*mems[i]);
        *mems[i] = NULL;
    }
}
