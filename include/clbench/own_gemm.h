#ifndef CLBENCH_OWN_GEMM_H
#define CLBENCH_OWN_GEMM_H

/* The parameters of clbench's own GEMM kernel (kernels/gemm.cl), for the backend and the tuner. */
#include <stdbool.h>

#include "clbench/gemm.h"
#include "clbench/tune.h"

/* Its name in the tuning cache. */
#define CLB_OWN_GEMM_KERNEL "clbench-gemm"

struct clb_own_gemm_params {
    unsigned tm, tn; /* register tile: TM rows x TN-wide vectors */
    unsigned lx, ly; /* work-group size */
    unsigned kc;     /* K per launch (0: all of K in one) */
};

void clb_own_gemm_defaults(const struct clb_device *dev, enum clb_precision p,
                           struct clb_own_gemm_params *out);
bool clb_own_gemm_params_valid(const struct clb_device *dev, const struct clb_own_gemm_params *p);
void clb_own_gemm_params_to_tune(const struct clb_own_gemm_params *p, struct clb_tune_params *t);

/* The backend's create with explicit parameters (the tuner's); see struct clb_gemm_backend. */
void *clb_own_gemm_create(const struct clb_device *dev, const struct clb_cl_env *env,
                          const struct clb_gemm_data *data,
                          const struct clb_own_gemm_params *params, struct clb_error *e);

extern const struct clb_gemm_backend clb_backend_clbench;

#endif
