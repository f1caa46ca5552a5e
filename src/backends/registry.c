#include <string.h>

#include "clbench/gemm.h"

#include "clbench/clblast_tune.h"
#include "clbench/own_gemm.h"

extern const struct clb_gemm_backend clb_backend_openblas;

/*
 * The baseline (first host backend) first: it is what speedups are against.
 * clblast-untuned is marked runs_first: CLBlast's parameter overrides are
 * process-wide, so untuned figures must be taken before tuned ones.
 */
const struct clb_gemm_backend *const clb_gemm_backends[] = {
    &clb_backend_openblas,
    &clb_backend_clblast_untuned,
    &clb_backend_clblast,
    &clb_backend_clbench,
    NULL,
};

const struct clb_gemm_backend *clb_gemm_backend_find(const char *name)
{
    for (size_t i = 0; clb_gemm_backends[i]; i++)
        if (strcmp(clb_gemm_backends[i]->name, name) == 0)
            return clb_gemm_backends[i];
    return NULL;
}
