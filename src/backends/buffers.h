#ifndef CLBENCH_BACKENDS_BUFFERS_H
#define CLBENCH_BACKENDS_BUFFERS_H

/*
 * A, B and C of one problem on a device: what every device backend allocates
 * and copies, each buffer whole as the problem's mode lays it out (its
 * offset and padding included: d->la.elems elements for A, and so on).
 */
#include "clbench/backends/backend.h"
#include "clbench/cl/env.h"

struct clb_gemm_buffers {
    cl_mem a, b, c;
};

/* Allocates the three buffers in env's context and uploads the inputs; -1 with e set. */
int clb_gemm_buffers_create(struct clb_gemm_buffers *b, const struct clb_cl_env *env,
                            const struct clb_gemm_data *d, struct clb_error *e);
/* Copies A, B and C0 from the host again, and waits. */
int clb_gemm_buffers_upload(const struct clb_gemm_buffers *b, cl_command_queue q,
                            const struct clb_gemm_data *d, struct clb_error *e);
/* Copies C's buffer to host memory `c` (d->lc.elems elements), and waits. */
int clb_gemm_buffers_download(const struct clb_gemm_buffers *b, cl_command_queue q,
                              const struct clb_gemm_data *d, void *c, struct clb_error *e);
/* Releases what create made; safe on a zeroed or partly made set. */
void clb_gemm_buffers_release(struct clb_gemm_buffers *b);

#endif
