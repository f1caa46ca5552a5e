#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/cl/fault.h"
#include "clbench/util/timer.h"
#include "bandwidth_parts.h"

int clb_bw_kernel_wg_size(cl_kernel k, cl_device_id dev, size_t *most, struct clb_error *e)
{
    const char *cap = clb_fault_str("KERNEL_WG_SIZE");

    if (CLB_CL(e, clGetKernelWorkGroupInfo, k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof(*most),
               most, NULL))
        return -1;
    if (cap && strtoul(cap, NULL, 10) < *most)
        *most = strtoul(cap, NULL, 10);
    return 0;
}

const char *clb_bw_build_options(bool fp64, char *buf, size_t len)
{
    static const char *const faults[] = { "copy", "mul",     "add",  "triad",
                                          "dot",  "read", "chunked", "local" };
    const char *want = clb_fault_str("STREAM_INDEX");
    int wrap = 0;

    for (int i = 0; want && i < (int)(sizeof(faults) / sizeof(*faults)); i++)
        if (!strcmp(want, faults[i]))
            wrap = i + 1;
    snprintf(buf, len, "%s", fp64 ? "-DREAL=double -DCLB_FP64" : "");
    if (wrap)
        snprintf(buf + strlen(buf), len - strlen(buf), " -DCLB_WRAP=%d", wrap);
    return buf[0] ? buf : NULL;
}

/* Whether CLBENCH_FAULT_STREAM_ENQUEUE names this kernel (clbench/cl/fault.h). */
static bool enqueue_fault(const char *name)
{
    const char *want = clb_fault_str("STREAM_ENQUEUE");
    return want && !strcmp(want, name);
}

int clb_bw_timed_launch(cl_command_queue q, cl_kernel k, const char *name, size_t global,
                        const size_t *local, double *device_s, double *host_s,
                        cl_int *profiling, struct clb_error *e)
{
    cl_event ev = NULL;

    if (enqueue_fault(name))
        return clb_cl_check(e, "clEnqueueNDRangeKernel", CL_OUT_OF_RESOURCES) ? -1 : 0;
    const double t0 = clb_now_s();
    if (CLB_CL(e, clEnqueueNDRangeKernel, q, k, 1, NULL, &global, local, 0, NULL, &ev) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(q))) {
        if (ev)
            clReleaseEvent(ev);
        return -1;
    }
    *host_s = clb_now_s() - t0;
    *profiling = clb_cl_event_seconds(ev, device_s);
    clReleaseEvent(ev);
    return 0;
}

int clb_bw_timed_push(struct clb_row *row, double device_s, double host_s,
                      cl_int profiling)
{
    if (clb_micro_push(row, profiling ? host_s : device_s))
        return -1;
    if (clb_micro_push_alt(row, host_s)) {
        /* The two clocks keep one call each: undo the first. */
        row->measured_s -= row->times_s[--row->n_times];
        return -1;
    }
    return 0;
}

/* Swaps the row's two clocks: the other one's calls become the headline's. */
static void swap_clocks(struct clb_row *row, const char *timer, const char *alt)
{
    double *t = row->times_s;
    size_t cap = row->times_cap;

    row->times_s = row->alt_times_s;
    row->times_cap = row->alt_times_cap;
    row->alt_times_s = t;
    row->alt_times_cap = cap;
    /* clb_bw_timed_push appends to both for every call: the counts are the same. */
    row->n_alt_times = alt ? row->n_times : 0;
    row->timer = timer;
    row->alt_timer = alt;
    row->measured_s = 0;
    for (size_t i = 0; i < row->n_times; i++)
        row->measured_s += row->times_s[i];
}

void clb_bw_timer_finish(struct clb_row *row, cl_int profiling)
{
    if (!row->n_times) {
        clb_micro_row_summarize(row);
        return;
    }
    if (profiling) {
        snprintf(row->timer_why, sizeof(row->timer_why),
                 "no profiling info from the device (clGetEventProfilingInfo: %s): host clock "
                 "around enqueue + clFinish", clb_cl_errname(profiling));
        swap_clocks(row, "host", NULL);
        free(row->alt_times_s);
        row->alt_times_s = NULL;
        row->alt_times_cap = 0;
        clb_micro_row_summarize(row);
        return;
    }
    row->timer = "device";
    row->alt_timer = "host";
    clb_micro_row_summarize(row);
    /* The medians (stat_best is set later, by the command): the rule's, whatever --stat. */
    const double device_gbps = row->median, host_gbps = row->alt_value;
    if (!clb_bandwidth_host_clock(row->device && clb_device_is_cpu(row->device), device_gbps,
                                  host_gbps))
        return;
    snprintf(row->timer_why, sizeof(row->timer_why),
             "a CPU device, whose own clock (START to END) reads over %.0f%% faster: it leaves "
             "out its threads starting, which a program waits for; host clock around enqueue "
             "+ clFinish",
             CLB_CLOCK_AGREE * 100.0);
    swap_clocks(row, "host", "device");
    clb_micro_row_summarize(row);
}
