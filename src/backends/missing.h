#ifndef CLBENCH_BACKENDS_MISSING_H
#define CLBENCH_BACKENDS_MISSING_H

/*
 * What a backend whose library clbench was built without is made of
 * (clblast_missing.c, openblas_missing.c, compiled instead of the real
 * files). It stays in the registry, so -b, --help and result files keep its
 * name; its supports() refuses every row with the reason, which the report
 * shows as "unavailable: ...". The run hooks are never reached after that
 * refusal; should one be, it fails with an error instead of running.
 */
#include "clbench/backends/backend.h"
#include "clbench/cl/env.h"

/* false, with why = "clbench was built without LIBRARY (install PACKAGE and rebuild)". */
bool clb_missing_refuse(const char *library, const char *package, char *why, size_t why_len);

/* The run record's entry: library named, version "not built". */
void clb_missing_info(struct clb_library_info *out, const char *library);

/* The hooks of struct clb_gemm_backend (create also serves as a tuning part's create_with). */
void *clb_missing_create(const struct clb_device *dev, const struct clb_cl_env *env,
                         const struct clb_gemm_data *data, const struct clb_tune_params *params,
                         struct clb_error *e);
int clb_missing_upload(void *state, struct clb_error *e);
int clb_missing_run(void *state, struct clb_error *e);
int clb_missing_download(void *state, void *c, struct clb_error *e);
void clb_missing_destroy(void *state);

#endif
