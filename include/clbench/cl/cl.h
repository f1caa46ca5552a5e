#ifndef CLBENCH_CL_CL_H
#define CLBENCH_CL_CL_H

/*
 * The one door to the OpenCL API: the headers at the 1.2 level (what NVIDIA,
 * AMD, Intel and pocl all accept), error names, and the checking helper that
 * every call's status goes through (src/cl/cl.c). The rest of the room builds
 * on it: a context and queue (clbench/cl/env.h), the calls faults are injected
 * into (fault.h), the devices (device.h, inventory.h, select.h), the loader
 * and its drivers (icd.h, pocl.h).
 */
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
/* clGetExtensionFunctionAddress: the only way to reach loader extensions at 1.2. */
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdbool.h>
#include <stddef.h>

#include "clbench/util/error.h"

/* "CL_OUT_OF_RESOURCES" for -5; "CL_UNKNOWN_ERROR" for a code it does not know. */
const char *clb_cl_errname(cl_int err);

/*
 * If err is not CL_SUCCESS, fills e with "CALL: ERRNAME (CODE)". Returns err,
 * so that it reads `if (clb_cl_check(e, "clFinish", clFinish(q))) goto fail;`.
 */
cl_int clb_cl_check(struct clb_error *e, const char *call, cl_int err);

/* Checks a call that returns its status, naming it after itself. */
#define CLB_CL(e, fn, ...) clb_cl_check((e), #fn, fn(__VA_ARGS__))

#endif
