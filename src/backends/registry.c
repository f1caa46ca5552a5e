#include <string.h>

#include "clbench/gemm.h"

extern const struct clb_gemm_backend clb_backend_openblas;
extern const struct clb_gemm_backend clb_backend_clblast;

/* The baseline (first host backend) first: it is what speedups are against. */
const struct clb_gemm_backend *const clb_gemm_backends[] = {
    &clb_backend_openblas,
    &clb_backend_clblast,
    NULL,
};

const struct clb_gemm_backend *clb_gemm_backend_find(const char *name)
{
    for (size_t i = 0; clb_gemm_backends[i]; i++)
        if (strcmp(clb_gemm_backends[i]->name, name) == 0)
            return clb_gemm_backends[i];
    return NULL;
}
