#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clbench/bench/micro.h"
#include "clbench/bench/transfer.h"
#include "clbench/cl/env.h"
#include "clbench/cl/fault.h"
#include "clbench/util/rng.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

static const uint64_t default_sizes[] = { 4u << 10, 64u << 10, 1u << 20, 16u << 20, 256u << 20 };

const char *const clb_transfer_mode_names[CLB_TRANSFER_MODE_COUNT] = {
    [CLB_TRANSFER_PAGEABLE] = "pageable", [CLB_TRANSFER_PINNED] = "pinned",
    [CLB_TRANSFER_ASYNC] = "async",       [CLB_TRANSFER_MAP] = "map",
    [CLB_TRANSFER_ZERO_COPY] = "zero-copy",
};

/* In the case name: async is pinned memory enqueued non-blocking. */
static const char *const case_names[CLB_TRANSFER_MODE_COUNT] = {
    [CLB_TRANSFER_PAGEABLE] = "pageable", [CLB_TRANSFER_PINNED] = "pinned",
    [CLB_TRANSFER_ASYNC] = "pinned async", [CLB_TRANSFER_MAP] = "map",
    [CLB_TRANSFER_ZERO_COPY] = "zero-copy",
};

static void fill_random(unsigned char *p, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = clb_rng_next(&seed);
        memcpy(p + i, &v, n - i < 8 ? n - i : 8);
    }
}

/*
 * One row's memory. host: what the copies go from or to (malloc'd, or mapped
 * CL_MEM_ALLOC_HOST_PTR for pinned and async), or, for zero-copy, the host's
 * own page-aligned allocation the device buffer is made over. dev: the device
 * buffer. mirror (zero-copy only): a plain device buffer for device-side
 * copies. mapped: the map of dev now open (one a fault left open is closed by xfer_free).
 */
struct xfer {
    const struct clb_cl_env *env;
    enum clb_transfer_mode mode;
    bool to_device;
    size_t size;
    unsigned char *host;
    cl_mem pinned;
    cl_mem dev, mirror;
    void *mapped;
};

static void *map(struct xfer *x, cl_map_flags flags, struct clb_error *e)
{
    cl_int err;
    void *p = clEnqueueMapBuffer(x->env->queue, x->dev, CL_TRUE, flags, 0, x->size, 0, NULL,
                                 NULL, &err);

    if (clb_cl_check(e, "clEnqueueMapBuffer", err))
        return NULL;
    x->mapped = p;
    return p;
}

static int unmap(struct xfer *x, struct clb_error *e)
{
    void *p = x->mapped;

    x->mapped = NULL;
    return CLB_CL(e, clEnqueueUnmapMemObject, x->env->queue, x->dev, p, 0, NULL, NULL) ? -1 : 0;
}

static int finish(struct xfer *x, struct clb_error *e)
{
    return clb_cl_check(e, "clFinish", clb_cl_finish(x->env->queue)) ? -1 : 0;
}

/* Device-side copy between the zero-copy buffer and its mirror, waited for. */
static int device_copy(struct xfer *x, cl_mem from, cl_mem to, struct clb_error *e)
{
    if (CLB_CL(e, clEnqueueCopyBuffer, x->env->queue, from, to, 0, 0, x->size, 0, NULL, NULL))
        return -1;
    return finish(x, e);
}

/*
 * Allocates x's memory and puts `want` where the timed call starts from:
 * in host memory for h2d, in the device buffer for d2h. Where the bytes
 * arrive starts as POISON (scratch: size bytes to write it from), so that a
 * path that moves nothing fails even where memory of an earlier row is reused.
 */
enum { POISON = 0xa5 };

static int xfer_setup(struct xfer *x, const unsigned char *want, unsigned char *scratch,
                      struct clb_error *e)
{
    const struct clb_cl_env *env = x->env;
    cl_int err;

    switch (x->mode) {
    case CLB_TRANSFER_PINNED:
    case CLB_TRANSFER_ASYNC:
        x->pinned = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, x->size,
                                  NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer(CL_MEM_ALLOC_HOST_PTR)", err))
            return -1;
        x->host = clEnqueueMapBuffer(env->queue, x->pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                     0, x->size, 0, NULL, NULL, &err);
        if (clb_cl_check(e, "clEnqueueMapBuffer", err))
            return -1;
        break;
    case CLB_TRANSFER_ZERO_COPY: {
        /* Page-aligned and a whole number of pages, as drivers want for sharing it. */
        const long page_l = sysconf(_SC_PAGESIZE);
        const size_t page = page_l > 0 ? (size_t)page_l : 4096;
        void *p = NULL;
        if (posix_memalign(&p, page, (x->size + page - 1) / page * page)) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
        x->host = p;
        /* Bytes the transfer must replace: a path that moves nothing fails. */
        memset(x->host, POISON, x->size);
        x->dev = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, x->size, x->host,
                               &err);
        if (clb_cl_check(e, "clCreateBuffer(CL_MEM_USE_HOST_PTR)", err))
            return -1;
        x->mirror = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, x->size, NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
        if (x->to_device) {
            /* The host writes its bytes in place, inside a map as the API asks. */
            unsigned char *m = map(x, CL_MAP_WRITE_INVALIDATE_REGION, e);
            if (!m)
                return -1;
            memcpy(m, want, x->size);
            return unmap(x, e) || finish(x, e) ? -1 : 0;
        }
        /* The device writes the bytes the host then finds in its own memory. */
        if (CLB_CL(e, clEnqueueWriteBuffer, env->queue, x->mirror, CL_TRUE, 0, x->size, want, 0,
                   NULL, NULL))
            return -1;
        return device_copy(x, x->mirror, x->dev, e);
    }
    default:
        if (!(x->host = malloc(x->size))) {
            clb_error_set(e, "out of host memory");
            return -1;
        }
        break;
    }
    x->dev = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, x->size, NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer", err))
        return -1;
    if (x->to_device) {
        memcpy(x->host, want, x->size);
        memset(scratch, POISON, x->size);
    } else {
        memset(x->host, POISON, x->size);
    }
    return CLB_CL(e, clEnqueueWriteBuffer, env->queue, x->dev, CL_TRUE, 0, x->size,
                  x->to_device ? scratch : want, 0, NULL, NULL) ? -1 : 0;
}

/* One call of the path, everything the host waits for included. */
static int xfer_call(struct xfer *x, struct clb_error *e)
{
    cl_command_queue q = x->env->queue;
    unsigned char *m;
    cl_bool blocking = x->mode == CLB_TRANSFER_ASYNC ? CL_FALSE : CL_TRUE;
    cl_int err;

    switch (x->mode) {
    case CLB_TRANSFER_MAP:
        m = map(x, x->to_device ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ, e);
        if (!m)
            return -1;
        if (x->to_device)
            memcpy(m, x->host, x->size);
        else
            memcpy(x->host, m, x->size);
        return unmap(x, e) || finish(x, e) ? -1 : 0;
    case CLB_TRANSFER_ZERO_COPY:
        /* The handover only: the bytes are already where they are used. CL_MAP_WRITE, not
         * ..._INVALIDATE_REGION: the bytes checked afterwards must stay defined. */
        if (!map(x, x->to_device ? CL_MAP_WRITE : CL_MAP_READ, e))
            return -1;
        return unmap(x, e) || finish(x, e) ? -1 : 0;
    default:
        err = x->to_device
                  ? clEnqueueWriteBuffer(q, x->dev, blocking, 0, x->size, x->host, 0, NULL, NULL)
                  : clEnqueueReadBuffer(q, x->dev, blocking, 0, x->size, x->host, 0, NULL, NULL);
        if (clb_cl_check(e, x->to_device ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", err))
            return -1;
        return finish(x, e);
    }
}

/* Copies what arrived into `out`: from the device for h2d, from host memory for d2h. */
static int xfer_arrived(struct xfer *x, unsigned char *out, struct clb_error *e)
{
    cl_command_queue q = x->env->queue;
    cl_mem from = x->dev;

    if (x->mode == CLB_TRANSFER_ZERO_COPY) {
        if (!x->to_device) {
            /* What the host sees in its own memory, inside a map. */
            const unsigned char *m = map(x, CL_MAP_READ, e);
            if (!m)
                return -1;
            memcpy(out, m, x->size);
            return unmap(x, e) || finish(x, e) ? -1 : 0;
        }
        /* What the device sees: its own copy of the buffer. */
        if (device_copy(x, x->dev, x->mirror, e))
            return -1;
        from = x->mirror;
    } else if (!x->to_device) {
        memcpy(out, x->host, x->size);
        return 0;
    }
    return CLB_CL(e, clEnqueueReadBuffer, q, from, CL_TRUE, 0, x->size, out, 0, NULL, NULL) ? -1
                                                                                          : 0;
}

static void xfer_free(struct xfer *x)
{
    cl_command_queue q = x->env->queue;

    if (x->mapped)
        clEnqueueUnmapMemObject(q, x->dev, x->mapped, 0, NULL, NULL);
    if (x->pinned && x->host)
        clEnqueueUnmapMemObject(q, x->pinned, x->host, 0, NULL, NULL);
    clFinish(q);
    if (x->dev)
        clReleaseMemObject(x->dev);
    if (x->mirror)
        clReleaseMemObject(x->mirror);
    if (x->pinned)
        clReleaseMemObject(x->pinned);
    else
        free(x->host); /* after the buffer made over it is gone */
}

static void check_text(enum clb_transfer_mode m, bool to_device, bool unified, char *buf,
                       size_t len)
{
    switch (m) {
    case CLB_TRANSFER_ASYNC:
        snprintf(buf, len, "non-blocking enqueue + clFinish timed; every byte of random data "
                           "compared");
        break;
    case CLB_TRANSFER_MAP:
        snprintf(buf, len, "map (%s) + memcpy + unmap + clFinish timed; every byte of random "
                           "data compared", to_device ? "write-invalidate" : "read");
        break;
    case CLB_TRANSFER_ZERO_COPY:
        snprintf(buf, len, "handover alone timed: map + unmap of USE_HOST_PTR host memory, no "
                           "copy (unified memory: %s); every byte compared%s",
                 unified ? "yes" : "no", to_device ? " after a device-side copy" : "");
        break;
    default:
        snprintf(buf, len, "every byte of random data compared");
        break;
    }
}

/* Times one path in one direction after one warm-up (clb_micro_want says how many); checks
 * the data that arrived. */
static void measure(const struct clb_cl_env *env, enum clb_transfer_mode m, bool to_device,
                    bool unified, size_t size, const struct clb_micro_options *opt,
                    struct clb_row *row)
{
    struct clb_error e = { "" };
    struct xfer x = { .env = env, .mode = m, .to_device = to_device, .size = size };
    unsigned char *check = malloc(size), *want = malloc(size);

    row->status = CLB_ROW_OK;
    row->reason[0] = '\0';
    /* Zero-copy moves no bytes in the timed call: its figure is the handover's time. */
    row->work = m == CLB_TRANSFER_ZERO_COPY ? 0 : (double)size;
    if (!check || !want) {
        clb_error_set(&e, "out of host memory");
        goto fault;
    }
    fill_random(want, size, size * 2 + to_device);
    if (xfer_setup(&x, want, check, &e))
        goto fault;
    for (bool warm = false; !warm || clb_micro_want(row, opt->runs, opt->min_time_s);
         warm = true) {
        double t0 = clb_now_s();
        if (xfer_call(&x, &e))
            goto fault;
        if (warm && clb_micro_push(row, clb_now_s() - t0)) {
            clb_error_set(&e, "out of host memory");
            goto fault;
        }
    }
    /* What arrived must be what was sent. */
    if (xfer_arrived(&x, check, &e))
        goto fault;
    if (clb_fault("TRANSFER"))
        check[size / 2] ^= 0x40;
    if (memcmp(check, want, size) != 0) {
        size_t at = 0;
        while (check[at] == want[at])
            at++;
        row->status = CLB_ROW_FAILED;
        snprintf(row->reason, sizeof(row->reason),
                 "wrong result: the data that arrived differs (first at byte %zu)", at);
    }
    check_text(m, to_device, unified, row->check, sizeof(row->check));
    goto done;

fault:
    row->status = CLB_ROW_ERROR;
    snprintf(row->reason, sizeof(row->reason), "%s", e.msg);
done:
    clb_micro_row_summarize(row);
    xfer_free(&x);
    free(check);
    free(want);
}

int clb_transfer_run(const struct clb_device *dev, const struct clb_cl_env *env,
                     const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    const uint64_t *sizes = opt->sizes ? opt->sizes : default_sizes;
    const size_t n_sizes = opt->sizes ? opt->n_sizes : sizeof(default_sizes) / sizeof(default_sizes[0]);
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);
    const unsigned modes = opt->transfer_modes ? opt->transfer_modes : CLB_TRANSFER_DEFAULT_MODES;
    const bool unified = clb_device_bool(dev, CLB_PROP_HOST_UNIFIED_MEMORY);

    for (int m = 0; m < CLB_TRANSFER_MODE_COUNT; m++) {
        if (!(modes & (1u << m)))
            continue;
        for (int dir = 0; dir < 2; dir++) {
            for (size_t i = 0; i < n_sizes; i++) {
                struct clb_row *row = clb_micro_add(
                    out, dev, CLB_BENCH_TRANSFER, m == CLB_TRANSFER_ZERO_COPY ? "us" : "gbps");
                char size_s[32];
                if (!row)
                    return -1;
                clb_format_bytes(sizes[i], size_s, sizeof(size_s));
                snprintf(row->case_, sizeof(row->case_), "%s %s %s", dir ? "d2h" : "h2d",
                         case_names[m], size_s);
                if (sizes[i] > max_alloc) {
                    row->status = CLB_ROW_SKIPPED;
                    snprintf(row->reason, sizeof(row->reason),
                             "over the device's largest allocation");
                    continue;
                }
                measure(env, (enum clb_transfer_mode)m, dir == 0, unified, (size_t)sizes[i], opt,
                        row);
            }
        }
    }
    return 0;
}
