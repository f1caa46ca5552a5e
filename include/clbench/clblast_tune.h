#ifndef CLBENCH_CLBLAST_TUNE_H
#define CLBENCH_CLBLAST_TUNE_H

/* Applying CLBlast Xgemm parameters (the tuner's, or stored ones). */
#include "clbench/gemm.h"
#include "clbench/tune.h"

/*
 * CLBlastOverrideParameters for "Xgemm" on dev in precision p, once per
 * distinct parameter set (each change makes CLBlast recompile). Process-wide.
 */
int clb_clblast_override(cl_device_id dev, enum clb_precision p,
                         const struct clb_tune_params *params, struct clb_error *e);

/* The clblast backend's create with exactly these parameters (the tuner's candidates). */
void *clb_clblast_create_with(const struct clb_device *dev, const struct clb_cl_env *env,
                              const struct clb_gemm_data *data,
                              const struct clb_tune_params *params, struct clb_error *e);

extern const struct clb_gemm_backend clb_backend_clblast;
extern const struct clb_gemm_backend clb_backend_clblast_untuned;

#endif
