/*
 * Compiled instead of openblas.c and blascore.c in a build without
 * OpenBLAS: the openblas backend, unavailable with the reason (no CPU
 * baseline, so no speedups), and the --blas-core hooks main() links as
 * no-ops: no command asks for a core here (gemm's blas_core hook returns
 * NULL), so nothing is ever restarted.
 */
#include "clbench/backends/blascore.h"
#include "identity.h"
#include "missing.h"

#define LIBRARY CLB_OPENBLAS_LIBRARY
#define PACKAGE "libopenblas-dev"

static void openblas_info(struct clb_library_info *out)
{
    clb_missing_info(out, LIBRARY);
}

static bool openblas_supports(const struct clb_device *dev, enum clb_precision p, char *why,
                              size_t why_len)
{
    (void)dev;
    (void)p;
    return clb_missing_refuse(LIBRARY, PACKAGE, why, why_len);
}

static void openblas_set_threads(unsigned n)
{
    (void)n;
}

/* Runs on none: no warning about a baseline on part of the CPU. */
static unsigned openblas_get_threads(void)
{
    return 0;
}

const struct clb_gemm_backend clb_backend_openblas = {
    .name = CLB_OPENBLAS_NAME,
    .summary = CLB_OPENBLAS_SUMMARY " (not in this build)",
    .on_device = false,
    .info = openblas_info,
    .supports = openblas_supports,
    .create = clb_missing_create,
    .upload = clb_missing_upload,
    .run = clb_missing_run,
    .download = clb_missing_download,
    .destroy = clb_missing_destroy,
    .set_threads = openblas_set_threads,
    .get_threads = openblas_get_threads,
};

int clb_blas_core_apply(const char *mode, char **argv, char *why, size_t why_len)
{
    (void)mode;
    (void)argv;
    (void)why;
    (void)why_len;
    return 0;
}

const struct clb_blas_core_state *clb_blas_core_state(void)
{
    static const struct clb_blas_core_state none;
    return &none;
}
