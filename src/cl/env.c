#include "clbench/cl/cl.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clb_cl_env_init(struct clb_cl_env *env, cl_device_id dev, bool profiling,
                    struct clb_error *e)
{
    cl_int err;

    memset(env, 0, sizeof(*env));
    env->device = dev;
    env->ctx = clb_fault("CONTEXT") ? (err = CL_DEVICE_NOT_AVAILABLE, NULL)
                                    : clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (clb_cl_check(e, "clCreateContext", err))
        goto error;
    env->queue = clCreateCommandQueue(env->ctx, dev,
                                      profiling ? CL_QUEUE_PROFILING_ENABLE : 0,
                                      &err);
    if (clb_cl_check(e, "clCreateCommandQueue", err))
        goto error;
    return 0;

error:
    clb_cl_env_finish(env);
    return -1;
}

void clb_cl_env_finish(struct clb_cl_env *env)
{
    if (env->queue)
        clReleaseCommandQueue(env->queue);
    if (env->ctx)
        clReleaseContext(env->ctx);
    env->queue = NULL;
    env->ctx = NULL;
}

/*
 * Prints the build log to stderr and, when log_len > 0, puts a one-line digest
 * of it in log (see clb_cl_build_log).
 */
static void report_build_log(cl_program prog, cl_device_id dev, char *digest, size_t digest_len)
{
    char name[256] = "?";
    size_t len = 0;

    clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL);
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS ||
        len == 0)
        return;
    char *log = malloc(len + 1);
    if (!log)
        return;
    if (clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
        log[len] = '\0';
        fprintf(stderr, "clbench: build log for %s:\n%s\n", name, log);
        clb_cl_log_digest(log, digest, digest_len);
    }
    free(log);
}

void clb_cl_log_digest(const char *log, char *out, size_t out_len)
{
    /* Drivers often warn at length before the error that matters: start there. */
    const char *p = strstr(log, "error");
    size_t n = 0;

    if (!out_len)
        return;
    out[0] = '\0';
    if (p)
        while (p > log && p[-1] != '\n')
            p--;
    else
        p = log;
    for (; *p && n + 1 < out_len; p++) {
        if (*p == '\n' || *p == '\r' || *p == '\t') {
            /* Lines joined by " | ", blank ones dropped. */
            if (n && out[n - 1] != ' ' && p[1] && p[1] != '\n' && n + 4 < out_len) {
                memcpy(out + n, " | ", 3);
                n += 3;
            }
            continue;
        }
        out[n++] = *p;
    }
    out[n] = '\0';
    if (*p && out_len > 4)
        memcpy(out + (n < out_len - 4 ? n : out_len - 4), "...", 4);
}

/* What CLBENCH_FAULT_BUILD compiles instead: a real error, so a real build log. */
static const char broken_source[] =
    "__kernel void clb_broken(__global float *x) { x[0] = undeclared_identifier; }\n";

cl_program clb_cl_build(cl_context ctx, cl_device_id dev, const char *source,
                        const char *options, struct clb_error *e)
{
    return clb_cl_build_log(ctx, dev, source, options, NULL, 0, e);
}

cl_program clb_cl_build_log(cl_context ctx, cl_device_id dev, const char *source,
                            const char *options, char *log, size_t log_len, struct clb_error *e)
{
    cl_int err;
    if (log_len)
        log[0] = '\0';
    if (clb_fault_build(options ? options : ""))
        source = broken_source;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);

    if (clb_cl_check(e, "clCreateProgramWithSource", err))
        return NULL;
    err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        clb_cl_check(e, "clBuildProgram", err);
        if (err == CL_BUILD_PROGRAM_FAILURE) {
            report_build_log(prog, dev, log, log_len);
            clb_error_prefix(e, "kernel build failed (log on stderr)");
        }
        clReleaseProgram(prog);
        return NULL;
    }
    return prog;
}
