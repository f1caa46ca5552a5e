#include "clbench/cl/env.h"
#include "missing.h"

#include <stdio.h>

bool clb_missing_refuse(const char *library, const char *package, char *why, size_t why_len)
{
    snprintf(why, why_len, "clbench was built without %s (install %s and rebuild)", library,
             package);
    return false;
}

void clb_missing_info(struct clb_library_info *out, const char *library)
{
    snprintf(out->library, sizeof(out->library), "%s", library);
    snprintf(out->version, sizeof(out->version), "not built");
}

static int not_built(struct clb_error *e)
{
    clb_error_set(e, "this backend's library was not built into clbench");
    return -1;
}

void *clb_missing_create(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_gemm_data *data, const struct clb_tune_params *params,
                         struct clb_error *e)
{
    (void)dev;
    (void)env;
    (void)data;
    (void)params;
    not_built(e);
    return NULL;
}

int clb_missing_upload(void *state, struct clb_error *e)
{
    (void)state;
    return not_built(e);
}

int clb_missing_run(void *state, struct clb_error *e)
{
    (void)state;
    return not_built(e);
}

int clb_missing_download(void *state, void *c, struct clb_error *e)
{
    (void)state;
    (void)c;
    return not_built(e);
}

void clb_missing_destroy(void *state)
{
    (void)state;
}
