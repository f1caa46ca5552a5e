#ifndef CLBENCH_BACKENDS_CLBLAST_PARAMS_H
#define CLBENCH_BACKENDS_CLBLAST_PARAMS_H

/*
 * The parameters CLBlast holds in force for one of its kernels, read through
 * its C++-only clblast::RetrieveParameters (clblast_params.cpp): its
 * database's values for the device, or the last CLBlastOverrideParameters.
 */
#include <CL/cl.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "clbench/core/types.h"

/*
 * Fills *out with kernel's ("Xgemm", "GemmRoutine", ...) parameters on dev
 * in `precision` (a CLBlastPrecision value), sorted by name. Returns 0, or
 * CLBlast's status code (negative) when it cannot tell.
 */
int clb_clblast_retrieve(cl_device_id dev, const char *kernel, int precision,
                         struct clb_tune_params *out);

#ifdef __cplusplus
}
#endif

#endif
