#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clbench/bench/micro.h"
#include "clbench/cl/kernels.h"
#include "clbench/util/timer.h"
#include "clbench/util/units.h"

#define SCALAR 0.4f
#define START_A 0.1f
#define START_B 0.2f
#define START_C 0.0f
/* Rounds between re-initialisations (untimed): a shrinks by 0.96 a round, so without
 * them a * b underflows after about 1000 rounds and the dot product stops being checkable. */
enum { REINIT_ROUNDS = 200 };
/* Default bytes per array: far beyond the caches of CPUs and GPUs alike. */
#define DEFAULT_BYTES (UINT64_C(256) << 20)

enum { K_COPY, K_MUL, K_ADD, K_TRIAD, K_DOT, N_KERNELS };
static const char *const names[N_KERNELS] = { "copy", "mul", "add", "triad", "dot" };
static const char *const symbols[N_KERNELS] = { "clb_stream_copy", "clb_stream_mul",
                                                "clb_stream_add", "clb_stream_triad",
                                                "clb_stream_dot" };
/* Elements per work-item of clb_stream_dot_chunked (DOT_CHUNK in stream.cl). */
enum { DOT_CHUNK = 1024 };
/* Arrays each kernel reads plus writes. */
static const unsigned arrays_moved[N_KERNELS] = { 2, 2, 3, 3, 2 };

void clb_stream_expected(unsigned iters, float scalar, double *a, double *b, double *c)
{
    float fa = START_A, fb = START_B, fc = START_C;

    for (unsigned i = 0; i < iters; i++) {
        fc = fa;
        fb = scalar * fc;
        fc = fa + fb;
        fa = fb + scalar * fc;
    }
    *a = fa;
    *b = fb;
    *c = fc;
}

struct stream {
    const struct clb_cl_env *env;
    cl_program prog;
    cl_kernel init, k[N_KERNELS];
    cl_mem a, b, c, partial;
    size_t n, dot_global, dot_local, groups; /* groups: partial sums */
    bool chunked_dot;
};

static void stream_release(struct stream *s)
{
    for (int i = 0; i < N_KERNELS; i++)
        if (s->k[i])
            clReleaseKernel(s->k[i]);
    if (s->init)
        clReleaseKernel(s->init);
    cl_mem *mems[] = { &s->a, &s->b, &s->c, &s->partial };
    for (size_t i = 0; i < 4; i++)
        if (*mems[i])
            clReleaseMemObject(*mems[i]);
    if (s->prog)
        clReleaseProgram(s->prog);
}

/* Resets a, b, c to their starting values (untimed). */
static int stream_init(struct stream *s, struct clb_error *e)
{
    return CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->init, 1, NULL, &s->n, NULL, 0,
                  NULL, NULL) ||
                   clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue))
               ? -1
               : 0;
}

static int stream_setup(struct stream *s, const struct clb_device *dev, struct clb_error *e)
{
    const struct clb_cl_env *env = s->env;
    const float va = START_A, vb = START_B, vc = START_C, scalar = SCALAR;
    const cl_uint n32 = (cl_uint)s->n;
    cl_int err;

    if (!(s->prog = clb_cl_build(env->ctx, dev->id, clb_kernel_source("stream"), NULL, e)))
        return -1;
    s->init = clCreateKernel(s->prog, "clb_stream_init", &err);
    if (clb_cl_check(e, "clCreateKernel", err))
        return -1;
    /* CPUs want each work-item on contiguous data, GPUs want neighbours on neighbours. */
    s->chunked_dot = clb_device_is_cpu(dev);
    for (int i = 0; i < N_KERNELS; i++) {
        const char *sym = i == K_DOT && s->chunked_dot ? "clb_stream_dot_chunked" : symbols[i];
        s->k[i] = clCreateKernel(s->prog, sym, &err);
        if (clb_cl_check(e, "clCreateKernel", err))
            return -1;
    }
    cl_mem *arrays[] = { &s->a, &s->b, &s->c };
    for (int i = 0; i < 3; i++) {
        *arrays[i] = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, s->n * sizeof(float), NULL, &err);
        if (clb_cl_check(e, "clCreateBuffer", err))
            return -1;
    }
    /* The dot product: a few work-groups per compute unit, a power-of-two size. */
    s->dot_local = 1;
    while (s->dot_local * 2 <= 256 &&
           s->dot_local * 2 <= clb_device_u64(dev, CLB_PROP_MAX_WORK_GROUP_SIZE))
        s->dot_local *= 2;
    s->groups = clb_device_u64(dev, CLB_PROP_COMPUTE_UNITS) * 4;
    if (s->groups == 0)
        s->groups = 4;
    s->dot_global = s->groups * s->dot_local;
    if (s->chunked_dot) {
        s->groups = s->dot_global = s->n / DOT_CHUNK; /* n is a multiple of 1024 */
        s->dot_local = 0;
    }
    s->partial = clb_cl_buffer(env->ctx, CL_MEM_READ_WRITE, s->groups * sizeof(float), NULL, &err);
    if (clb_cl_check(e, "clCreateBuffer", err))
        return -1;

    if (CLB_CL(e, clSetKernelArg, s->init, 0, sizeof(cl_mem), &s->a) ||
        CLB_CL(e, clSetKernelArg, s->init, 1, sizeof(cl_mem), &s->b) ||
        CLB_CL(e, clSetKernelArg, s->init, 2, sizeof(cl_mem), &s->c) ||
        CLB_CL(e, clSetKernelArg, s->init, 3, sizeof(float), &va) ||
        CLB_CL(e, clSetKernelArg, s->init, 4, sizeof(float), &vb) ||
        CLB_CL(e, clSetKernelArg, s->init, 5, sizeof(float), &vc) ||
        CLB_CL(e, clSetKernelArg, s->k[K_COPY], 0, sizeof(cl_mem), &s->a) ||
        CLB_CL(e, clSetKernelArg, s->k[K_COPY], 1, sizeof(cl_mem), &s->c) ||
        CLB_CL(e, clSetKernelArg, s->k[K_MUL], 0, sizeof(cl_mem), &s->b) ||
        CLB_CL(e, clSetKernelArg, s->k[K_MUL], 1, sizeof(cl_mem), &s->c) ||
        CLB_CL(e, clSetKernelArg, s->k[K_MUL], 2, sizeof(float), &scalar) ||
        CLB_CL(e, clSetKernelArg, s->k[K_ADD], 0, sizeof(cl_mem), &s->a) ||
        CLB_CL(e, clSetKernelArg, s->k[K_ADD], 1, sizeof(cl_mem), &s->b) ||
        CLB_CL(e, clSetKernelArg, s->k[K_ADD], 2, sizeof(cl_mem), &s->c) ||
        CLB_CL(e, clSetKernelArg, s->k[K_TRIAD], 0, sizeof(cl_mem), &s->a) ||
        CLB_CL(e, clSetKernelArg, s->k[K_TRIAD], 1, sizeof(cl_mem), &s->b) ||
        CLB_CL(e, clSetKernelArg, s->k[K_TRIAD], 2, sizeof(cl_mem), &s->c) ||
        CLB_CL(e, clSetKernelArg, s->k[K_TRIAD], 3, sizeof(float), &scalar) ||
        CLB_CL(e, clSetKernelArg, s->k[K_DOT], 0, sizeof(cl_mem), &s->a) ||
        CLB_CL(e, clSetKernelArg, s->k[K_DOT], 1, sizeof(cl_mem), &s->b) ||
        CLB_CL(e, clSetKernelArg, s->k[K_DOT], 2, sizeof(cl_mem), &s->partial))
        return -1;
    if (!s->chunked_dot &&
        (CLB_CL(e, clSetKernelArg, s->k[K_DOT], 3, s->dot_local * sizeof(float), NULL) ||
         CLB_CL(e, clSetKernelArg, s->k[K_DOT], 4, sizeof(cl_uint), &n32)))
        return -1;
    return stream_init(s, e);
}

/* One kernel, timed on the host clock around its completion. */
static int stream_step(struct stream *s, int which, double *seconds, struct clb_error *e)
{
    const size_t *global = which == K_DOT ? &s->dot_global : &s->n;
    const size_t *local = which == K_DOT && !s->chunked_dot ? &s->dot_local : NULL;
    double t0 = clb_now_s();

    if (CLB_CL(e, clEnqueueNDRangeKernel, s->env->queue, s->k[which], 1, NULL, global, local, 0,
               NULL, NULL) ||
        clb_cl_check(e, "clFinish", clb_cl_finish(s->env->queue)))
        return -1;
    *seconds = clb_now_s() - t0;
    return 0;
}

static double worst_error(const float *x, size_t n, double want)
{
    double worst = 0.0;

    for (size_t j = 0; x && j < n; j++) {
        double err = fabs(x[j] - want) / fabs(want);
        if (!(err <= worst))
            worst = isnan(err) ? INFINITY : err;
    }
    return worst;
}

bool clb_stream_verify(const float *a, const float *b, const float *c, size_t n, double dot,
                       unsigned iters, char *why, size_t why_len)
{
    double want[3];
    const float *arrays[3] = { a, b, c };

    clb_stream_expected(iters, SCALAR, &want[0], &want[1], &want[2]);
    for (int i = 0; i < 3; i++) {
        double worst = worst_error(arrays[i], n, want[i]);
        /* Device and host round the same float operations; FMA contraction differs by an ulp. */
        if (!(worst <= 1e-4)) {
            snprintf(why, why_len, "wrong result: array %c differs from %.7g by up to %.3g "
                                   "(relative)", "abc"[i], want[i], worst);
            return false;
        }
    }
    double dot_want = want[0] * want[1] * (double)n;
    if (!(fabs(dot - dot_want) <= 1e-4 * dot_want)) {
        snprintf(why, why_len, "wrong result: dot %.9g, expected %.9g", dot, dot_want);
        return false;
    }
    return true;
}

/* Reads the arrays and partial sums back and verifies them; -1 only on a device fault. */
static int stream_check(struct stream *s, unsigned iters, char *why, size_t len,
                        struct clb_error *e)
{
    float *host[3] = { malloc(s->n * sizeof(float)), malloc(s->n * sizeof(float)),
                       malloc(s->n * sizeof(float)) };
    float *partial = malloc(s->groups * sizeof(float));
    cl_mem arrays[3] = { s->a, s->b, s->c };
    double dot = 0.0;
    int rc = -1;

    if (!host[0] || !host[1] || !host[2] || !partial) {
        clb_error_set(e, "out of host memory");
        goto out;
    }
    for (int i = 0; i < 3; i++)
        if (CLB_CL(e, clEnqueueReadBuffer, s->env->queue, arrays[i], CL_TRUE, 0,
                   s->n * sizeof(float), host[i], 0, NULL, NULL))
            goto out;
    if (CLB_CL(e, clEnqueueReadBuffer, s->env->queue, s->partial, CL_TRUE, 0,
               s->groups * sizeof(float), partial, 0, NULL, NULL))
        goto out;
    for (size_t g = 0; g < s->groups; g++)
        dot += partial[g];
    why[0] = '\0';
    clb_stream_verify(host[0], host[1], host[2], s->n, dot, iters, why, len);
    rc = 0;
out:
    for (int i = 0; i < 3; i++)
        free(host[i]);
    free(partial);
    return rc;
}

/* Whether any of the kernels' rows wants another timed round. */
static bool more(struct clb_micro_row *const *rows, const struct clb_micro_options *opt)
{
    bool want = false;

    for (int i = 0; i < N_KERNELS; i++)
        want |= clb_micro_want(rows[i], opt->runs, opt->min_time_s);
    return want;
}

int clb_bandwidth_run(const struct clb_device *dev, const struct clb_cl_env *env,
                      const struct clb_micro_options *opt, struct clb_micro_results *out)
{
    struct clb_micro_row *rows[N_KERNELS];
    struct stream s = { .env = env };
    struct clb_error e = { "" };
    char why[512] = "", a[32], b[32];
    uint64_t bytes = opt->bytes ? opt->bytes : DEFAULT_BYTES;
    const uint64_t max_alloc = clb_device_u64(dev, CLB_PROP_MAX_ALLOC_BYTES);
    const uint64_t global = clb_device_u64(dev, CLB_PROP_GLOBAL_MEM_BYTES);
    enum clb_row_status status = CLB_ROW_OK;

    for (int i = 0; i < N_KERNELS; i++) {
        if (!(rows[i] = clb_micro_add(out, dev, "bandwidth", "gbps")))
            return -1;
    }
    /* rows[] may have moved while growing: take them again. */
    for (int i = 0; i < N_KERNELS; i++) {
        rows[i] = &out->rows[out->n_rows - N_KERNELS + i];
        snprintf(rows[i]->case_, sizeof(rows[i]->case_), "%s", names[i]);
    }
    if (!opt->bytes) {
        /* The default shrinks to what the device allows; an explicit --bytes does not. */
        if (bytes > max_alloc)
            bytes = max_alloc;
        if (bytes > global / 4)
            bytes = global / 4;
    }
    s.n = (size_t)(bytes / sizeof(float)) / 1024 * 1024;
    if (s.n == 0 || s.n > UINT32_MAX) {
        status = CLB_ROW_SKIPPED;
        snprintf(why, sizeof(why), "arrays of %" PRIu64 " bytes are outside 4 KiB .. 16 GiB",
                 bytes);
    } else if (bytes > max_alloc || 3 * bytes > global) {
        status = CLB_ROW_SKIPPED;
        clb_format_bytes(bytes, a, sizeof(a));
        clb_format_bytes(max_alloc, b, sizeof(b));
        snprintf(why, sizeof(why), "three arrays of %s do not fit (largest allocation %s)", a, b);
    } else if (stream_setup(&s, dev, &e)) {
        status = CLB_ROW_ERROR;
        snprintf(why, sizeof(why), "%s", e.msg);
    } else {
        for (int i = 0; i < N_KERNELS; i++)
            rows[i]->work = (double)arrays_moved[i] * (double)s.n * sizeof(float);
        /* BabelStream's order; the first round warms up and is not timed. Rounds go on
         * while any kernel wants more (clb_micro_want). */
        unsigned since_init = 0;
        for (unsigned r = 0; status == CLB_ROW_OK && (r == 0 || more(rows, opt)); r++) {
            if (since_init == REINIT_ROUNDS) {
                if (stream_init(&s, &e)) {
                    status = CLB_ROW_ERROR;
                    snprintf(why, sizeof(why), "%s", e.msg);
                    break;
                }
                since_init = 0;
            }
            since_init++;
            for (int i = 0; i < N_KERNELS && status == CLB_ROW_OK; i++) {
                double t;
                if (stream_step(&s, i, &t, &e)) {
                    status = CLB_ROW_ERROR;
                    snprintf(why, sizeof(why), "%s", e.msg);
                } else if (r > 0 && clb_micro_push(rows[i], t)) {
                    status = CLB_ROW_ERROR;
                    snprintf(why, sizeof(why), "out of host memory");
                }
            }
        }
        if (status == CLB_ROW_OK) {
            if (stream_check(&s, since_init, why, sizeof(why), &e)) {
                status = CLB_ROW_ERROR;
                snprintf(why, sizeof(why), "%s", e.msg);
            } else if (why[0]) {
                status = CLB_ROW_FAILED;
            }
        }
    }
    clb_format_bytes((uint64_t)s.n * sizeof(float), a, sizeof(a));
    for (int i = 0; i < N_KERNELS; i++) {
        rows[i]->status = status;
        snprintf(rows[i]->reason, sizeof(rows[i]->reason), "%s", status == CLB_ROW_OK ? "" : why);
        snprintf(rows[i]->check, sizeof(rows[i]->check),
                 "3 arrays of %s and the dot product against the scalar recurrence", a);
        clb_micro_row_summarize(rows[i]);
    }
    stream_release(&s);
    return 0;
}
