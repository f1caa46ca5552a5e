#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/latency.h"
#include "clbench/bench/micro.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/timer.h"

/* Launches per figure: latency is small and noisy, so many more than --runs. */
enum { LAUNCHES_PER_RUN = 40, WARMUP = 20 };

enum { ROUND_TRIP, QUEUED_TO_START, START_TO_END, N_FIGURES };
static const char *const cases[N_FIGURES] = { "round trip", "enqueue to start", "kernel run" };

/*
 * One launch of k storing v, finished: *t its round trip on the host clock (s), ts the
 * device's queued, start and end timestamps (ns).
 */
static int timed_launch(cl_command_queue q, cl_kernel k, cl_uint v, double *t, cl_ulong ts[3],
                        struct clb_error *e)
{
    static const cl_profiling_info when[3] = { CL_PROFILING_COMMAND_QUEUED,
                                               CL_PROFILING_COMMAND_START,
                                               CL_PROFILING_COMMAND_END };
    const size_t one = 1;
    cl_event ev;

    if (CLB_CL(e, clSetKernelArg, k, 1, sizeof(cl_uint), &v))
        return -1;
    const double t0 = clb_now_s();
    if (CLB_CL(e, clEnqueueNDRangeKernel, q, k, 1, NULL, &one, NULL, 0, NULL, &ev))
        return -1;
    const cl_int err = clb_cl_finish(q);
    *t = clb_now_s() - t0;
    int rc = clb_cl_check(e, "clFinish", err) ? -1 : 0;
    for (int i = 0; i < 3 && !rc; i++)
        if (CLB_CL(e, clGetEventProfilingInfo, ev, when[i], sizeof(ts[i]), &ts[i], NULL))
            rc = -1;
    clReleaseEvent(ev);
    return rc;
}

/* One timed launch's three figures into their rows. */
static int push_figures(struct clb_row *const *rows, double t, const cl_ulong ts[3],
                        struct clb_error *e)
{
    const cl_ulong queued = ts[0], start = ts[1], end = ts[2];

    if (clb_micro_push(rows[ROUND_TRIP], t) ||
        clb_micro_push(rows[QUEUED_TO_START],
                       start >= queued ? (double)(start - queued) * 1e-9 : 0.0) ||
        clb_micro_push(rows[START_TO_END], end >= start ? (double)(end - start) * 1e-9 : 0.0)) {
        clb_error_set(e, "out of host memory");
        return -1;
    }
    return 0;
}

int clb_latency_run(const struct clb_device *dev, const struct clb_cl_env *env,
                    const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    struct clb_row *rows[N_FIGURES];
    struct clb_error e = { "" };
    cl_command_queue q = NULL;
    cl_program prog = NULL;
    cl_kernel k = NULL;
    cl_mem buf = NULL;
    cl_int err;
    const size_t n = (size_t)opt->runs * LAUNCHES_PER_RUN;
    cl_uint v = 0, got = 0;
    enum clb_row_status status = CLB_ROW_OK;
    char why[512] = "";

    for (int i = 0; i < N_FIGURES; i++)
        if (!clb_micro_add(out, dev, CLB_BENCH_LATENCY, "us"))
            return -1;
    for (int i = 0; i < N_FIGURES; i++) {
        rows[i] = &out->rows[out->n_rows - N_FIGURES + i];
        snprintf(rows[i]->case_, sizeof(rows[i]->case_), "%s", cases[i]);
    }
    /* Its own queue: device timestamps need profiling, which the others do without. */
    q = clCreateCommandQueue(env->ctx, dev->id, CL_QUEUE_PROFILING_ENABLE, &err);
    if (clb_cl_check(&e, "clCreateCommandQueue", err))
        goto fault;
    if (!(prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("latency"), NULL, &e)))
        goto fault;
    k = clCreateKernel(prog, "clb_latency", &err);
    if (clb_cl_check(&e, "clCreateKernel", err))
        goto fault;
    buf = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, sizeof(cl_uint), NULL, &err);
    if (clb_cl_check(&e, "clCreateBuffer", err) ||
        CLB_CL(&e, clSetKernelArg, k, 0, sizeof(cl_mem), &buf))
        goto fault;
    /* The round trips decide how many: at least n, and --min-time's worth of them. */
    for (size_t i = 0; i < WARMUP || clb_micro_want(rows[ROUND_TRIP], n, opt->min_time_s); i++) {
        double t;
        cl_ulong ts[3];
        v = (cl_uint)i + 1;
        if (timed_launch(q, k, v, &t, ts, &e))
            goto fault;
        if (i >= WARMUP && push_figures(rows, t, ts, &e))
            goto fault;
    }
    if (CLB_CL(&e, clEnqueueReadBuffer, q, buf, CL_TRUE, 0, sizeof(got), &got, 0, NULL, NULL))
        goto fault;
    if (got != v) {
        status = CLB_ROW_FAILED;
        snprintf(why, sizeof(why), "wrong result: the last launch stored %u, expected %u", got, v);
    }
    goto done;

fault:
    status = CLB_ROW_ERROR;
    snprintf(why, sizeof(why), "%s", e.msg);
done:
    for (int i = 0; i < N_FIGURES; i++) {
        rows[i]->status = status;
        /* The round trip is the host's; the other two are the event's own timestamps. */
        rows[i]->timer = !rows[i]->n_times ? NULL : i == ROUND_TRIP ? "host" : "device";
        snprintf(rows[i]->reason, sizeof(rows[i]->reason), "%s", why);
        /* v is the count launched: --min-time may have run many more than n + WARMUP. */
        snprintf(rows[i]->check, sizeof(rows[i]->check),
                 "the last of %u launches (%d untimed, %zu timed) stored its value", v, WARMUP,
                 rows[ROUND_TRIP]->n_times);
        clb_micro_row_summarize(rows[i]);
    }
    if (buf)
        clReleaseMemObject(buf);
    if (k)
        clReleaseKernel(k);
    if (prog)
        clReleaseProgram(prog);
    if (q)
        clReleaseCommandQueue(q);
    return 0;
}
