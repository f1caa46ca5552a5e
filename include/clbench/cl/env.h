#ifndef CLBENCH_CL_ENV_H
#define CLBENCH_CL_ENV_H

/*
 * One context and queue on one device, and building clbench's kernels in it
 * (src/cl/env.c).
 */
#include <stdbool.h>
#include <stddef.h>

#include "clbench/cl/cl.h"
#include "clbench/util/error.h"

/*
 * One context and in-order queue on one device, the unit every benchmark runs
 * in. `profiling` enables CL_QUEUE_PROFILING_ENABLE.
 */
struct clb_cl_env {
    cl_context ctx;
    cl_command_queue queue;
    cl_device_id device;
};

int clb_cl_env_init(struct clb_cl_env *env, cl_device_id dev, bool profiling,
                    struct clb_error *e);
/* Releases what init created; safe on a zeroed or half-initialised env. */
void clb_cl_env_finish(struct clb_cl_env *env);

/*
 * Builds `source` for one device with `options` (may be NULL). On failure,
 * prints the build log to stderr (prefixed with the device name) and returns
 * NULL with e set. The caller owns the returned program (clReleaseProgram).
 */
cl_program clb_cl_build(cl_context ctx, cl_device_id dev, const char *source,
                        const char *options, struct clb_error *e);
/*
 * The same, and on a failed build also fills log (log_len bytes, may be 0)
 * with clb_cl_log_digest of the build log ("" when the driver gives none).
 */
cl_program clb_cl_build_log(cl_context ctx, cl_device_id dev, const char *source,
                            const char *options, char *log, size_t log_len, struct clb_error *e);
/*
 * A build log in one line for a row's reason: from the first line that says
 * "error" (else the start), lines joined by " | ", blank lines dropped, cut
 * to out_len - 1 bytes (ending in "..." when cut).
 */
void clb_cl_log_digest(const char *log, char *out, size_t out_len);

#endif
