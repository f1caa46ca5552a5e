#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clbench/cl/cl.h"
#include "clbench/cl/fault.h"

bool clb_fault_build(const char *options)
{
    const char *want = getenv("CLBENCH_FAULT_BUILD");

    return want && *want && (!strcmp(want, "*") || (options && strstr(options, want)));
}

bool clb_fault_alloc(void)
{
    static unsigned long count;
    const char *n = getenv("CLBENCH_FAULT_ALLOC");

    if (!n || !*n)
        return false;
    return ++count >= strtoul(n, NULL, 10);
}

cl_mem clb_cl_buffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host, cl_int *err)
{
    if (clb_fault_alloc()) {
        *err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        return NULL;
    }
    return clCreateBuffer(ctx, flags, size, host, err);
}

const char *clb_fault_str(const char *name)
{
    char var[64];
    snprintf(var, sizeof(var), "CLBENCH_FAULT_%s", name);
    const char *v = getenv(var);
    return v && *v && strcmp(v, "0") != 0 ? v : NULL;
}

bool clb_fault(const char *name)
{
    return clb_fault_str(name) != NULL;
}

/* CLBENCH_FAULT_FINISH_DELAY_US: a driver whose clFinish returns late (the whole delay,
 * however many signals arrive). */
static void finish_delay(void)
{
    const char *us = clb_fault_str("FINISH_DELAY_US");
    const unsigned long n = us ? strtoul(us, NULL, 10) : 0;
    struct timespec ts = { (time_t)(n / 1000000), (long)(n % 1000000) * 1000 };

    while (n && nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

cl_int clb_cl_finish(cl_command_queue q)
{
    static unsigned long count;
    const char *n = getenv("CLBENCH_FAULT_FINISH");
    cl_int err = clFinish(q);

    finish_delay();

    if (err == CL_SUCCESS && n && *n && ++count >= strtoul(n, NULL, 10))
        return CL_OUT_OF_RESOURCES;
    return err;
}

cl_int clb_cl_event_seconds(cl_event ev, double *seconds)
{
    cl_ulong start = 0, end = 0;
    cl_int err = clb_fault("NO_PROFILING") ? CL_PROFILING_INFO_NOT_AVAILABLE : CL_SUCCESS;

    *seconds = 0;
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof(start), &start,
                                      NULL);
    if (err == CL_SUCCESS)
        err = clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof(end), &end, NULL);
    if (err == CL_SUCCESS && end <= start)
        err = CL_PROFILING_INFO_NOT_AVAILABLE;
    if (err == CL_SUCCESS)
        *seconds = (double)(end - start) * 1e-9;
    return err;
}
