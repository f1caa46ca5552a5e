#ifndef CLBENCH_TESTS_REQUIRE_H
#define CLBENCH_TESTS_REQUIRE_H

/* Device tests run on whatever OpenCL exists (pocl in CI) and skip without one. */
#include <stdio.h>

#include "clbench/cl/cl.h"

#define CLB_TEST_SKIP 77

/* Returns 0 if an OpenCL device exists, else prints why and returns 77. */
static inline int clb_test_require_device(void)
{
    cl_uint n = 0;
    cl_platform_id p;

    if (clGetPlatformIDs(1, &p, &n) != CL_SUCCESS || n == 0) {
        printf("SKIP: no OpenCL platform (install pocl-opencl-icd)\n");
        return CLB_TEST_SKIP;
    }
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS || n == 0) {
        printf("SKIP: no OpenCL device\n");
        return CLB_TEST_SKIP;
    }
    return 0;
}

#endif
