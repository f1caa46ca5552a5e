#ifndef CLBENCH_CL_KERNELS_H
#define CLBENCH_CL_KERNELS_H

/* OpenCL C sources from the kernels folder (one per .cl file), embedded at build time. */
struct clb_kernel_source {
    const char *name;   /* file name without ".cl", e.g. "check" */
    const char *source; /* NUL-terminated OpenCL C 1.2 source */
};

/* Terminated by an entry whose name is NULL. */
extern const struct clb_kernel_source clb_kernel_sources[];

/* The source of kernels/NAME.cl, or NULL if there is none. */
const char *clb_kernel_source(const char *name);

#endif
