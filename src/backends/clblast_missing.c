/*
 * Compiled instead of clblast.c in a build without CLBlast: the clblast
 * backend and its Xgemm tuning part, unavailable with the reason, so
 * `-b clblast`, `-b clblast-untuned`, `tune --only clblast`, --help and
 * result files keep their names.
 */
#include "identity.h"
#include "missing.h"

#define LIBRARY CLB_CLBLAST_LIBRARY
#define PACKAGE "libclblast-dev"

static void clblast_info(struct clb_library_info *out)
{
    clb_missing_info(out, LIBRARY);
}

static bool clblast_supports(const struct clb_device *dev, enum clb_precision p, char *why,
                             size_t why_len)
{
    (void)dev;
    (void)p;
    return clb_missing_refuse(LIBRARY, PACKAGE, why, why_len);
}

/* The search asks supports() first and stops there: nothing to offer. */
static bool no_candidate(const struct clb_device *dev, enum clb_precision p, size_t index,
                         uint64_t *rng, struct clb_tune_params *out)
{
    (void)dev;
    (void)p;
    (void)index;
    (void)rng;
    (void)out;
    return false;
}

static bool never_valid(const struct clb_device *dev, enum clb_precision p,
                        const struct clb_tune_params *params)
{
    (void)dev;
    (void)p;
    (void)params;
    return false;
}

static const char *const xgemm_names[] = CLB_CLBLAST_XGEMM_PARAMS;

static const struct clb_gemm_tuning xgemm_tuning = {
    .kernel = CLB_CLBLAST_XGEMM_KERNEL,
    .label = CLB_CLBLAST_XGEMM_LABEL,
    .params = xgemm_names,
    .budget_share = 1.0,
    .next_candidate = no_candidate,
    .valid = never_valid,
    .create_with = clb_missing_create,
};

const struct clb_gemm_backend clb_backend_clblast = {
    .name = CLB_CLBLAST_NAME,
    .summary = CLB_CLBLAST_SUMMARY " (not in this build)",
    .on_device = true,
    .info = clblast_info,
    .supports = clblast_supports,
    .create = clb_missing_create,
    .upload = clb_missing_upload,
    .run = clb_missing_run,
    .download = clb_missing_download,
    .destroy = clb_missing_destroy,
    .tuning = &xgemm_tuning,
};
