#include <stdio.h>
#include <string.h>

#include "clbench/backends/backend.h"

/*
 * Every backend, in registry order: each X(n) names the const struct
 * clb_gemm_backend clb_backend_n its file defines.
 *
 * The baseline (first host backend) first: it is what speedups are against.
 */
#define CLB_BACKENDS(X) \
    X(openblas)         \
    X(clblast)          \
    X(clbench)

#define DECLARE(n) extern const struct clb_gemm_backend clb_backend_##n;
CLB_BACKENDS(DECLARE)
#undef DECLARE

#define ENTRY(n) &clb_backend_##n,
const struct clb_gemm_backend *const clb_gemm_backends[] = {
    CLB_BACKENDS(ENTRY) NULL,
};
#undef ENTRY

const struct clb_gemm_backend *clb_gemm_backend_find(const char *name)
{
    for (size_t i = 0; clb_gemm_backends[i]; i++)
        if (strcmp(clb_gemm_backends[i]->name, name) == 0)
            return clb_gemm_backends[i];
    return NULL;
}
