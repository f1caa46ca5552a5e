#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/micro.h"
#include "clbench/util/rng.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

static const uint64_t default_sizes[] = { 4u << 10, 64u << 10, 1u << 20, 16u << 20, 256u << 20 };

enum mode { PAGEABLE, PINNED };
static const char *const mode_names[] = { "pageable", "pinned" };

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = clb_rng_next(&seed);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}

/* Host memory for one mode: malloc'd, or a mapped CL_MEM_ALLOC_HOST_PTR buffer. */
struct host_mem {
    unsigned char *p;
    cl_mem pinned;
};

static int host_alloc(const struct clb_cl_env *env, enum mode m, size_t size,
                      struct host_mem *h, struct clb_error *e)
{
    cl_int err;

    memset(h, 0, sizeof(*h));
    if (m == PAGEABLE) {
        if (!(h->p = malloc(size))) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
        return 0;
    }
    h->pinned = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, size, NULL,
                               &err);
    if (clb_cl_check(e, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", err))
        return -1;
    h->p = clEnqueueMapBuffer(env->queue, h->pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, size,
                              0, NULL, NULL, &err);
    return clb_cl_check(e, "clEnqueueMapBuffer", err) ? -1 : 0;
}

static void host_free(const struct clb_cl_env *env, struct host_mem *h)
{
    if (h->pinned) {
        if (h->p) {
            clEnqueueUnmapMemObject(env->queue, h->pinned, h->p, 0, NULL, NULL);
            clFinish(env->queue);
        }
        clReleaseMemObject(h->pinned);
    } else {
        free(h->p);
    }
}

/* Times copies in one direction after one warm-up (clb_micro_want says how many); checks
 * the data that arrived. */
static void measure(const struct clb_cl_env *env, enum mode m, bool to_device, size_t size,
                    const struct clb_micro_options *opt, struct clb_micro_row *row)
{
    struct clb_error e = { "" };
    struct host_mem h = { 0 };
    unsigned char *check = malloc(size), *want = malloc(size);
    cl_mem dev = NULL;
    cl_int err;

    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    row->work = (double)size;
    if (!check || !want) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    if (host_alloc(env, m, size, &h, &e))
        goto fault;
    dev = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    if (clb_cl_check(&e, "clCreateBuffer", err))
        goto fault;
    fill_random(want, size, size * 2 + to_device);
    if (to_device) {
        memcpy(h.p, want, size);
    } else if (CLB_CL(&e, clEnqueueWriteBuffer, env->queue, dev, CL_TRUE, 0, size, want, 0, NULL,
                      NULL)) {
        goto fault;
    }
    for (bool warm = false; !warm || clb_micro_want(row, opt->runs, opt->min_time_s);
         warm = true) {
        double t0 = clb_now_s();
        err = to_device ? clEnqueueWriteBuffer(env->queue, dev, CL_TRUE, 0, size, h.p, 0, NULL, NULL)
                        : clEnqueueReadBuffer(env->queue, dev, CL_TRUE, 0, size, h.p, 0, NULL, NULL);
        if (clb_cl_check(&e, to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", err) ||
            clb_cl_check(&e, "clFinish", clb_cl_finish(env->queue)))
            goto fault;
        if (warm && clb_micro_push(row, clb_now_s() - t0)) {
            clb_error_set(&e, "out of host memory");
            goto fault;
        }
    }
    /* What arrived must be what was sent. */
    if (to_device) {
        if (CLB_CL(&e, clEnqueueReadBuffer, env->queue, dev, CL_TRUE, 0, size, check, 0, NULL,
                   NULL))
            goto fault;
    } else {
        memcpy(check, h.p, size);
    }
    if (memcmp(check, want, size) != 0) {
        row->status = CLB_ROW_FAILED;
        snprintf(row->reason, sizeof(row->reason), "wrong result: the data that arrived differs");
    }
    snprintf(row->check, sizeof(row->check), "every byte of random data compared");
    goto done;

fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_micro_row_summarize(row);
    if (dev)
        clReleaseMemObject(dev);
    host_free(env, &h);
    free(check);
    free(want);
}

int clb_transfer_run(const struct clb_device *dev, const struct clb_cl_env *env,
                     const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    const uint64_t *sizes = opt->sizes ? opt->sizes : default_sizes;
    const size_t n_sizes = opt->sizes ? opt->n_sizes : sizeof(default_sizes) / sizeof(default_sizes[0]);
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);

    for (int m = PAGEABLE; m <= PINNED; m++) {
        for (int dir = 0; dir < 2; dir++) {
            for (size_t i = 0; i < n_sizes; i++) {
                struct clb_micro_row *row = clb_micro_add(out, dev, "transfer", "gbps");
                char size_s[32];
                if (!row)
                    return -1;
                clb_format_bytes(sizes[i], size_s, sizeof(size_s));
                snprintf(row->case_, sizeof(row->case_), "%s %s %s", dir ? "d2h" : "h2d",
                         mode_names[m], size_s);
                if (sizes[i] > max_alloc) {
                    row->status = CLB_ROW_SKIPPED;
                    snprintf(row->reason, sizeof(row->reason),
                             "over the device's largest allocation");
                    continue;
                }
                measure(env, (enum mode)m, dir == 0, (size_t)sizes[i], opt, row);
            }
        }
    }
    return 0;
}
